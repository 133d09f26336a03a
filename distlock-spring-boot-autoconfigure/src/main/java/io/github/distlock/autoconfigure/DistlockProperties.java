package io.github.distlock.autoconfigure;

import java.nio.file.Path;
import java.time.Duration;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;
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
		 * Time allowed for establishing a connection.
		 */
		private Duration connectionTimeout = Duration.ofSeconds(15);

		private final Retry retry = new Retry();

		private final Embedded embedded = new Embedded();

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

		public Duration getConnectionTimeout() {
			return this.connectionTimeout;
		}

		public void setConnectionTimeout(Duration connectionTimeout) {
			this.connectionTimeout = connectionTimeout;
		}

		public Retry getRetry() {
			return this.retry;
		}

		public Embedded getEmbedded() {
			return this.embedded;
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

}
