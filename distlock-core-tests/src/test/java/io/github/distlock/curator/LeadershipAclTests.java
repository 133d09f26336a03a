package io.github.distlock.curator;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Id;
import org.apache.zookeeper.server.auth.DigestAuthenticationProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.github.distlock.testsupport.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A member whose latch node ZooKeeper refuses (the group's node has an ACL that does not
 * grant this client's identity): as Curator's own {@code TestLeaderAcls} expects of a
 * {@code LeaderLatch}, the client's {@code UnhandledErrorListener}s hear the
 * {@code NoAuth}, once for the cause however often the member tries again, and
 * {@code lastError} shows it until the member takes part.
 */
class LeadershipAclTests {

	private static final Duration WITHIN = Duration.ofSeconds(30);

	@RegisterExtension
	final ZooKeeperExtension zookeeper = new ZooKeeperExtension();

	@Test
	void aMemberRefusedByAnAclIsToldOnceAndShowsTheErrorUntilItTakesPart() throws Exception {
		CuratorFramework owner = this.zookeeper.nodes()
			.register(CuratorFrameworkFactory.builder()
				.connectString(this.zookeeper.connectString())
				.namespace(this.zookeeper.options().namespace())
				.retryPolicy(new RetryOneTime(100))
				.authorization("digest", "owner:secret".getBytes())
				.build());
		owner.start();
		String digest = DigestAuthenticationProvider.generateDigest("owner:secret");
		owner.create()
			.creatingParentsIfNeeded()
			.withACL(List.of(new ACL(ZooDefs.Perms.ALL, new Id("digest", digest))))
			.forPath("/leader/acl");
		CuratorLocks locks = this.zookeeper.newNode();
		List<Throwable> told = new CopyOnWriteArrayList<>();
		locks.client().getUnhandledErrorListenable().addListener((message, error) -> told.add(error));
		CuratorLeadership member = this.zookeeper.nodes().register(new CuratorLeadership(locks, "refused"));

		member.join("acl");

		await().atMost(WITHIN).until(() -> member.lastError("acl").isPresent() && !told.isEmpty());
		assertThat(told).singleElement().isInstanceOf(KeeperException.NoAuthException.class);
		assertThat(((KeeperException) told.get(0)).getPath()).contains("/leader/acl");
		assertThat(member.lastError("acl")).containsInstanceOf(KeeperException.NoAuthException.class);
		assertThat(member.failingGroups()).isOne();
		// It tries again every second: three more refusals, still told once.
		await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(5)).until(() -> told.size() == 1);

		owner.setACL().withACL(ZooDefs.Ids.OPEN_ACL_UNSAFE).forPath("/leader/acl");

		member.awaitLeadership("acl").get(30, TimeUnit.SECONDS);
		assertThat(member.lastError("acl")).isEmpty();
		assertThat(member.failingGroups()).isZero();
		assertThat(told).hasSize(1);
	}

}
