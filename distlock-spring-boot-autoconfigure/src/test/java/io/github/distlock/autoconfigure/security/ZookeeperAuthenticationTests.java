package io.github.distlock.autoconfigure.security;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Id;
import org.apache.zookeeper.server.auth.DigestAuthenticationProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import io.github.distlock.autoconfigure.DistlockAutoConfiguration;
import io.github.distlock.core.LockAcquisitionException;
import io.github.distlock.core.LockHandle;
import io.github.distlock.core.Locks;
import io.github.distlock.testsupport.DistlockContextRunners;
import io.github.distlock.testsupport.NodeOptions;
import io.github.distlock.testsupport.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Digest authentication and the ACLs of lock nodes, against a real ZooKeeper server
 * (digest authentication is built into every ZooKeeper server).
 */
class ZookeeperAuthenticationTests {

	private static final String PASSWORD = "correct-horse-battery";

	@RegisterExtension
	static final ZooKeeperExtension zookeeper = new ZooKeeperExtension();

	private final ApplicationContextRunner contextRunner = DistlockContextRunners.applicationContextRunner(zookeeper,
			DistlockAutoConfiguration.class);

	@Test
	void authorisedApplicationLocksAndEveryCreatedNodeIsCreatorOnly() {
		this.contextRunner.withPropertyValues(credentials("app", PASSWORD, "orders")).run((context) -> {
			Locks locks = context.getBean(Locks.class);
			CuratorFramework client = context.getBean(CuratorFramework.class);
			try (LockHandle handle = locks.mutex("eu/order-42").acquire(Duration.ofSeconds(10))) {
				assertThat(handle.isHeld()).isTrue();
				List<ACL> creatorOnly = List.of(new ACL(ZooDefs.Perms.ALL,
						new Id("digest", DigestAuthenticationProvider.generateDigest("app:" + PASSWORD))));
				CuratorFramework root = client.usingNamespace(null);
				for (String node : pathAndParents(holderNode(client, "/mutex/eu/order-42"))) {
					assertThat(root.getACL().forPath(node)).as(node).isEqualTo(creatorOnly);
				}
			}
			try (LockHandle again = locks.mutex("eu/order-42").acquire(Duration.ofSeconds(5))) {
				assertThat(again.isHeld()).isTrue();
			}
		});
	}

	@Test
	void unauthenticatedAndWronglyAuthenticatedClientsCannotTouchHeldLock() {
		this.contextRunner.withPropertyValues(credentials("app", PASSWORD, "stock")).run((context) -> {
			Locks locks = context.getBean(Locks.class);
			CuratorFramework client = context.getBean(CuratorFramework.class);
			try (LockHandle handle = locks.mutex("sku-7").acquire(Duration.ofSeconds(10))) {
				String holder = holderNode(client, "/mutex/sku-7");
				String lockDirectory = "/stock/mutex/sku-7";
				for (CuratorFramework intruder : List.of(rawClient(null), rawClient("app:wrong-password"),
						rawClient("intruder:" + PASSWORD))) {
					try (intruder) {
						assertNoAuth(() -> intruder.delete().forPath(holder));
						assertNoAuth(() -> intruder.setData().forPath(holder, "mine".getBytes()));
						assertNoAuth(() -> intruder.getData().forPath(holder));
						assertNoAuth(() -> intruder.create().forPath(lockDirectory + "/_c_x-lock-0000000000"));
						assertNoAuth(() -> intruder.create().forPath("/stock/mutex/other"));
						assertNoAuth(() -> intruder.delete().forPath(lockDirectory));
						assertNoAuth(() -> intruder.setACL().withACL(ZooDefs.Ids.OPEN_ACL_UNSAFE).forPath(holder));
					}
				}
				assertThat(handle.isHeld()).isTrue();
				assertThat(
						client.checkExists().forPath("/mutex/sku-7/" + holder.substring(holder.lastIndexOf('/') + 1)))
					.isNotNull();
			}
		});
	}

	@Test
	void applicationWithWrongOrNoCredentialsGetsClearErrorWithinItsWaitTime() {
		this.contextRunner.withPropertyValues(credentials("app", PASSWORD, "billing")).run((owner) -> {
			try (LockHandle handle = owner.getBean(Locks.class).mutex("invoice-1").acquire(Duration.ofSeconds(10))) {
				List<String[]> others = List.of(credentials("app", "wrong-password", "billing"),
						new String[] { "distlock.zookeeper.namespace=billing" });
				for (String[] properties : others) {
					this.contextRunner.withPropertyValues(properties).run((other) -> {
						Locks locks = other.getBean(Locks.class);
						for (String path : List.of("invoice-1", "invoice-2")) {
							long start = System.nanoTime();
							assertThatExceptionOfType(LockAcquisitionException.class)
								.isThrownBy(() -> locks.mutex(path).acquire(Duration.ofSeconds(30)))
								.withMessageContaining("ZooKeeper refused access to /billing")
								.withMessageContaining("distlock.zookeeper.auth.*")
								.withMessageEndingWith("and distlock.zookeeper.acl.*")
								.withCauseInstanceOf(KeeperException.NoAuthException.class);
							assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(10));
						}
					});
				}
			}
		});
	}

	@Test
	void withoutCredentialsNodesStayOpen() {
		this.contextRunner.withPropertyValues("distlock.zookeeper.namespace=open-app").run((context) -> {
			CuratorFramework client = context.getBean(CuratorFramework.class);
			try (LockHandle handle = context.getBean(Locks.class).mutex("a").acquire(Duration.ofSeconds(10))) {
				assertThat(client.usingNamespace(null).getACL().forPath(holderNode(client, "/mutex/a")))
					.isEqualTo(ZooDefs.Ids.OPEN_ACL_UNSAFE);
			}
		});
	}

	@Test
	void customAclEntriesApplyToLockNodesAndParents() {
		this.contextRunner.withPropertyValues(credentials("app", PASSWORD, "custom-acl"))
			.withPropertyValues("distlock.zookeeper.acl.mode=custom",
					"distlock.zookeeper.acl.entries=auth::crwda,world:anyone:r")
			.run((context) -> {
				CuratorFramework client = context.getBean(CuratorFramework.class);
				try (LockHandle handle = context.getBean(Locks.class).mutex("x").acquire(Duration.ofSeconds(10))) {
					Id app = new Id("digest", DigestAuthenticationProvider.generateDigest("app:" + PASSWORD));
					for (String node : pathAndParents(holderNode(client, "/mutex/x"))) {
						assertThat(client.usingNamespace(null).getACL().forPath(node)).as(node)
							.containsExactlyInAnyOrder(new ACL(ZooDefs.Perms.ALL, app),
									new ACL(ZooDefs.Perms.READ, ZooDefs.Ids.ANYONE_ID_UNSAFE));
					}
					try (CuratorFramework reader = rawClient(null)) {
						assertThat(reader.getData().forPath(holderNode(client, "/mutex/x"))).isNotEmpty();
						assertNoAuth(() -> reader.delete().forPath(holderNode(client, "/mutex/x")));
					}
				}
			});
	}

	@Test
	void creatorOnlyWithoutCredentialsFailsAtStartup() {
		this.contextRunner.withPropertyValues("distlock.zookeeper.acl.mode=creator-only").run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).rootCause()
				.isInstanceOf(InvalidConfigurationPropertyValueException.class)
				.hasMessageContaining("distlock.zookeeper.acl.mode")
				.hasMessageContaining("creator-only ACLs need an authenticated client")
				.hasMessageContaining("distlock.zookeeper.auth.username");
		});
	}

	@Test
	void badAclSettingsFailAtStartupNamingTheProperty() {
		this.contextRunner.withPropertyValues("distlock.zookeeper.acl.mode=custom")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessageContaining("distlock.zookeeper.acl.entries"));
		this.contextRunner.withPropertyValues("distlock.zookeeper.acl.entries=world:anyone:r")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessageContaining("distlock.zookeeper.acl.mode=custom"));
		this.contextRunner
			.withPropertyValues("distlock.zookeeper.acl.mode=custom", "distlock.zookeeper.acl.entries=world:anyone:rx")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessageContaining("'x' is not a permission"));
		this.contextRunner.withPropertyValues("distlock.zookeeper.acl.mode=custom", "distlock.zookeeper.acl.entries=r")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessageContaining("scheme:id:permissions"));
		this.contextRunner.withPropertyValues("distlock.zookeeper.auth.username=app")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessageContaining("distlock.zookeeper.auth.password"));
	}

	static String[] credentials(String username, String password, String namespace) {
		return new String[] { "distlock.zookeeper.auth.username=" + username,
				"distlock.zookeeper.auth.password=" + password, "distlock.zookeeper.namespace=" + namespace };
	}

	/** The full path of the only node under the given lock's directory. */
	private static String holderNode(CuratorFramework client, String lockDirectory) throws Exception {
		List<String> children = client.getChildren().forPath(lockDirectory);
		assertThat(children).hasSize(1);
		return "/" + client.getNamespace() + lockDirectory + "/" + children.get(0);
	}

	private static List<String> pathAndParents(String path) {
		List<String> paths = new ArrayList<>();
		for (String node = path; !node.isEmpty(); node = node.substring(0, node.lastIndexOf('/'))) {
			paths.add(node);
		}
		return paths;
	}

	/** A client at ZooKeeper's root, with the given digest credentials if any. */
	private static CuratorFramework rawClient(String digest) throws InterruptedException {
		NodeOptions root = zookeeper.options().withNamespace(null);
		CuratorFramework client = (digest != null) ? root.startDigestClient(zookeeper.connectString(), digest)
				: root.startClient(zookeeper.connectString());
		assertThat(client.blockUntilConnected(10, TimeUnit.SECONDS)).isTrue();
		return client;
	}

	private static void assertNoAuth(ZookeeperCall call) {
		assertThatExceptionOfType(KeeperException.NoAuthException.class).isThrownBy(call::run);
	}

	@FunctionalInterface
	interface ZookeeperCall {

		void run() throws Exception;

	}

}
