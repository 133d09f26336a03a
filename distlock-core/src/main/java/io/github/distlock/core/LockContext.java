package io.github.distlock.core;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

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
	 * @throws LockLostException naming the locks that are not, or saying that none is
	 * held
	 */
	public void assertHeld() {
		if (this.locks.isEmpty()) {
			throw new LockLostException(this.holder + " holds no lock");
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
	 * Return the fencing token of the innermost lock.
	 * @return the token
	 * @throws LockLostException if the holder holds no lock
	 */
	public long fencingToken() {
		if (this.locks.isEmpty()) {
			throw new LockLostException(this.holder + " holds no lock");
		}
		return this.locks.get(this.locks.size() - 1).fencingToken();
	}

	/**
	 * Return the fencing token of the lock at the given path.
	 * @param path the lock path
	 * @return the token
	 * @throws LockLostException if the holder holds no lock at that path
	 */
	public long fencingToken(LockPath path) {
		for (int i = this.locks.size() - 1; i >= 0; i--) {
			if (this.locks.get(i).path().equals(path)) {
				return this.locks.get(i).fencingToken();
			}
		}
		throw new LockLostException(this.holder + " holds no lock at '" + path + "'");
	}

}
