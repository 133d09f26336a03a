package io.github.distlock.curator;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Executor;

import org.apache.curator.framework.CuratorFramework;
import org.jspecify.annotations.Nullable;

import io.github.distlock.core.ConnectionLossPolicy;

/**
 * Builds {@link CuratorLocks}: {@link CuratorLocks#builder(CuratorFramework)} starts one,
 * every setting has a default, {@link #build()} makes the locks.
 *
 * <pre class="code">
 * CuratorLocks locks = CuratorLocks.builder(client)
 *     .defaultWaitTime(Duration.ofSeconds(5))
 *     .applicationName("billing")
 *     .build();
 * </pre>
 */
public final class CuratorLocksBuilder {

	private final CuratorFramework client;

	private Duration defaultWaitTime = Duration.ofSeconds(5);

	private String applicationName = "application";

	private ConnectionLossPolicy connectionLossPolicy = ConnectionLossPolicy.SUSPENDED;

	private @Nullable Executor completionExecutor;

	private AccessDeniedAdvice accessDeniedAdvice = AccessDeniedAdvice.DEFAULT;

	CuratorLocksBuilder(CuratorFramework client) {
		this.client = Objects.requireNonNull(client, "client");
	}

	/**
	 * Wait time for callers that do not give one; 5 seconds unless set.
	 * @param defaultWaitTime the wait time; zero tries once, negative waits forever
	 * @return this builder
	 */
	public CuratorLocksBuilder defaultWaitTime(Duration defaultWaitTime) {
		this.defaultWaitTime = Objects.requireNonNull(defaultWaitTime, "defaultWaitTime");
		return this;
	}

	/**
	 * Name written into lock nodes to tell who holds them; {@code application} unless
	 * set.
	 * @param applicationName the name
	 * @return this builder
	 */
	public CuratorLocksBuilder applicationName(String applicationName) {
		this.applicationName = Objects.requireNonNull(applicationName, "applicationName");
		return this;
	}

	/**
	 * When a held lock counts as lost; {@link ConnectionLossPolicy#SUSPENDED} unless set.
	 * @param connectionLossPolicy the policy
	 * @return this builder
	 */
	public CuratorLocksBuilder connectionLossPolicy(ConnectionLossPolicy connectionLossPolicy) {
		this.connectionLossPolicy = Objects.requireNonNull(connectionLossPolicy, "connectionLossPolicy");
		return this;
	}

	/**
	 * Where asynchronous acquisitions complete, and so where the code chained to them
	 * runs ({@link CuratorLocks#completionExecutor()}). Unless set, or set to
	 * {@code null}, threads of distlock's own, created as needed so that chained code
	 * that blocks holds up no other completion (not the common fork-join pool, which has
	 * a single worker on a two-core machine).
	 * @param completionExecutor the executor, or {@code null} for distlock's own threads
	 * @return this builder
	 */
	public CuratorLocksBuilder completionExecutor(@Nullable Executor completionExecutor) {
		this.completionExecutor = completionExecutor;
		return this;
	}

	/**
	 * What the failure of an acquisition refused by ZooKeeper's access control advises
	 * checking, such as the settings the client's credentials and ACLs come from;
	 * {@link AccessDeniedAdvice#DEFAULT}, which names none, unless set.
	 * @param accessDeniedAdvice the advice
	 * @return this builder
	 */
	public CuratorLocksBuilder accessDeniedAdvice(AccessDeniedAdvice accessDeniedAdvice) {
		this.accessDeniedAdvice = Objects.requireNonNull(accessDeniedAdvice, "accessDeniedAdvice");
		return this;
	}

	/**
	 * Create the locks, which start following the client's connection at once.
	 * @return the locks, to close when done
	 */
	public CuratorLocks build() {
		return CuratorLocks.create(this.client, this.defaultWaitTime, this.applicationName, this.connectionLossPolicy,
				this.completionExecutor, this.accessDeniedAdvice);
	}

}
