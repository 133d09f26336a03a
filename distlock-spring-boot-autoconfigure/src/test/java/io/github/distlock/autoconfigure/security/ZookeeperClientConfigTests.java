package io.github.distlock.autoconfigure.security;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.zookeeper.client.ZKClientConfig;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.github.distlock.autoconfigure.DistlockAutoConfiguration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * SASL and TLS settings reach the ZooKeeper client's own configuration, and no JVM-wide
 * system property. No server is needed: the client is created without connecting.
 */
class ZookeeperClientConfigTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DistlockAutoConfiguration.class))
		.withPropertyValues("distlock.zookeeper.connect-string=127.0.0.1:1");

	@Test
	void saslSettingsArePassedToTheClientOnly() {
		this.contextRunner
			.withPropertyValues("distlock.zookeeper.sasl.enabled=false", "distlock.zookeeper.sasl.login-context=Locks",
					"distlock.zookeeper.sasl.server-principal=zookeeper/zk1.example.com@EXAMPLE.COM")
			.run((context) -> {
				ZKClientConfig config = clientConfig(context.getBean(CuratorFramework.class));
				assertThat(config.isSaslClientEnabled()).isFalse();
				assertThat(config.getProperty(ZKClientConfig.LOGIN_CONTEXT_NAME_KEY)).isEqualTo("Locks");
				assertThat(config.getProperty(ZKClientConfig.ZOOKEEPER_SERVER_PRINCIPAL))
					.isEqualTo("zookeeper/zk1.example.com@EXAMPLE.COM");
				assertThat(System.getProperties().stringPropertyNames())
					.noneMatch((name) -> name.startsWith("zookeeper.sasl"));
			});
	}

	@Test
	void tlsWithoutBundleUsesNettyAndVerifiesHostNames() {
		this.contextRunner.withPropertyValues("distlock.zookeeper.ssl.enabled=true").run((context) -> {
			ZKClientConfig config = clientConfig(context.getBean(CuratorFramework.class));
			assertThat(config.getBoolean(ZKClientConfig.SECURE_CLIENT)).isTrue();
			assertThat(config.getProperty(ZKClientConfig.ZOOKEEPER_CLIENT_CNXN_SOCKET))
				.isEqualTo("org.apache.zookeeper.ClientCnxnSocketNetty");
			assertThat(config.getBoolean("zookeeper.ssl.hostnameVerification", false)).isTrue();
			assertThat(config.getBoolean("zookeeper.fips-mode", false)).isTrue();
			assertThat(config.getProperty("zookeeper.ssl.trustStore.location")).isEmpty();
			assertThat(System.getProperty(ZKClientConfig.SECURE_CLIENT)).isNull();
		});
	}

	@Test
	void plainClientKeepsZooKeepersDefaults() {
		this.contextRunner.run((context) -> {
			ZKClientConfig config = clientConfig(context.getBean(CuratorFramework.class));
			assertThat(config.getBoolean(ZKClientConfig.SECURE_CLIENT)).isFalse();
			assertThat(config.getClass()).isEqualTo(ZKClientConfig.class);
		});
	}

	@Test
	void userDefinedClientIsLeftAloneBySecuritySettings() {
		this.contextRunner.withUserConfiguration(UserClientConfiguration.class)
			.withPropertyValues("distlock.zookeeper.acl.mode=creator-only", "distlock.zookeeper.ssl.enabled=true")
			.run((context) -> {
				assertThat(context).hasNotFailed().doesNotHaveBean("zookeeperSecurityConfigurer");
				assertThat(
						clientConfig(context.getBean(CuratorFramework.class)).getBoolean(ZKClientConfig.SECURE_CLIENT))
					.isFalse();
			});
	}

	@Configuration(proxyBeanMethods = false)
	static class UserClientConfiguration {

		@Bean(destroyMethod = "close")
		CuratorFramework userClient() {
			CuratorFramework client = CuratorFrameworkFactory.newClient("127.0.0.1:1", new RetryOneTime(100));
			client.start();
			return client;
		}

	}

	private static ZKClientConfig clientConfig(CuratorFramework client) throws Exception {
		return client.getZookeeperClient().getZooKeeper().getClientConfig();
	}

}
