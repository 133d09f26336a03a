package io.github.distlock.core;

import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;
import java.util.stream.Collectors;

import io.github.distlock.core.spi.NoLockHeldPolicy;

/**
 * The locks the current thread (or another {@link LockScope}) holds, outermost first:
 * what a locked method asks to learn whether its locks still hold, and to read their
 * fencing tokens.
 *
 * <pre class="code">
 * &#64;DistributedLock("orders/#{#order.id}")
 * public void ship(Order order) {
 *     LockContext.current().assertHeld();
 *     store.save(order, LockContext.current().fencingToken());
 * }
 * </pre>
 *
 * Outside every lock {@link #assertHeld()} throws {@link NoLockHeldException}. For a unit
 * test that calls such a method directly, without ZooKeeper, distlock's test kit
 * ({@code io.github.distlock.test.LockAssertions} in {@code distlock-test}) can make it
 * pass outside a lock, as ShedLock's {@code LockAssert.TestHelper.makeAllAssertsPass}
 * does: the kit registers a {@link NoLockHeldPolicy}, which nothing but the class path
 * brings in.
 */
public final class LockContext {

	private final String holder;

	private final List<LockHandle> locks;

	private LockContext(String holder, List<LockHandle> locks) {
		this.holder = holder;
		this.locks = locks;
	}

	/**
	 * Return the locks the current thread holds now through the synchronous API.
	 * @return a snapshot, empty if it holds none
	 */
	public static LockContext current() {
		return of(LockScope.currentThread());
	}

	/**
	 * Return the locks the given scope holds now, such as the scope of a reactive
	 * pipeline or a coroutine.
	 * @param scope the scope
	 * @return a snapshot, empty if it holds none
	 */
	public static LockContext of(LockScope scope) {
		return new LockContext(scope.name(), scope.handles());
	}

	/** The locks, outermost first. */
	public List<LockHandle> locks() {
		return this.locks;
	}

	/**
	 * Whether the holder holds at least one lock and every one of them is
	 * {@link LockState#HELD}.
	 */
	public boolean isHeld() {
		return !this.locks.isEmpty() && this.locks.stream().allMatch((handle) -> handle.state() == LockState.HELD);
	}

	/**
	 * Check that every lock of the holder is still held.
	 * @throws NoLockHeldException if the holder holds no lock at all (unless a
	 * {@link NoLockHeldPolicy} on the class path, such as the test kit's, lets it pass)
	 * @throws LockLostException naming the locks that are no longer held
	 */
	public void assertHeld() {
		if (this.locks.isEmpty()) {
			if (Policies.assertHeldPasses()) {
				return;
			}
			throw noLock("assertHeld()", "");
		}
		List<LockHandle> notHeld = new ArrayList<>();
		for (LockHandle handle : this.locks) {
			if (handle.state() != LockState.HELD) {
				notHeld.add(handle);
			}
		}
		if (!notHeld.isEmpty()) {
			throw new LockLostException("Lock " + notHeld.stream()
				.map((handle) -> "'" + handle.path() + "' (" + handle.state() + ")")
				.collect(Collectors.joining(", ")) + " no longer held by " + this.holder);
		}
	}

	/**
	 * Whether an operator asked the holder to release one of its locks
	 * ({@link LockAdmin#requestRelease}) and the lock's hold listens: a lock that ends
	 * early on a request ({@code holdAtLeast}), or one given a listener with
	 * {@link #onReleaseRequested(Runnable)}.
	 * @return whether a release of one of the locks was asked
	 */
	public boolean isReleaseRequested() {
		return this.locks.stream().anyMatch(LockHandle::isReleaseRequested);
	}

	/**
	 * Listen for an operator's request to release the innermost lock, as
	 * {@link LockHandle#onReleaseRequested(Runnable)} does: a method that can stop early
	 * registers one and finishes its work sooner.
	 * @param listener told once when the release is asked
	 * @throws NoLockHeldException if the holder holds no lock
	 */
	public void onReleaseRequested(Runnable listener) {
		if (this.locks.isEmpty()) {
			throw noLock("onReleaseRequested()", "");
		}
		this.locks.get(this.locks.size() - 1).onReleaseRequested(listener);
	}

	/**
	 * Return the fencing token of the innermost lock.
	 * @return the token
	 * @throws NoLockHeldException if the holder holds no lock
	 */
	public long fencingToken() {
		if (this.locks.isEmpty()) {
			throw noLock("fencingToken()", "");
		}
		return this.locks.get(this.locks.size() - 1).fencingToken();
	}

	/**
	 * Return the fencing token of the lock at the given path.
	 * @param path the lock path
	 * @return the token
	 * @throws NoLockHeldException if the holder holds no lock at that path
	 */
	public long fencingToken(LockPath path) {
		for (int i = this.locks.size() - 1; i >= 0; i--) {
			if (this.locks.get(i).path().equals(path)) {
				return this.locks.get(i).fencingToken();
			}
		}
		throw noLock("fencingToken(" + path + ")", " at '" + path + "'");
	}

	private NoLockHeldException noLock(String method, String at) {
		return new NoLockHeldException("No distlock lock" + at + " is held by " + this.holder + ": LockContext."
				+ method + " was called outside every locked method and open lock handle (not lost: never taken"
				+ (this.locks.isEmpty() ? ""
						: " there; it holds " + this.locks.stream()
							.map((handle) -> "'" + handle.path() + "'")
							.collect(Collectors.joining(", ")))
				+ "). Call it inside a method with a lock annotation (invoked through its Spring bean, not from the "
				+ "same class) or while a LockHandle is open; in a unit test without ZooKeeper, "
				+ "LockAssertions.makeAllAssertsPass(true) of distlock-test makes assertHeld() pass");
	}

	/**
	 * The {@link NoLockHeldPolicy}s on the class path, looked up once, when a holder
	 * without locks first asserts.
	 */
	private static final class Policies {

		private static final List<NoLockHeldPolicy> ALL = ServiceLoader
			.load(NoLockHeldPolicy.class, LockContext.class.getClassLoader())
			.stream()
			.map(ServiceLoader.Provider::get)
			.toList();

		private Policies() {
		}

		static boolean assertHeldPasses() {
			for (NoLockHeldPolicy policy : ALL) {
				if (policy.assertHeldPasses()) {
					return true;
				}
			}
			return false;
		}

	}

}
