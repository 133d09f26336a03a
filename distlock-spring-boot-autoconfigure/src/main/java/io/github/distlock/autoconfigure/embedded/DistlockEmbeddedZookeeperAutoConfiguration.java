package io.github.distlock.autoconfigure.embedded;

import org.apache.curator.framework.CuratorFramework;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.core.io.ResourceLoader;

import io.github.distlock.autoconfigure.DistlockAutoConfiguration;
import io.github.distlock.autoconfigure.DistlockProperties;
import io.github.distlock.autoconfigure.PropertyChecks;
import io.github.distlock.autoconfigure.ZookeeperConnectionDetails;

/**
 * {@link AutoConfiguration Auto-configuration} of a ZooKeeper server inside the
 * application, for development, when {@code distlock.zookeeper.embedded.enabled=true}. It
 * runs before {@link DistlockAutoConfiguration}, so the client connects to the embedded
 * server, which is started before the client is created.
 */
@AutoConfiguration(before = DistlockAutoConfiguration.class)
@ConditionalOnClass(value = CuratorFramework.class,
		name = "org.apache.zookeeper.server.embedded.ZooKeeperServerEmbedded")
@ConditionalOnBooleanProperty(name = "distlock.enabled", matchIfMissing = true)
@ConditionalOnBooleanProperty("distlock.zookeeper.embedded.enabled")
@EnableConfigurationProperties(DistlockProperties.class)
public final class DistlockEmbeddedZookeeperAutoConfiguration {

	@Bean(destroyMethod = "close")
	@ConditionalOnMissingBean
	EmbeddedZookeeperServer embeddedZookeeperServer(DistlockProperties properties, ResourceLoader resourceLoader) {
		EmbeddedZookeeperServer.checkServerDependencies(resourceLoader.getClassLoader());
		DistlockProperties.Embedded embedded = properties.getZookeeper().getEmbedded();
		EmbeddedZookeeperServer server = new EmbeddedZookeeperServer(
				PropertyChecks.port("distlock.zookeeper.embedded.port", embedded.getPort()), embedded.getDataDir());
		server.start();
		return server;
	}

	@Bean
	@ConditionalOnMissingBean(ZookeeperConnectionDetails.class)
	EmbeddedZookeeperConnectionDetails embeddedZookeeperConnectionDetails(EmbeddedZookeeperServer server) {
		return new EmbeddedZookeeperConnectionDetails(server);
	}

	/**
	 * Connection details pointing at the embedded server.
	 */
	static final class EmbeddedZookeeperConnectionDetails implements ZookeeperConnectionDetails {

		private final EmbeddedZookeeperServer server;

		EmbeddedZookeeperConnectionDetails(EmbeddedZookeeperServer server) {
			this.server = server;
		}

		@Override
		public String getConnectString() {
			return this.server.getConnectString();
		}

	}

}
