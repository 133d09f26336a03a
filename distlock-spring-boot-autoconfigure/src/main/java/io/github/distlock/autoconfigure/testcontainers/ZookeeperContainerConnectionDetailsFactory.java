package io.github.distlock.autoconfigure.testcontainers;

import java.util.List;

import org.jspecify.annotations.Nullable;
import org.testcontainers.containers.GenericContainer;

import org.springframework.boot.testcontainers.service.connection.ContainerConnectionDetailsFactory;
import org.springframework.boot.ssl.SslBundle;
import org.springframework.boot.testcontainers.service.connection.ContainerConnectionSource;

import io.github.distlock.autoconfigure.ZookeeperConnectionDetails;

/**
 * {@link ContainerConnectionDetailsFactory} that lets a ZooKeeper container annotated
 * with {@code @ServiceConnection} provide the {@link ZookeeperConnectionDetails} of
 * distlock:
 *
 * <pre class="code">
 * &#64;Container
 * &#64;ServiceConnection
 * static GenericContainer&lt;?&gt; zookeeper = new GenericContainer&lt;&gt;("zookeeper:3.9").withExposedPorts(2181);
 * </pre>
 *
 * It accepts a {@link GenericContainer} whose image is the official {@code zookeeper}
 * (any tag, such as {@code zookeeper:3.9}) or {@code bitnami/zookeeper}, or any image
 * when the annotation says {@code @ServiceConnection(name = "zookeeper")}. The client
 * connects to the container's host and the port mapped to ZooKeeper's client port 2181.
 */
class ZookeeperContainerConnectionDetailsFactory
		extends ContainerConnectionDetailsFactory<GenericContainer<?>, ZookeeperConnectionDetails> {

	/** ZooKeeper's client port inside the container. */
	static final int CLIENT_PORT = 2181;

	ZookeeperContainerConnectionDetailsFactory() {
		super(List.of("zookeeper", "bitnami/zookeeper"), "org.apache.curator.framework.CuratorFramework");
	}

	@Override
	protected ZookeeperConnectionDetails getContainerConnectionDetails(
			ContainerConnectionSource<GenericContainer<?>> source) {
		return new ZookeeperContainerConnectionDetails(source);
	}

	/**
	 * {@link ZookeeperConnectionDetails} of a started ZooKeeper container.
	 */
	static final class ZookeeperContainerConnectionDetails extends ContainerConnectionDetails<GenericContainer<?>>
			implements ZookeeperConnectionDetails {

		private ZookeeperContainerConnectionDetails(ContainerConnectionSource<GenericContainer<?>> source) {
			super(source);
		}

		@Override
		public String getConnectString() {
			GenericContainer<?> container = getContainer();
			return container.getHost() + ":" + container.getMappedPort(CLIENT_PORT);
		}

		/**
		 * The SSL bundle of the container's {@code @Ssl...} annotations, if any; made
		 * public because {@link ZookeeperConnectionDetails} declares it.
		 */
		@Override
		public @Nullable SslBundle getSslBundle() {
			return super.getSslBundle();
		}

	}

}
