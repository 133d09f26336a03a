package io.github.distlock.test;

import java.time.Duration;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.github.distlock.core.LockContext;
import io.github.distlock.core.LockHandle;
import io.github.distlock.core.LockLostException;
import io.github.distlock.core.LockPath;
import io.github.distlock.core.NoLockHeldException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatNoException;

/**
 * {@code LockContext.current().assertHeld()} outside a lock: a clear error, and a test
 * mode that only the kit can switch.
 */
class LockAssertionsTests {

	@RegisterExtension
	static DistlockZooKeeperExtension zookeeper = new DistlockZooKeeperExtension();

	@AfterEach
	void switchOff() {
		LockAssertions.makeAllAssertsPass(false);
	}

	@Test
	void outsideEveryLockAssertHeldSaysNoLockIsHeldRatherThanLost() {
		assertThatExceptionOfType(NoLockHeldException.class).isThrownBy(() -> LockContext.current().assertHeld())
			.isInstanceOf(LockLostException.class)
			.withMessageStartingWith("No distlock lock is held by " + Thread.currentThread().getName()
					+ ": LockContext.assertHeld() was called outside every locked method and open lock handle")
			.withMessageContaining("LockAssertions.makeAllAssertsPass(true)");
	}

	@Test
	void inTestModeAssertHeldPassesOutsideALockUntilSwitchedOff() {
		LockAssertions.makeAllAssertsPass(true);
		assertThatNoException().isThrownBy(() -> LockContext.current().assertHeld());
		assertThatExceptionOfType(NoLockHeldException.class).isThrownBy(() -> LockContext.current().fencingToken());
		LockAssertions.makeAllAssertsPass(false);
		assertThatExceptionOfType(NoLockHeldException.class).isThrownBy(() -> LockContext.current().assertHeld());
	}

	@Test
	void theScopedModeRestoresWhatWasBefore() {
		try (LockAssertions.Mode mode = LockAssertions.assertHeldPasses()) {
			LockContext.current().assertHeld();
		}
		assertThatExceptionOfType(NoLockHeldException.class).isThrownBy(() -> LockContext.current().assertHeld());
	}

	@Test
	void onlyTheKitSwitchesTheTestMode() {
		assertThatExceptionOfType(IllegalStateException.class)
			.isThrownBy(() -> LockContext.TestHook.assertHeldPasses(true))
			.withMessageContaining("not by " + LockAssertionsTests.class.getName());
		assertThat(LockContext.TestHook.isAssertHeldPassing()).isFalse();
	}

	@Test
	void inTestModeALostLockStillFails(TestZooKeeper server) {
		LockAssertions.makeAllAssertsPass(true);
		DistlockNode node = server.newNode();
		try (LockHandle handle = node.getLocks().mutex(LockPath.of("jobs", "report")).acquire(Duration.ofSeconds(5))) {
			server.expireSession(node);
			assertThatExceptionOfType(LockLostException.class).isThrownBy(() -> LockContext.current().assertHeld())
				.isNotInstanceOf(NoLockHeldException.class)
				.withMessageContaining("'jobs/report' (LOST)");
		}
	}

}
