package io.github.distlock.test;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.time.Duration;
import java.util.Arrays;
import java.util.ServiceLoader;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.github.distlock.core.LockContext;
import io.github.distlock.core.LockHandle;
import io.github.distlock.core.LockLostException;
import io.github.distlock.core.LockPath;
import io.github.distlock.core.NoLockHeldException;
import io.github.distlock.core.spi.NoLockHeldPolicy;

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
		assertThat(ServiceLoader.load(NoLockHeldPolicy.class).stream().map(ServiceLoader.Provider::type))
			.containsExactly(LockAssertionsPolicy.class);
		assertThat(LockContext.class.getClasses()).isEmpty();
		assertThat(Arrays.stream(LockContext.class.getMethods())
			.filter((method) -> Modifier.isStatic(method.getModifiers()))
			.map(Method::getName)).containsOnly("current", "of");
		assertThat(LockAssertions.isAssertHeldPassing()).isFalse();
		assertThat(new LockAssertionsPolicy().assertHeldPasses()).isFalse();
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
