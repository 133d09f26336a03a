package io.github.distlock.actuate;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.CuratorEvent;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.framework.state.ConnectionStateListener;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooKeeper;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;

import io.github.distlock.core.Leadership;
import io.github.distlock.core.Locks;

/**
 * Health of the connection to ZooKeeper that distlock's locks live on: {@code UP} when
 * the client is connected and ZooKeeper answers a cheap read within a short bound,
 * {@code DOWN} when the connection is suspended or lost or ZooKeeper does not answer,
 * {@code OUT_OF_SERVICE} while the locks drain (no new lock is taken until the drain
 * ends; the detail {@code draining} says since when, and how many locks are still held).
 * Details: connect string, last connection state, session id, negotiated session timeout
 * and the number of locks this instance holds.
 */
public class DistlockHealthIndicator extends AbstractHealthIndicator {

	/** How long the health check waits for ZooKeeper to answer, by default. */
	public static final Duration DEFAULT_PROBE_TIMEOUT = Duration.ofSeconds(2);

	private final CuratorFramework client;

	private final Locks locks;

	private final Duration probeTimeout;

	private volatile @Nullable ConnectionState lastState;

	private volatile @Nullable Leadership leadership;

	private final ConnectionStateListener listener = (client, state) -> this.lastState = state;

	/**
	 * Create an indicator with the {@linkplain #DEFAULT_PROBE_TIMEOUT default probe
	 * timeout}.
	 * @param client the client the locks live on
	 * @param locks the locks, to count the held ones
	 */
	public DistlockHealthIndicator(CuratorFramework client, Locks locks) {
		this(client, locks, DEFAULT_PROBE_TIMEOUT);
	}

	/**
	 * Create an indicator.
	 * @param client the client the locks live on
	 * @param locks the locks, to count the held ones
	 * @param probeTimeout how long to wait for ZooKeeper to answer before reporting
	 * {@code DOWN}
	 */
	public DistlockHealthIndicator(CuratorFramework client, Locks locks, Duration probeTimeout) {
		super("ZooKeeper health check failed");
		if (probeTimeout.isNegative() || probeTimeout.isZero()) {
			throw new IllegalArgumentException("The probe timeout must be positive, not " + probeTimeout);
		}
		this.client = client;
		this.locks = locks;
		this.probeTimeout = probeTimeout;
		client.getConnectionStateListenable().addListener(this.listener);
	}

	/**
	 * Show this instance's leader elections in the details: {@code leadership}, each
	 * group joined with {@code LEADER} or {@code MEMBER}, and {@code leadershipErrors},
	 * each group whose latch node ZooKeeper refuses with the refusal.
	 * @param leadership the leader election of this instance
	 */
	public void setLeadership(Leadership leadership) {
		this.leadership = leadership;
	}

	/**
	 * How long the health check waits for ZooKeeper to answer.
	 * @return the probe timeout
	 */
	public Duration getProbeTimeout() {
		return this.probeTimeout;
	}

	@Override
	protected void doHealthCheck(Health.Builder builder) throws Exception {
		boolean connected = this.client.getZookeeperClient().isConnected();
		builder.withDetail("connectString", this.client.getZookeeperClient().getCurrentConnectionString());
		builder.withDetail("state", state(connected));
		if (connected) {
			addSessionDetails(builder);
		}
		builder.withDetail("locksHeld", this.locks.heldLocks().size());
		Leadership leadership = this.leadership;
		if (leadership != null) {
			Map<String, String> groups = new TreeMap<>();
			Map<String, String> errors = new TreeMap<>();
			for (String group : leadership.groups()) {
				groups.put(group, leadership.isLeader(group) ? "LEADER" : "MEMBER");
				leadership.lastError(group).ifPresent((error) -> errors.put(group, error.toString()));
			}
			builder.withDetail("leadership", groups);
			if (!errors.isEmpty()) {
				builder.withDetail("leadershipErrors", errors);
			}
		}
		if (!connected) {
			builder.down().withDetail("error", "Not connected to ZooKeeper");
			return;
		}
		String problem = probe();
		if (problem != null) {
			builder.down().withDetail("error", problem);
			return;
		}
		Instant drainingSince = drainingSince();
		if (drainingSince != null) {
			builder.outOfService()
				.withDetail("draining", Map.of("since", drainingSince.toString(), "locksHeld", this.locks.heldCount()));
			return;
		}
		builder.up();
	}

	/** When the locks began to drain, or {@code null} if they do not drain. */
	private @Nullable Instant drainingSince() {
		try {
			return this.locks.admin().drainingSince().orElse(null);
		}
		catch (UnsupportedOperationException ex) {
			return null;
		}
	}

	private String state(boolean connected) {
		ConnectionState state = this.lastState;
		if (state != null) {
			return state.name();
		}
		return connected ? ConnectionState.CONNECTED.name() : "NOT_CONNECTED";
	}

	private void addSessionDetails(Health.Builder builder) {
		try {
			ZooKeeper zooKeeper = this.client.getZookeeperClient().getZooKeeper();
			builder.withDetail("sessionId", "0x" + Long.toHexString(zooKeeper.getSessionId()));
			builder.withDetail("sessionTimeout", Duration.ofMillis(zooKeeper.getSessionTimeout()).toString());
		}
		catch (Exception ex) {
			// The session is being replaced; the probe tells whether that matters.
		}
	}

	/**
	 * Ask ZooKeeper whether the namespace root exists, without waiting longer than the
	 * probe timeout: a hung server must not hang the health endpoint.
	 * @return what is wrong, or {@code null} if ZooKeeper answered
	 */
	private @Nullable String probe() throws Exception {
		CompletableFuture<CuratorEvent> answer = new CompletableFuture<>();
		this.client.checkExists().inBackground((client, event) -> answer.complete(event)).forPath("/");
		CuratorEvent event;
		try {
			event = answer.get(this.probeTimeout.toMillis(), TimeUnit.MILLISECONDS);
		}
		catch (TimeoutException ex) {
			return "ZooKeeper did not answer within " + this.probeTimeout.toMillis() + "ms";
		}
		catch (ExecutionException ex) {
			return "ZooKeeper check failed: " + ex.getCause();
		}
		KeeperException.Code code = KeeperException.Code.get(event.getResultCode());
		if (code == KeeperException.Code.OK || code == KeeperException.Code.NONODE) {
			return null;
		}
		return "ZooKeeper answered " + code;
	}

	/** Stop following the connection state. */
	public void close() {
		this.client.getConnectionStateListenable().removeListener(this.listener);
	}

}
