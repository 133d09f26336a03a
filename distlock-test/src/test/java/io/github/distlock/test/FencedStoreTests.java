package io.github.distlock.test;

import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.github.distlock.testsupport.FencedStore;
import io.github.distlock.core.LockHandle;
import io.github.distlock.core.LockPath;
import io.github.distlock.core.LockState;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * A holder that lost its lock (its session expired) writes late; the fenced store rejects
 * the write because the next holder's token is higher.
 */
class FencedStoreTests {

	@RegisterExtension
	static DistlockZooKeeperExtension zookeeper = new DistlockZooKeeperExtension();

	@Test
	void lateWriteOfALostHolderIsRejected(TestZooKeeper server) {
		FencedStore<String, Integer> stock = new FencedStore<>();
		DistlockNode first = server.newNode();
		DistlockNode second = server.newNode();
		LockPath widget = LockPath.of("stock", "widget");

		LockHandle stale = first.getLocks().mutex(widget).acquire(Duration.ofSeconds(5));
		assertThat(stock.write("widget", 10, stale.fencingToken())).isTrue();
		server.expireSession(first);
		assertThat(stale.state()).isEqualTo(LockState.LOST);

		try (LockHandle next = second.getLocks().mutex(widget).acquire(Duration.ofSeconds(5))) {
			assertThat(stock.write("widget", 9, next.fencingToken())).isTrue();
		}
		// The first holder wakes up and writes what it computed before the loss.
		assertThat(stock.write("widget", 8, stale.fencingToken())).isFalse();
		stale.close();

		assertThat(stock.read("widget")).contains(9);
		stock.assertLateWritesRejected();
		assertThat(stock.getRejectedWrites()).singleElement()
			.satisfies((write) -> assertThat(write.fencingToken()).isEqualTo(stale.fencingToken()));
	}

	@Test
	void assertLateWritesRejectedFailsWhenNoLateWriteWasMade() {
		FencedStore<String, Integer> stock = new FencedStore<>();
		stock.write("widget", 1, 5);
		stock.write("widget", 2, 6);
		assertThatExceptionOfType(AssertionError.class).isThrownBy(stock::assertLateWritesRejected)
			.withMessageContaining("accepted widget = 2 with token 6 (highest before: 5)");
	}

}
