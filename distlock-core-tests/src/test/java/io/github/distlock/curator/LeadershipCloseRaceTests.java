package io.github.distlock.curator;

import java.lang.reflect.Field;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.github.distlock.testsupport.Faults;
import io.github.distlock.testsupport.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A join (or a wait to lead, which joins) that passed the check for a closed election
 * just as the election closed: either it is refused, or close leaves the group it joined.
 * No latch node is left that close never deletes. The join is held between its check and
 * its participant, where the race lies, by a computation of the participants' map on the
 * group's key, so that close runs all the way meanwhile unless it waits for the join.
 */
class LeadershipCloseRaceTests {

	private static final Duration WITHIN = Duration.ofSeconds(10);

	@RegisterExtension
	final ZooKeeperExtension zookeeper = new ZooKeeperExtension();

	@Test
	void aJoinRacingCloseLeavesNoLatchNode() throws Exception {
		race((leadership) -> leadership.join("group"));
	}

	@Test
	void aWaitToLeadRacingCloseLeavesNoLatchNode() throws Exception {
		race((leadership) -> leadership.awaitLeadership("group"));
	}

	private void race(Consumer<CuratorLeadership> joining) throws Exception {
		CuratorFramework observer = this.zookeeper.newClient();
		CuratorLeadership leadership = new CuratorLeadership(this.zookeeper.newNode());
		Map<String, Object> participants = participants(leadership);
		CountDownLatch computing = new CountDownLatch(1);
		CountDownLatch release = new CountDownLatch(1);
		Thread holder = new Thread(() -> participants.compute("group", (group, participant) -> {
			computing.countDown();
			awaitQuietly(release);
			return participant;
		}));
		holder.start();
		assertThat(computing.await(10, TimeUnit.SECONDS)).isTrue();
		Thread joiner = new Thread(() -> {
			try {
				joining.accept(leadership);
			}
			catch (RuntimeException ex) {
				// Refused: the election was closed.
			}
		});
		joiner.start();
		await().atMost(WITHIN).until(() -> joiner.getState() == Thread.State.BLOCKED);
		Thread closer = new Thread(leadership::close);
		closer.start();
		// Close either ran all the way, or waits for the join to be done.
		await().atMost(WITHIN)
			.until(() -> closer.getState() == Thread.State.TERMINATED || closer.getState() == Thread.State.BLOCKED);
		release.countDown();
		holder.join(10_000);
		joiner.join(10_000);
		closer.join(20_000);
		assertThat(closer.isAlive()).isFalse();
		assertThat(leadership.groups()).isEmpty();
		await().atMost(WITHIN).until(() -> Faults.children(observer, "/leader/group").isEmpty());
	}

	@SuppressWarnings("unchecked")
	private static Map<String, Object> participants(CuratorLeadership leadership) throws Exception {
		Field field = CuratorLeadership.class.getDeclaredField("participants");
		field.setAccessible(true);
		return (Map<String, Object>) field.get(leadership);
	}

	private static void awaitQuietly(CountDownLatch latch) {
		try {
			latch.await(20, TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}
