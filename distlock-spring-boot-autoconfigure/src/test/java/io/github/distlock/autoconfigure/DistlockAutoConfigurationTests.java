package io.github.distlock.autoconfigure;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import org.apache.curator.RetryPolicy;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.imps.CuratorFrameworkState;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.curator.retry.RetryOneTime;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.aop.Advisor;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;

import io.github.distlock.autoconfigure.embedded.DistlockEmbeddedZookeeperAutoConfiguration;
import io.github.distlock.autoconfigure.embedded.EmbeddedZookeeperServer;
import io.github.distlock.core.LockHandle;
import io.github.distlock.core.LockPath;
import io.github.distlock.core.LockProtocol;
import io.github.distlock.core.LockTimeoutException;
import io.github.distlock.core.Locks;
import io.github.distlock.core.spi.FenceStore;
import io.github.distlock.curator.CuratorLocks;
import io.github.distlock.testsupport.DistlockContextRunners;
import io.github.distlock.testsupport.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for {@link DistlockAutoConfiguration}, against a real ZooKeeper server.
 */
class DistlockAutoConfigurationTests {

	@RegisterExtension
	static final ZooKeeperExtension zookeeper = new ZooKeeperExtension();

	private final ApplicationContextRunner contextRunner = DistlockContextRunners.applicationContextRunner(zookeeper,
			DistlockEmbeddedZookeeperAutoConfiguration.class, DistlockAutoConfiguration.class);

	@Test
	void defaultsCreateStartedClientAndLocks() {
		this.contextRunner.run((context) -> {
			assertThat(context).hasSingleBean(ZookeeperConnectionDetails.class)
				.hasSingleBean(RetryPolicy.class)
				.hasSingleBean(CuratorFramework.class)
				.hasSingleBean(Locks.class);
			assertThat(context.getBean(ZookeeperConnectionDetails.class))
				.isInstanceOf(PropertiesZookeeperConnectionDetails.class);
			CuratorFramework client = context.getBean(CuratorFramework.class);
			assertThat(client.getState()).isEqualTo(CuratorFrameworkState.STARTED);
			assertThat(client.getNamespace()).isEqualTo("distlock");
			assertThat(client.blockUntilConnected(10, TimeUnit.SECONDS)).isTrue();
			assertThat(context.getBean(Locks.class).defaultWaitTime()).isEqualTo(Duration.ofSeconds(5));
		});
	}

	@Test
	void everyPropertyIsBound() {
		AtomicReference<CuratorFrameworkFactory.Builder> builder = new AtomicReference<>();
		this.contextRunner.withBean(CuratorFrameworkCustomizer.class, () -> builder::set)
			.withPropertyValues("distlock.zookeeper.namespace=apps/billing", "distlock.zookeeper.session-timeout=7s",
					"distlock.zookeeper.connection-timeout=4s", "distlock.zookeeper.retry.base-sleep-time=50ms",
					"distlock.zookeeper.retry.max-sleep-time=2s", "distlock.zookeeper.retry.max-retries=7",
					"distlock.zookeeper.embedded.port=12345", "distlock.zookeeper.embedded.data-dir=/tmp/zk-data",
					"distlock.lock.wait-time=750ms", "distlock.lock.order=42")
			.run((context) -> {
				DistlockProperties properties = context.getBean(DistlockProperties.class);
				assertThat(properties.isEnabled()).isTrue();
				DistlockProperties.Zookeeper zookeeperProperties = properties.getZookeeper();
				assertThat(zookeeperProperties.getConnectString()).isEqualTo(zookeeper.connectString());
				assertThat(zookeeperProperties.getNamespace()).isEqualTo("apps/billing");
				assertThat(zookeeperProperties.getSessionTimeout()).isEqualTo(Duration.ofSeconds(7));
				assertThat(zookeeperProperties.getConnectionTimeout()).isEqualTo(Duration.ofSeconds(4));
				assertThat(zookeeperProperties.getRetry().getBaseSleepTime()).isEqualTo(Duration.ofMillis(50));
				assertThat(zookeeperProperties.getRetry().getMaxSleepTime()).isEqualTo(Duration.ofSeconds(2));
				assertThat(zookeeperProperties.getRetry().getMaxRetries()).isEqualTo(7);
				assertThat(zookeeperProperties.getEmbedded().isEnabled()).isFalse();
				assertThat(zookeeperProperties.getEmbedded().getPort()).isEqualTo(12345);
				assertThat(zookeeperProperties.getEmbedded().getDataDir()).isEqualTo(Path.of("/tmp/zk-data"));
				assertThat(properties.getLock().getWaitTime()).isEqualTo(Duration.ofMillis(750));
				assertThat(properties.getLock().getOrder()).isEqualTo(42);
				// ...and reach the client
				CuratorFrameworkFactory.Builder used = builder.get();
				assertThat(used.getEnsembleProvider().getConnectionString()).isEqualTo(zookeeper.connectString());
				assertThat(used.getNamespace()).isEqualTo("apps/billing");
				assertThat(used.getSessionTimeoutMs()).isEqualTo(7000);
				assertThat(used.getConnectionTimeoutMs()).isEqualTo(4000);
				assertThat(used.getRetryPolicy()).isSameAs(context.getBean(RetryPolicy.class));
				ExponentialBackoffRetry retry = (ExponentialBackoffRetry) context.getBean(RetryPolicy.class);
				assertThat(retry.getBaseSleepTimeMs()).isEqualTo(50);
				assertThat(retry.getN()).isEqualTo(7);
				assertThat(retry).extracting("maxSleepMs").isEqualTo(2000);
				assertThat(context.getBean(CuratorFramework.class).getNamespace()).isEqualTo("apps/billing");
				assertThat(context.getBean(Locks.class).defaultWaitTime()).isEqualTo(Duration.ofMillis(750));
			});
	}

	@Test
	void connectionTimeoutNotSetIsTheSessionTimeoutAtMostFifteenSeconds() {
		assertThat(DistlockAutoConfiguration.connectionTimeoutMillis(null, 60_000)).isEqualTo(15_000);
		assertThat(DistlockAutoConfiguration.connectionTimeoutMillis(null, 6_000)).isEqualTo(6_000);
		assertThat(DistlockAutoConfiguration.connectionTimeoutMillis(Duration.ofSeconds(20), 6_000)).isEqualTo(20_000);
	}

	@Test
	void userCuratorFrameworkWinsAndIsNotClosedByDistlock() {
		CuratorFramework userClient = CuratorFrameworkFactory.newClient(zookeeper.connectString(),
				new RetryOneTime(100));
		userClient.start();
		UserClientConfiguration.client = userClient;
		try {
			this.contextRunner.withUserConfiguration(UserClientConfiguration.class).run((context) -> {
				assertThat(context).hasSingleBean(CuratorFramework.class);
				assertThat(context.getBean(CuratorFramework.class)).isSameAs(userClient);
				assertThat(context).hasSingleBean(Locks.class);
			});
			// the user declared no destroy method: distlock must not close the
			// client either
			assertThat(userClient.getState()).isEqualTo(CuratorFrameworkState.STARTED);
		}
		finally {
			userClient.close();
		}
	}

	@Test
	void userConnectionDetailsWinOverProperties() {
		this.contextRunner.withPropertyValues("distlock.zookeeper.connect-string=127.0.0.1:1")
			.withBean(ZookeeperConnectionDetails.class, () -> zookeeper::connectString)
			.run((context) -> {
				assertThat(context).hasSingleBean(ZookeeperConnectionDetails.class)
					.doesNotHaveBean(PropertiesZookeeperConnectionDetails.class);
				CuratorFramework client = context.getBean(CuratorFramework.class);
				assertThat(client.getZookeeperClient().getCurrentConnectionString())
					.isEqualTo(zookeeper.connectString());
				assertThat(client.blockUntilConnected(10, TimeUnit.SECONDS)).isTrue();
			});
	}

	@Test
	void userLocksAndRetryPolicyWin() {
		RetryPolicy retryPolicy = new RetryOneTime(10);
		this.contextRunner.withBean(RetryPolicy.class, () -> retryPolicy).run((context) -> {
			assertThat(context).hasSingleBean(RetryPolicy.class);
			assertThat(context.getBean(CuratorFramework.class).getZookeeperClient().getRetryPolicy())
				.isSameAs(retryPolicy);
		});
	}

	@Test
	void customizersAreAppliedInOrder() {
		List<String> calls = new CopyOnWriteArrayList<>();
		this.contextRunner
			.withBean("late", CuratorFrameworkCustomizer.class, () -> new NamingCustomizer("late", 10, calls))
			.withBean("early", CuratorFrameworkCustomizer.class, () -> new NamingCustomizer("early", -10, calls))
			.run((context) -> {
				assertThat(calls).containsExactly("early", "late");
				// the later customizer sees, and overrides, the earlier one's setting
				assertThat(context.getBean(CuratorFramework.class).getNamespace()).isEqualTo("late");
			});
	}

	@Test
	void disabledTurnsEverythingOff() {
		this.contextRunner.withPropertyValues("distlock.enabled=false", "distlock.zookeeper.embedded.enabled=true")
			.run((context) -> {
				assertThat(context).hasNotFailed()
					.doesNotHaveBean(DistlockProperties.class)
					.doesNotHaveBean(ZookeeperConnectionDetails.class)
					.doesNotHaveBean(RetryPolicy.class)
					.doesNotHaveBean(CuratorFramework.class)
					.doesNotHaveBean(Locks.class)
					.doesNotHaveBean(EmbeddedZookeeperServer.class)
					.doesNotHaveBean(Advisor.class);
				assertThat(context.getBeanDefinitionNames())
					.noneMatch((name) -> name.startsWith("io.github.distlock") || name.startsWith("distlock"));
			});
	}

	@Test
	void backsOffWithoutCurator() {
		this.contextRunner.withClassLoader(new FilteredClassLoader(CuratorFramework.class)).run((context) -> {
			assertThat(context).hasNotFailed()
				.doesNotHaveBean(DistlockProperties.class)
				.doesNotHaveBean(CuratorFramework.class)
				.doesNotHaveBean(Locks.class)
				.doesNotHaveBean(Advisor.class);
		});
	}

	@ParameterizedTest
	@ValueSource(strings = { "/distlock", "distlock/", "a//b", "a/./b", "..", "zookeeper", "zookeeper/quota", " ",
			"bad\u0001char" })
	void invalidNamespaceFailsStartupNamingTheProperty(String namespace) {
		this.contextRunner.withPropertyValues("distlock.zookeeper.namespace=" + namespace).run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).rootCause()
				.isInstanceOf(InvalidConfigurationPropertyValueException.class)
				.hasMessageContaining("distlock.zookeeper.namespace");
		});
	}

	@Test
	void nestedNamespaceIsAccepted() {
		this.contextRunner.withPropertyValues("distlock.zookeeper.namespace=apps/billing-v2")
			.run((context) -> assertThat(context.getBean(CuratorFramework.class).getNamespace())
				.isEqualTo("apps/billing-v2"));
	}

	@Test
	void locksBeanTakesLocksOnTheConfiguredClient() throws Exception {
		this.contextRunner.withPropertyValues("distlock.zookeeper.namespace=locks-bean-test").run((context) -> {
			Locks locks = context.getBean(Locks.class);
			try (LockHandle handle = locks.mutex("orders/42").acquire(Duration.ofSeconds(10))) {
				assertThat(handle.path().toString()).isEqualTo("orders/42");
				CuratorFramework client = context.getBean(CuratorFramework.class);
				// the lock node lives under the configured namespace
				assertThat(client.usingNamespace(null).checkExists().forPath("/locks-bean-test")).isNotNull();
			}
		});
	}

	@Test
	void forcedReleaseAdvancesEveryFenceStoreBeanBeforeItRemovesTheHolder() {
		List<String> fenced = new CopyOnWriteArrayList<>();
		this.contextRunner.withPropertyValues("distlock.zookeeper.namespace=fence-stores-test")
			.withBean("auditFence", FenceStore.class,
					() -> (protocol, path, token) -> fenced.add(protocol + " " + path + " " + token))
			.run((context) -> {
				CuratorLocks locks = context.getBean(CuratorLocks.class);
				LockHandle handle = locks.mutex("ledger").acquire(Duration.ofSeconds(10));
				locks.admin().forceRelease(LockPath.parse("ledger"), LockProtocol.MUTEX, handle.fencingToken());
				assertThat(fenced).containsExactly("MUTEX ledger " + handle.fencingToken());
				handle.close();
			});
	}

	@Test
	void startsQuicklyWhenZookeeperIsUnreachableAndLockFailsWithinItsWaitTime() {
		long start = System.nanoTime();
		this.contextRunner.withPropertyValues("distlock.zookeeper.connect-string=127.0.0.1:1").run((context) -> {
			long startupMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
			assertThat(context).hasNotFailed();
			assertThat(startupMillis).as("startup time").isLessThan(5_000);
			Locks locks = context.getBean(Locks.class);
			long attempt = System.nanoTime();
			assertThatExceptionOfType(LockTimeoutException.class)
				.isThrownBy(() -> locks.mutex("orders/1").acquire(Duration.ofMillis(500)))
				.satisfies((ex) -> {
					assertThat(ex.getWaitTime()).isEqualTo(Duration.ofMillis(500));
					assertThat(ex.getPath().toString()).isEqualTo("orders/1");
					assertThat(ex.getMessage()).contains("orders/1").contains("ZooKeeper");
				});
			assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - attempt)).as("lock attempt time")
				.isLessThan(1_500);
		});
	}

	@Configuration(proxyBeanMethods = false)
	static class UserClientConfiguration {

		static CuratorFramework client;

		@Bean(destroyMethod = "")
		CuratorFramework userClient() {
			return client;
		}

		@Bean
		CuratorFrameworkCustomizer failingCustomizer() {
			return (builder) -> {
				throw new AssertionError("customizers must not run when the user defines the client");
			};
		}

	}

	record NamingCustomizer(String name, int order, List<String> calls) implements CuratorFrameworkCustomizer, Ordered {

		@Override
		public void customize(CuratorFrameworkFactory.Builder builder) {
			this.calls.add(this.name);
			builder.namespace(this.name);
		}

		@Override
		public int getOrder() {
			return this.order;
		}

	}

}
