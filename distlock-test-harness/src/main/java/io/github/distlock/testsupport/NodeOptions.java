package io.github.distlock.testsupport;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.Executor;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.state.ConnectionStateListenerManagerFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;

import io.github.distlock.core.ConnectionLossPolicy;
import io.github.distlock.curator.CuratorLocks;
import io.github.distlock.curator.CuratorLocksBuilder;

/**
 * How a test node is made: the settings of its client and of the {@link CuratorLocks} on
 * it. This is the one place tests build a client for a node or call a
 * {@link CuratorLocks} constructor.
 *
 * @param namespace the client's namespace, {@code null} for ZooKeeper's root
 * @param sessionTimeout the session timeout the client asks for
 * @param connectionTimeout the client's connection timeout
 * @param applicationName the application name written into lock nodes
 * @param connectionLossPolicy what a hold does when the connection is suspended
 * @param defaultWaitTime the wait time of acquisitions that give none
 */
public record NodeOptions(String namespace, Duration sessionTimeout, Duration connectionTimeout, String applicationName,
		ConnectionLossPolicy connectionLossPolicy, Duration defaultWaitTime) {

	/**
	 * Options of the nodes of lock tests: namespace {@code distlock-test}, 5 s sessions,
	 * application {@code test}, {@link ConnectionLossPolicy#SUSPENDED}.
	 */
	public static NodeOptions defaults() {
		return new NodeOptions("distlock-test", Duration.ofSeconds(5), Duration.ofSeconds(3), "test",
				ConnectionLossPolicy.SUSPENDED, Duration.ofSeconds(5));
	}

	public NodeOptions withNamespace(String namespace) {
		return new NodeOptions(namespace, this.sessionTimeout, this.connectionTimeout, this.applicationName,
				this.connectionLossPolicy, this.defaultWaitTime);
	}

	public NodeOptions withSessionTimeout(Duration sessionTimeout) {
		return new NodeOptions(this.namespace, sessionTimeout, this.connectionTimeout, this.applicationName,
				this.connectionLossPolicy, this.defaultWaitTime);
	}

	public NodeOptions withConnectionTimeout(Duration connectionTimeout) {
		return new NodeOptions(this.namespace, this.sessionTimeout, connectionTimeout, this.applicationName,
				this.connectionLossPolicy, this.defaultWaitTime);
	}

	public NodeOptions withApplicationName(String applicationName) {
		return new NodeOptions(this.namespace, this.sessionTimeout, this.connectionTimeout, applicationName,
				this.connectionLossPolicy, this.defaultWaitTime);
	}

	public NodeOptions withConnectionLossPolicy(ConnectionLossPolicy connectionLossPolicy) {
		return new NodeOptions(this.namespace, this.sessionTimeout, this.connectionTimeout, this.applicationName,
				connectionLossPolicy, this.defaultWaitTime);
	}

	public NodeOptions withDefaultWaitTime(Duration defaultWaitTime) {
		return new NodeOptions(this.namespace, this.sessionTimeout, this.connectionTimeout, this.applicationName,
				this.connectionLossPolicy, defaultWaitTime);
	}

	/**
	 * Start a client with these options; the caller closes it.
	 * @param connectString the server (or ensemble) to connect to
	 */
	public CuratorFramework startClient(String connectString) {
		return start(clientBuilder(connectString));
	}

	/**
	 * Start a client with these options whose connection-state listeners are kept by a
	 * manager of the given factory; the caller closes it.
	 * @param connectString the server (or ensemble) to connect to
	 * @param listeners makes the manager of the client's connection-state listeners
	 */
	public CuratorFramework startClient(String connectString, ConnectionStateListenerManagerFactory listeners) {
		return start(clientBuilder(connectString).connectionStateListenerManagerFactory(listeners));
	}

	/**
	 * Start a client with these options that authenticates with ZooKeeper's digest
	 * scheme; the caller closes it.
	 * @param connectString the server (or ensemble) to connect to
	 * @param digest the user and password, as {@code user:password}
	 */
	public CuratorFramework startDigestClient(String connectString, String digest) {
		return start(clientBuilder(connectString).authorization("digest", digest.getBytes(StandardCharsets.UTF_8)));
	}

	private CuratorFrameworkFactory.Builder clientBuilder(String connectString) {
		return CuratorFrameworkFactory.builder()
			.connectString(connectString)
			.namespace(this.namespace)
			.sessionTimeoutMs((int) this.sessionTimeout.toMillis())
			.connectionTimeoutMs((int) this.connectionTimeout.toMillis())
			.retryPolicy(new ExponentialBackoffRetry(100, 3, 1000));
	}

	private static CuratorFramework start(CuratorFrameworkFactory.Builder builder) {
		CuratorFramework client = builder.build();
		client.start();
		return client;
	}

	/** Create the locks of a node on its client; the caller closes them. */
	public CuratorLocks createLocks(CuratorFramework client) {
		return builder(client).build();
	}

	/**
	 * Create the locks of a node on its client, completing asynchronous acquisitions (and
	 * so running the methods of asynchronous locked calls) on the given executor; the
	 * caller closes them.
	 */
	public CuratorLocks createLocks(CuratorFramework client, Executor executor) {
		return builder(client).completionExecutor(executor).build();
	}

	private CuratorLocksBuilder builder(CuratorFramework client) {
		return CuratorLocks.builder(client)
			.defaultWaitTime(this.defaultWaitTime)
			.applicationName(this.applicationName)
			.connectionLossPolicy(this.connectionLossPolicy);
	}

}
