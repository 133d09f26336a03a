package io.github.distlock.test;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.github.distlock.core.LockContext;
import io.github.distlock.core.NoLockHeldException;

/**
 * The test mode of {@link LockContext#assertHeld()}, for unit tests that call a method
 * which asserts its lock directly, without a ZooKeeper and without the lock's proxy: the
 * equivalent of ShedLock's {@code LockAssert.TestHelper.makeAllAssertsPass}.
 *
 * <pre class="code">
 * &#64;BeforeEach
 * void assertHeldPasses() {
 *     LockAssertions.makeAllAssertsPass(true);
 * }
 *
 * &#64;AfterEach
 * void assertHeldFailsAgain() {
 *     LockAssertions.makeAllAssertsPass(false);
 * }
 * </pre>
 *
 * or, for one call, {@code try (var mode = LockAssertions.assertHeldPasses()) { ... }}.
 * <p>
 * The mode is global to the JVM (the method under test may run on another thread), so
 * switch it off after the test. While it is on, {@code assertHeld()} passes where no lock
 * is held at all; a lock that is held but was lost still fails it, and
 * {@link LockContext#fencingToken()} still throws {@link NoLockHeldException} outside a
 * lock. {@code LockContext} learns of the mode through the kit's
 * {@link io.github.distlock.core.spi.NoLockHeldPolicy} ({@link LockAssertionsPolicy}),
 * registered in {@code META-INF/services} of {@code distlock-test}, which an application
 * has in test scope: production code has no switch to flip. A switch is logged as a
 * warning.
 */
public final class LockAssertions {

	private static final Logger logger = LoggerFactory.getLogger(LockAssertions.class);

	private static volatile boolean assertHeldPasses;

	private LockAssertions() {
	}

	/**
	 * Switch the test mode on or off.
	 * @param pass whether {@code LockContext.current().assertHeld()} passes outside every
	 * lock
	 */
	public static void makeAllAssertsPass(boolean pass) {
		set(pass);
	}

	/**
	 * Whether the test mode is on.
	 * @return whether {@code assertHeld()} passes outside every lock
	 */
	public static boolean isAssertHeldPassing() {
		return assertHeldPasses;
	}

	private static synchronized void set(boolean pass) {
		if (pass != assertHeldPasses) {
			logger.warn(pass ? "LockContext.assertHeld() now passes outside every lock (test mode of distlock-test)"
					: "LockContext.assertHeld() fails outside every lock again");
		}
		assertHeldPasses = pass;
	}

	/**
	 * Switch the test mode on until the returned mode is closed, which restores what was
	 * before.
	 * @return the mode, to close
	 */
	public static Mode assertHeldPasses() {
		boolean before = assertHeldPasses;
		set(true);
		return new Mode(before);
	}

	/** The test mode switched on by {@link #assertHeldPasses()}, until closed. */
	public static final class Mode implements AutoCloseable {

		private final boolean before;

		private Mode(boolean before) {
			this.before = before;
		}

		/** Restore the mode as it was before. */
		@Override
		public void close() {
			set(this.before);
		}

	}

}
