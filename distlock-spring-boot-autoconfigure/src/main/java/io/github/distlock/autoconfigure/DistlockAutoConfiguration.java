package io.github.distlock.autoconfigure;

import java.time.Duration;
import java.util.concurrent.Executor;

import org.apache.curator.RetryPolicy;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.ssl.SslBundles;
import org.springframework.boot.task.ThreadPoolTaskExecutorBuilder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.core.env.Environment;

import io.github.distlock.actuate.DeadlockWatch;
import io.github.distlock.autoconfigure.security.ZookeeperSecurityConfigurer;
import io.github.distlock.core.Locks;
import io.github.distlock.core.spi.FenceStore;
import io.github.distlock.curator.CuratorLocks;

/**
 * {@link AutoConfiguration Auto-configuration} of distlock: a started
 * {@link CuratorFramework} client, the {@link Locks} API on top of it and the lock
 * annotations.
 * <p>
 * Starting the client does not wait for ZooKeeper: the application starts while the
 * ensemble is unreachable, and lock acquisitions fail within their wait time until it is
 * reachable. Asynchronous lock acquisitions complete on the application's task executor.
 */
@AutoConfiguration(afterName = "org.springframework.boot.autoconfigure.task.TaskExecutionAutoConfiguration")
@ConditionalOnClass(CuratorFramework.class)
@ConditionalOnBooleanProperty(name = "distlock.enabled", matchIfMissing = true)
@EnableConfigurationProperties(DistlockProperties.class)
@Import(DistlockProxyConfiguration.class)
public final class DistlockAutoConfiguration {

	/** Name of the task executor Spring Boot auto-configures. */
	static final String APPLICATION_TASK_EXECUTOR_BEAN_NAME = "applicationTaskExecutor";

	/** Longest connection timeout derived from the session timeout, Curator's default. */
	static final Duration DEFAULT_CONNECTION_TIMEOUT = Duration.ofSeconds(15);

	@Bean
	@ConditionalOnMissingBean(ZookeeperConnectionDetails.class)
	PropertiesZookeeperConnectionDetails zookeeperConnectionDetails(DistlockProperties properties,
			ObjectProvider<SslBundles> sslBundles) {
		return new PropertiesZookeeperConnectionDetails(properties, sslBundles.getIfAvailable());
	}

	@Bean(destroyMethod = "close")
	@ConditionalOnMissingBean({ ZookeeperSecurityConfigurer.class, CuratorFramework.class })
	ZookeeperSecurityConfigurer zookeeperSecurityConfigurer(DistlockProperties properties,
			ZookeeperConnectionDetails connectionDetails) {
		return new ZookeeperSecurityConfigurer(properties.getZookeeper(), connectionDetails);
	}

	@Bean
	@ConditionalOnMissingBean
	RetryPolicy curatorRetryPolicy(DistlockProperties properties) {
		DistlockProperties.Retry retry = properties.getZookeeper().getRetry();
		return new ExponentialBackoffRetry(
				PropertyChecks.nonNegativeMillis("distlock.zookeeper.retry.base-sleep-time", retry.getBaseSleepTime()),
				PropertyChecks.nonNegative("distlock.zookeeper.retry.max-retries", retry.getMaxRetries()),
				PropertyChecks.nonNegativeMillis("distlock.zookeeper.retry.max-sleep-time", retry.getMaxSleepTime()));
	}

	@Bean(destroyMethod = "close")
	@ConditionalOnMissingBean
	CuratorFramework curatorFramework(DistlockProperties properties, ZookeeperConnectionDetails connectionDetails,
			RetryPolicy retryPolicy, ZookeeperSecurityConfigurer security,
			ObjectProvider<CuratorFrameworkCustomizer> customizers) {
		DistlockProperties.Zookeeper zookeeper = properties.getZookeeper();
		int sessionTimeout = PropertyChecks.positiveMillis("distlock.zookeeper.session-timeout",
				zookeeper.getSessionTimeout());
		CuratorFrameworkFactory.Builder builder = CuratorFrameworkFactory.builder()
			.connectString(connectionDetails.getConnectString())
			.namespace(ZookeeperNamespace.validate(zookeeper.getNamespace()))
			.sessionTimeoutMs(sessionTimeout)
			.connectionTimeoutMs(connectionTimeoutMillis(zookeeper.getConnectionTimeout(), sessionTimeout))
			.retryPolicy(retryPolicy);
		security.configure(builder);
		customizers.orderedStream().forEach((customizer) -> customizer.customize(builder));
		CuratorFramework client = builder.build();
		// Does not wait for a connection: Curator connects in the background.
		client.start();
		return client;
	}

	/**
	 * The connection timeout set, or else the session timeout capped at Curator's default
	 * of 15 s: Curator warns at every start when the session timeout is the shorter.
	 */
	static int connectionTimeoutMillis(@Nullable Duration connectionTimeout, int sessionTimeoutMillis) {
		if (connectionTimeout != null) {
			return PropertyChecks.positiveMillis("distlock.zookeeper.connection-timeout", connectionTimeout);
		}
		return (int) Math.min(DEFAULT_CONNECTION_TIMEOUT.toMillis(), sessionTimeoutMillis);
	}

	@Bean(destroyMethod = "close")
	@ConditionalOnMissingBean(Locks.class)
	DistlockTaskThreads distlockTaskThreads(
			@Qualifier(APPLICATION_TASK_EXECUTOR_BEAN_NAME) ObjectProvider<Executor> applicationTaskExecutor,
			ObjectProvider<ThreadPoolTaskExecutorBuilder> threadPoolTaskExecutorBuilder) {
		return DistlockTaskThreads.of(applicationTaskExecutor.getIfAvailable(),
				threadPoolTaskExecutorBuilder.getIfAvailable());
	}

	/**
	 * The locks. Asynchronous acquisitions (and so the methods of asynchronous locked
	 * calls) complete on Spring Boot's {@code applicationTaskExecutor} when it runs
	 * virtual threads ({@code spring.threads.virtual.enabled}), on a pool built like it
	 * whose idle threads end after a second when it is a pool of platform threads, or, in
	 * a context without one, on threads of distlock's own; never on a ZooKeeper thread.
	 * The {@link FenceStore} beans (the fence tables of fenced transactions) are
	 * registered for forced releases, looked up when one runs, so that no data source is
	 * pulled in at startup.
	 */
	@Bean(destroyMethod = "close")
	@ConditionalOnMissingBean(Locks.class)
	CuratorLocks distlockLocks(CuratorFramework curatorFramework, DistlockProperties properties,
			Environment environment, DistlockTaskThreads taskThreads, ObjectProvider<FenceStore> fenceStores) {
		Duration waitTime = PropertyChecks.waitTime("distlock.lock.wait-time", properties.getLock().getWaitTime());
		String applicationName = environment.getProperty("spring.application.name", "application");
		CuratorLocks locks = CuratorLocks.builder(curatorFramework)
			.defaultWaitTime(waitTime)
			.applicationName(applicationName)
			.connectionLossPolicy(properties.getLock().getConnectionLossPolicy())
			.completionExecutor(taskThreads.executor())
			.accessDeniedAdvice(new PropertiesAccessDeniedAdvice())
			.build();
		locks.addFenceStore((protocol, path, token) -> fenceStores.orderedStream()
			.forEach((store) -> store.advancePast(protocol, path, token)));
		return locks;
	}

	/**
	 * The drain of the locks when the context closes, after the web server's graceful
	 * shutdown and before the locks close.
	 */
	@Bean
	@ConditionalOnMissingBean(name = "distlockShutdownDrain")
	@ConditionalOnBean(CuratorLocks.class)
	ShutdownDrain distlockShutdownDrain(CuratorLocks locks, DistlockProperties properties) {
		Duration timeout = properties.getShutdown().getDrainTimeout();
		PropertyChecks.nonNegativeMillis("distlock.shutdown.drain-timeout", timeout);
		return new ShutdownDrain(locks.admin(), timeout);
	}

	/**
	 * The deadlock watch: reads the cluster's wait-for graph every
	 * {@code distlock.admin.deadlocks.check-interval}, for the {@code distlock.deadlocks}
	 * gauge and a WARN line once a cycle persists.
	 */
	@Bean
	@ConditionalOnMissingBean
	@ConditionalOnBean(CuratorLocks.class)
	@ConditionalOnBooleanProperty(name = "distlock.admin.deadlocks.enabled", matchIfMissing = true)
	DeadlockWatch distlockDeadlockWatch(CuratorLocks locks, DistlockProperties properties) {
		Duration interval = properties.getAdmin().getDeadlocks().getCheckInterval();
		PropertyChecks.positiveMillis("distlock.admin.deadlocks.check-interval", interval);
		return new DeadlockWatch(locks.admin(), interval);
	}

}
