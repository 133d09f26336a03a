package io.github.distlock.core.spi;

/**
 * Decides whether {@code LockContext.assertHeld()} passes for a holder that holds no lock
 * at all. Implementations are found with {@link java.util.ServiceLoader} through
 * {@code META-INF/services/io.github.distlock.core.spi.NoLockHeldPolicy}; the call passes
 * if one of them says so, and fails with a {@code NoLockHeldException} otherwise, which
 * is all there is when none is on the class path. A lock that is held but no longer
 * {@code HELD} fails the call whatever a policy says.
 * <p>
 * distlock's test kit ({@code distlock-test}, which applications have in test scope)
 * registers the one implementation, switched by its {@code LockAssertions}: production
 * code, which does not have the kit on its class path, has nothing that could switch it.
 */
@FunctionalInterface
public interface NoLockHeldPolicy {

	/**
	 * Whether {@code assertHeld()} passes now for a holder that holds no lock; called on
	 * the thread that asserts, each time.
	 * @return whether it passes
	 */
	boolean assertHeldPasses();

}
