package io.github.distlock.autoconfigure;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.sql.init.DatabaseInitializationMode;
import org.springframework.core.Ordered;

import io.github.distlock.core.ConnectionLossPolicy;

/**
 * Configuration properties of distlock, under the {@code distlock} prefix.
 */
@ConfigurationProperties("distlock")
public class DistlockProperties {

	/**
	 * Whether distlock is enabled: the ZooKeeper client, the lock API and the lock
	 * annotations.
	 */
	private boolean enabled = true;

	private final Zookeeper zookeeper = new Zookeeper();

	private final Lock lock = new Lock();

	private final Health health = new Health();

	private final Web web = new Web();

	private final Leadership leadership = new Leadership();

	private final Fencing fencing = new Fencing();

	private final Admin admin = new Admin();

	private final Console console = new Console();

	private final Kafka kafka = new Kafka();

	private final Shutdown shutdown = new Shutdown();

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	public Zookeeper getZookeeper() {
		return this.zookeeper;
	}

	public Lock getLock() {
		return this.lock;
	}

	public Health getHealth() {
		return this.health;
	}

	public Web getWeb() {
		return this.web;
	}

	public Leadership getLeadership() {
		return this.leadership;
	}

	public Fencing getFencing() {
		return this.fencing;
	}

	public Admin getAdmin() {
		return this.admin;
	}

	public Console getConsole() {
		return this.console;
	}

	public Kafka getKafka() {
		return this.kafka;
	}

	public Shutdown getShutdown() {
		return this.shutdown;
	}

	/**
	 * Connection to the ZooKeeper ensemble.
	 */
	public static class Zookeeper {

		/**
		 * Comma-separated host:port pairs of the ZooKeeper ensemble.
		 */
		private String connectString = "localhost:2181";

		/**
		 * Root node under which all lock nodes live, without a leading '/'.
		 */
		private String namespace = "distlock";

		/**
		 * Session timeout requested from ZooKeeper; a holder's locks die with its
		 * session.
		 */
		private Duration sessionTimeout = Duration.ofSeconds(60);

		/**
		 * Time allowed for establishing a connection; when not set, the session timeout,
		 * at most 15s.
		 */
		private @Nullable Duration connectionTimeout;

		private final Retry retry = new Retry();

		private final Embedded embedded = new Embedded();

		private final Auth auth = new Auth();

		private final Acl acl = new Acl();

		private final Ssl ssl = new Ssl();

		private final Sasl sasl = new Sasl();

		public String getConnectString() {
			return this.connectString;
		}

		public void setConnectString(String connectString) {
			this.connectString = connectString;
		}

		public String getNamespace() {
			return this.namespace;
		}

		public void setNamespace(String namespace) {
			this.namespace = namespace;
		}

		public Duration getSessionTimeout() {
			return this.sessionTimeout;
		}

		public void setSessionTimeout(Duration sessionTimeout) {
			this.sessionTimeout = sessionTimeout;
		}

		public @Nullable Duration getConnectionTimeout() {
			return this.connectionTimeout;
		}

		public void setConnectionTimeout(@Nullable Duration connectionTimeout) {
			this.connectionTimeout = connectionTimeout;
		}

		public Retry getRetry() {
			return this.retry;
		}

		public Embedded getEmbedded() {
			return this.embedded;
		}

		public Auth getAuth() {
			return this.auth;
		}

		public Acl getAcl() {
			return this.acl;
		}

		public Ssl getSsl() {
			return this.ssl;
		}

		public Sasl getSasl() {
			return this.sasl;
		}

	}

	/**
	 * Authentication of the client's session, sent to ZooKeeper with every connection.
	 */
	public static class Auth {

		/**
		 * Authentication scheme, the name of a server-side authentication provider.
		 */
		private String scheme = "digest";

		/**
		 * User name; with the digest scheme the client authenticates as
		 * 'username:password'.
		 */
		private @Nullable String username;

		/**
		 * Password of the user; without a username, the whole authentication data sent
		 * for the scheme.
		 */
		private @Nullable String password;

		public String getScheme() {
			return this.scheme;
		}

		public void setScheme(String scheme) {
			this.scheme = scheme;
		}

		public @Nullable String getUsername() {
			return this.username;
		}

		public void setUsername(@Nullable String username) {
			this.username = username;
		}

		public @Nullable String getPassword() {
			return this.password;
		}

		public void setPassword(@Nullable String password) {
			this.password = password;
		}

	}

	/**
	 * Access control lists of the nodes distlock creates.
	 */
	public static class Acl {

		/**
		 * ACLs given to every node distlock creates, lock nodes and their parents alike.
		 */
		private AclMode mode = AclMode.AUTO;

		/**
		 * ACL entries in ZooKeeper's 'scheme:id:permissions' form, with permissions among
		 * 'crwda'; used when the mode is 'custom'.
		 */
		private List<String> entries = new ArrayList<>();

		public AclMode getMode() {
			return this.mode;
		}

		public void setMode(AclMode mode) {
			this.mode = mode;
		}

		public List<String> getEntries() {
			return this.entries;
		}

		public void setEntries(List<String> entries) {
			this.entries = entries;
		}

	}

	/**
	 * ACLs given to the nodes distlock creates.
	 */
	public enum AclMode {

		/**
		 * Creator-only when credentials are configured under distlock.zookeeper.auth,
		 * open otherwise.
		 */
		AUTO,

		/**
		 * Only the authenticated identity that created a node may read, change or delete
		 * it, or create children under it.
		 */
		CREATOR_ONLY,

		/**
		 * Any client may do anything (ZooKeeper's OPEN_ACL_UNSAFE).
		 */
		OPEN,

		/**
		 * The entries of distlock.zookeeper.acl.entries.
		 */
		CUSTOM

	}

	/**
	 * TLS to ZooKeeper's secure client port.
	 */
	public static class Ssl {

		/**
		 * Whether to connect over TLS; implied when a bundle is set, and with no bundle
		 * the JDK's default trust store is used.
		 */
		private boolean enabled;

		/**
		 * Name of the SSL bundle with the trust material (and, for client authentication,
		 * the key) to connect with.
		 */
		private @Nullable String bundle;

		/**
		 * Whether to check that the server's certificate matches the host name or address
		 * it was reached at.
		 */
		private boolean hostnameVerification = true;

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		public @Nullable String getBundle() {
			return this.bundle;
		}

		public void setBundle(@Nullable String bundle) {
			this.bundle = bundle;
		}

		public boolean isHostnameVerification() {
			return this.hostnameVerification;
		}

		public void setHostnameVerification(boolean hostnameVerification) {
			this.hostnameVerification = hostnameVerification;
		}

	}

	/**
	 * SASL (Kerberos or DIGEST-MD5 through JAAS) authentication settings, passed to the
	 * ZooKeeper client as they are.
	 */
	public static class Sasl {

		/**
		 * Whether the client attempts SASL authentication; ZooKeeper's default (on when a
		 * JAAS configuration has the login context) when not set.
		 */
		private @Nullable Boolean enabled;

		/**
		 * Section of the JAAS configuration to log in with; ZooKeeper's default 'Client'
		 * when not set.
		 */
		private @Nullable String loginContext;

		/**
		 * Kerberos principal of the ZooKeeper servers, such as
		 * 'zookeeper/zk1.example.com@EXAMPLE.COM'.
		 */
		private @Nullable String serverPrincipal;

		public @Nullable Boolean getEnabled() {
			return this.enabled;
		}

		public void setEnabled(@Nullable Boolean enabled) {
			this.enabled = enabled;
		}

		public @Nullable String getLoginContext() {
			return this.loginContext;
		}

		public void setLoginContext(@Nullable String loginContext) {
			this.loginContext = loginContext;
		}

		public @Nullable String getServerPrincipal() {
			return this.serverPrincipal;
		}

		public void setServerPrincipal(@Nullable String serverPrincipal) {
			this.serverPrincipal = serverPrincipal;
		}

	}

	/**
	 * Exponential back-off retry of failed ZooKeeper operations.
	 */
	public static class Retry {

		/**
		 * Initial time to wait between retries.
		 */
		private Duration baseSleepTime = Duration.ofMillis(100);

		/**
		 * Longest time to wait between retries.
		 */
		private Duration maxSleepTime = Duration.ofSeconds(5);

		/**
		 * Maximum number of retries of one operation.
		 */
		private int maxRetries = 3;

		public Duration getBaseSleepTime() {
			return this.baseSleepTime;
		}

		public void setBaseSleepTime(Duration baseSleepTime) {
			this.baseSleepTime = baseSleepTime;
		}

		public Duration getMaxSleepTime() {
			return this.maxSleepTime;
		}

		public void setMaxSleepTime(Duration maxSleepTime) {
			this.maxSleepTime = maxSleepTime;
		}

		public int getMaxRetries() {
			return this.maxRetries;
		}

		public void setMaxRetries(int maxRetries) {
			this.maxRetries = maxRetries;
		}

	}

	/**
	 * ZooKeeper server started inside the application, for development only.
	 */
	public static class Embedded {

		/**
		 * Whether to start a ZooKeeper server inside the application and connect to it.
		 */
		private boolean enabled;

		/**
		 * Client port of the embedded server; 0 picks a free port.
		 */
		private int port = 2181;

		/**
		 * Directory for the embedded server's data; a temporary directory, deleted on
		 * shutdown, when not set.
		 */
		private @Nullable Path dataDir;

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		public int getPort() {
			return this.port;
		}

		public void setPort(int port) {
			this.port = port;
		}

		public @Nullable Path getDataDir() {
			return this.dataDir;
		}

		public void setDataDir(@Nullable Path dataDir) {
			this.dataDir = dataDir;
		}

	}

	/**
	 * Defaults of the lock annotations.
	 */
	public static class Lock {

		/**
		 * How long a lock annotation waits for its lock when it does not say; 0 tries
		 * once, -1 waits forever.
		 */
		private Duration waitTime = Duration.ofSeconds(5);

		/**
		 * Order of the lock advisor; the default puts the lock around @Transactional, so
		 * a transaction commits before its lock is released.
		 */
		private int order = Ordered.LOWEST_PRECEDENCE - 1;

		/**
		 * When a held lock counts as lost: SUSPENDED (as soon as the connection is
		 * suspended) or LOST (only when the session has expired).
		 */
		private ConnectionLossPolicy connectionLossPolicy = ConnectionLossPolicy.SUSPENDED;

		public Duration getWaitTime() {
			return this.waitTime;
		}

		public void setWaitTime(Duration waitTime) {
			this.waitTime = waitTime;
		}

		public int getOrder() {
			return this.order;
		}

		public void setOrder(int order) {
			this.order = order;
		}

		public ConnectionLossPolicy getConnectionLossPolicy() {
			return this.connectionLossPolicy;
		}

		public void setConnectionLossPolicy(ConnectionLossPolicy connectionLossPolicy) {
			this.connectionLossPolicy = connectionLossPolicy;
		}

	}

	/**
	 * What distlock does when the application context closes.
	 */
	public static class Shutdown {

		/**
		 * How long closing the application waits for the locks this instance holds to be
		 * released, once it drains (takes no new locks) after the web server's graceful
		 * shutdown; zero drains without waiting.
		 */
		private Duration drainTimeout = Duration.ofSeconds(5);

		public Duration getDrainTimeout() {
			return this.drainTimeout;
		}

		public void setDrainTimeout(Duration drainTimeout) {
			this.drainTimeout = drainTimeout;
		}

	}

	/**
	 * The {@code distlock} health indicator.
	 */
	public static class Health {

		/**
		 * How long the health check waits for ZooKeeper to answer a read before it
		 * reports DOWN; keep it below the timeout of whatever polls the health endpoint.
		 */
		private Duration timeout = Duration.ofSeconds(2);

		public Duration getTimeout() {
			return this.timeout;
		}

		public void setTimeout(Duration timeout) {
			this.timeout = timeout;
		}

	}

	/**
	 * Lock failures in web applications.
	 */
	public static class Web {

		private final ProblemDetails problemDetails = new ProblemDetails();

		public ProblemDetails getProblemDetails() {
			return this.problemDetails;
		}

	}

	/**
	 * The answer to a lock failure escaping a Spring MVC or WebFlux handler.
	 */
	public static class ProblemDetails {

		/**
		 * Whether a LockTimeoutException or LockLostException escaping a Spring MVC or
		 * WebFlux handler is answered with 503, a problem detail and Retry-After; the
		 * application's own @ExceptionHandler wins either way.
		 */
		private boolean enabled = true;

		/**
		 * Time after which clients are told to try again (Retry-After, in whole seconds).
		 */
		private Duration retryAfter = Duration.ofSeconds(1);

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		public Duration getRetryAfter() {
			return this.retryAfter;
		}

		public void setRetryAfter(Duration retryAfter) {
			this.retryAfter = retryAfter;
		}

	}

	/**
	 * Leader election ({@code @LeaderOnly} and the Leadership bean).
	 */
	public static class Leadership {

		/**
		 * Groups to join at startup besides those named by @LeaderOnly, for groups used
		 * only through the Leadership API.
		 */
		private List<String> groups = new ArrayList<>();

		/**
		 * Whether to leave every group while the application's readiness state refuses
		 * traffic, and join again once it accepts traffic. The same as require-readiness,
		 * which is on by default.
		 */
		private boolean giveUpWhenRefusingTraffic;

		/**
		 * Whether an instance whose readiness state refuses traffic must not lead: it
		 * leaves every group (a leader drains its calls and hands over to the next) when
		 * readiness turns to refusing traffic, and joins again once it accepts traffic.
		 */
		private boolean requireReadiness = true;

		public boolean isRequireReadiness() {
			return this.requireReadiness;
		}

		public void setRequireReadiness(boolean requireReadiness) {
			this.requireReadiness = requireReadiness;
		}

		/**
		 * Id of this instance in every group it joins, written as its latch nodes' data
		 * (the participant id a raw Curator LeaderLatch reads). Unique among the members
		 * of a group; spring.application.name@host:pid (application@host:pid without a
		 * name) if not set.
		 */
		private @Nullable String memberId;

		/**
		 * Groups whose leader this instance follows without taking part in their
		 * election, from startup: each change is published as a LeaderChangedEvent.
		 */
		private List<String> observe = new ArrayList<>();

		public List<String> getObserve() {
			return this.observe;
		}

		public void setObserve(List<String> observe) {
			this.observe = observe;
		}

		public @Nullable String getMemberId() {
			return this.memberId;
		}

		public void setMemberId(@Nullable String memberId) {
			this.memberId = memberId;
		}

		public List<String> getGroups() {
			return this.groups;
		}

		public void setGroups(List<String> groups) {
			this.groups = groups;
		}

		public boolean isGiveUpWhenRefusingTraffic() {
			return this.giveUpWhenRefusingTraffic;
		}

		public void setGiveUpWhenRefusingTraffic(boolean giveUpWhenRefusingTraffic) {
			this.giveUpWhenRefusingTraffic = giveUpWhenRefusingTraffic;
		}

		/**
		 * Whether this instance is a preferred leader of every group it joins: a leader
		 * that is not preferred hands its tenure to it (as transferTo does) once it has
		 * been a live member for preferred-delay.
		 */
		private boolean preferred;

		/**
		 * Groups of which this instance is a preferred leader, besides every group when
		 * preferred is set.
		 */
		private List<String> preferredGroups = new ArrayList<>();

		/**
		 * How long a preferred member must have been a live member of a group (one latch
		 * node all along) before a leader of this instance that is not preferred hands
		 * off to it.
		 */
		private Duration preferredDelay = Duration.ofSeconds(10);

		public boolean isPreferred() {
			return this.preferred;
		}

		public void setPreferred(boolean preferred) {
			this.preferred = preferred;
		}

		public List<String> getPreferredGroups() {
			return this.preferredGroups;
		}

		public void setPreferredGroups(List<String> preferredGroups) {
			this.preferredGroups = preferredGroups;
		}

		public Duration getPreferredDelay() {
			return this.preferredDelay;
		}

		public void setPreferredDelay(Duration preferredDelay) {
			this.preferredDelay = preferredDelay;
		}

	}

	/**
	 * Fenced transactions (fenced = true on @DistributedLock and @WriteLock).
	 */
	public static class Fencing {

		/**
		 * Name of the fence table in the transactions' database, optionally qualified by
		 * a schema.
		 */
		private String table = "distlock_fence";

		/**
		 * When to create the fence table, from the schema distlock ships for the database
		 * (schema-h2.sql, schema-postgresql.sql): in an embedded database only, always,
		 * or never (the table must then exist). Only for the default table name.
		 */
		private DatabaseInitializationMode initializeSchema = DatabaseInitializationMode.EMBEDDED;

		public String getTable() {
			return this.table;
		}

		public void setTable(String table) {
			this.table = table;
		}

		public DatabaseInitializationMode getInitializeSchema() {
			return this.initializeSchema;
		}

		public void setInitializeSchema(DatabaseInitializationMode initializeSchema) {
			this.initializeSchema = initializeSchema;
		}

	}

	/**
	 * Operations on the cluster's locks.
	 */
	public static class Admin {

		/**
		 * Whether operators may act on the cluster's locks over HTTP: the distlock
		 * endpoint's and the console's request-release, force-release, drain, undrain and
		 * job run-now, pause and resume (also through {@code POST
		 * /actuator/distlock/{job}}). Off, the endpoint has no write operation.
		 */
		private boolean enabled;

		private final Deadlocks deadlocks = new Deadlocks();

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		public Deadlocks getDeadlocks() {
			return this.deadlocks;
		}

	}

	/**
	 * The operator console (distlock-console on the classpath of a servlet web
	 * application).
	 */
	public static class Console {

		/**
		 * Whether to serve the console page and its JSON API.
		 */
		private boolean enabled = true;

		/**
		 * Path of the console page; its assets and API are under it.
		 */
		private String path = "/distlock";

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		public String getPath() {
			return this.path;
		}

		public void setPath(String path) {
			this.path = path;
		}

	}

	/**
	 * The deadlock watch: the cluster's wait-for graph read at a fixed interval.
	 */
	public static class Deadlocks {

		/**
		 * Whether to look for deadlocks between instances (cycles in the wait-for graph
		 * of the cluster's locks), for the distlock.deadlocks gauge and a WARN log line.
		 */
		private boolean enabled = true;

		/**
		 * Time between two reads of the cluster's wait-for graph; each walks the lock
		 * nodes of the namespace. A cycle is logged once two reads in a row saw it.
		 */
		private Duration checkInterval = Duration.ofSeconds(60);

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		public Duration getCheckInterval() {
			return this.checkInterval;
		}

		public void setCheckInterval(Duration checkInterval) {
			this.checkInterval = checkInterval;
		}

	}

	/**
	 * Fenced Kafka writes (fenced = true with Spring for Apache Kafka).
	 */
	public static class Kafka {

		/**
		 * Whether KafkaTemplates send through the lock's transactional producer inside
		 * fenced calls.
		 */
		private boolean enabled = true;

		/**
		 * Prefix of the transactional.id of each lock's producer, followed by the lock's
		 * kind and path.
		 */
		private String transactionalIdPrefix = "distlock-";

		/**
		 * How long closing a fenced call's producer may wait for its requests.
		 */
		private Duration closeTimeout = Duration.ofSeconds(5);

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		public String getTransactionalIdPrefix() {
			return this.transactionalIdPrefix;
		}

		public void setTransactionalIdPrefix(String transactionalIdPrefix) {
			this.transactionalIdPrefix = transactionalIdPrefix;
		}

		public Duration getCloseTimeout() {
			return this.closeTimeout;
		}

		public void setCloseTimeout(Duration closeTimeout) {
			this.closeTimeout = closeTimeout;
		}

	}

}
