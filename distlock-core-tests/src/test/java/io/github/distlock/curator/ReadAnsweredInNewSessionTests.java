package io.github.distlock.curator;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.zookeeper.data.Stat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.github.distlock.core.LockHandle;
import io.github.distlock.core.LockState;
import io.github.distlock.relay.TcpRelay;
import io.github.distlock.testsupport.Faults;
import io.github.distlock.testsupport.RetryOnlyCreates;
import io.github.distlock.testsupport.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A queue read that says our node holds, answered after Curator replaced the session our
 * node was made in and before the engine was told of it: the node belongs to a session
 * the client gave up (the server may still keep it), so it is not taken for the lock. The
 * position deletes it and queues with a node of the session in use.
 */
class ReadAnsweredInNewSessionTests {

	private static final Duration WITHIN = Duration.ofSeconds(20);

	@RegisterExtension
	final ZooKeeperExtension zookeeper = new ZooKeeperExtension();

	@Test
	void aNodeOfAReplacedSessionThatReadsFirstDoesNotHold() throws Exception {
		CuratorFramework observer = this.zookeeper.newClient();
		CuratorLocks holderLocks = this.zookeeper.nodes().register(this.zookeeper.options().createLocks(observer));
		LockHandle holder = holderLocks.mutex("reads").acquire(WITHIN);
		String holderNode = Faults.children(observer, "/mutex/reads").get(0);

		TcpRelay relay = this.zookeeper.nodes().register(new TcpRelay(this.zookeeper.server().getPort()));
		CuratorFramework client = RelayedClients.start(this.zookeeper, relay, new RetryOnlyCreates());
		client.blockUntilConnected(10, TimeUnit.SECONDS);
		// Holds up Curator's connection events from the first about the session's end
		// (the suspension), so the engine hears of the new session only when let go.
		HeldUpEvents held = HeldUpEvents.on(client, WITHIN.multipliedBy(2));
		LateAnswers answers = new LateAnswers();
		CuratorLocks locks = this.zookeeper.nodes()
			.register(this.zookeeper.options().createLocks(answers.wrap(client)));
		long oldSession = client.getZookeeperClient().getZooKeeper().getSessionId();

		// Queued behind the holder, watching its node.
		CompletableFuture<LockHandle> acquisition = locks.mutex("reads").acquireAsync(WITHIN.multipliedBy(2));
		await().atMost(WITHIN).until(() -> answers.watchesSet.get() == 1);
		List<String> before = Faults.children(observer, "/mutex/reads");
		String oldNode = before.stream().filter((n) -> !n.equals(holderNode)).findFirst().orElseThrow();

		// The holder lets go: the read that follows says our node is first; its answer is
		// held back.
		answers.holdReads = true;
		holder.close();
		await().atMost(WITHIN).until(() -> answers.held.size() == 1);
		answers.holdReads = false;

		// The client gives up on its session; the server keeps it, and the node with it:
		// another handle takes the session over while the client cannot reach the server.
		RelayedClients.replaceSessionKeptOnServer(this.zookeeper, relay, client);
		assertThat(held.heldUp.get()).isNotNull();
		assertThat(Faults.children(observer, "/mutex/reads")).containsExactly(oldNode);

		// The read's answer now: our node is first, but of the replaced session.
		answers.deliverHeld();
		long session = client.getZookeeperClient().getZooKeeper().getSessionId();
		assertThat(session).isNotEqualTo(oldSession);
		LockHandle handle = acquisition.get(WITHIN.toSeconds(), TimeUnit.SECONDS);
		try {
			// Granted before the engine was told of the new session, with a node of it.
			assertThat(held.isHolding()).isTrue();
			Stat stat = observer.checkExists().forPath(handle.nodePath().orElseThrow());
			assertThat(stat).isNotNull();
			assertThat(stat.getEphemeralOwner()).isEqualTo(session);
			assertThat(handle.fencingToken()).isEqualTo(stat.getCzxid());
			assertThat(Faults.children(observer, "/mutex/reads")).doesNotContain(oldNode);

			// Told of the old session's end now (once the event after the loss is told,
			// every listener handled the loss), the hold of the new one holds on.
			held.letGo();
			await().atMost(WITHIN).until(() -> held.told.contains(ConnectionState.RECONNECTED));
			assertThat(held.told).contains(ConnectionState.LOST);
			assertThat(handle.state()).isEqualTo(LockState.HELD);
			assertThat(observer.checkExists().forPath(handle.nodePath().orElseThrow())).isNotNull();
		}
		finally {
			held.letGo();
			handle.close();
		}
	}

}
