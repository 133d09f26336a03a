package io.github.distlock.curator;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.github.distlock.core.LockPath;
import io.github.distlock.testsupport.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The blocking reads of a group or a lock, asked while the client still connects (right
 * after the application starts), wait for the connection within the client's connection
 * timeout, as Curator's own blocking reads do, rather than fail at once.
 */
class ReadsRightAfterStartTests {

	@RegisterExtension
	final ZooKeeperExtension zookeeper = new ZooKeeperExtension();

	@Test
	void leaderAndInspectWaitForTheConnection() throws Exception {
		this.zookeeper.server().stop();
		CuratorLocks locks = this.zookeeper.nodes()
			.node(this.zookeeper.connectString(),
					this.zookeeper.options().withConnectionTimeout(Duration.ofSeconds(30)));
		CuratorLeadership leadership = this.zookeeper.nodes().register(new CuratorLeadership(locks));
		assertThat(locks.client().getZookeeperClient().isConnected()).isFalse();
		CompletableFuture<Object> leader = CompletableFuture.supplyAsync(() -> leadership.leader("starting"));
		CompletableFuture<Object> group = CompletableFuture.supplyAsync(() -> leadership.inspect("starting"));
		CompletableFuture<Object> queues = CompletableFuture
			.supplyAsync(() -> locks.inspect(LockPath.parse("starting")));
		// Still waiting for the connection (without it they would have failed at once).
		await().during(Duration.ofMillis(300))
			.atMost(Duration.ofSeconds(5))
			.until(() -> !leader.isDone() && !group.isDone() && !queues.isDone());
		this.zookeeper.server().restart();
		assertThat(leader.get(30, TimeUnit.SECONDS)).isEqualTo(java.util.Optional.empty());
		assertThat(group.get(30, TimeUnit.SECONDS)).isNotNull();
		assertThat(queues.get(30, TimeUnit.SECONDS)).isEqualTo(java.util.List.of());
	}

}
