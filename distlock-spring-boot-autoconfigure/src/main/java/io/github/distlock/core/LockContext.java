package io.github.distlock.core;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The locks the current thread holds, outermost first: what a locked method asks to learn
 * whether its locks still hold, and to read their fencing tokens.
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

	private static final ThreadLocal<Deque<LockHandle>> held = ThreadLocal.withInitial(() -> new ArrayDeque<>(4));

	private final List<LockHandle> locks;

	private LockContext(List<LockHandle> locks) {
		this.locks = locks;
	}

	/**
	 * Return the locks the current thread holds now.
	 * @return a snapshot, empty if it holds none
	 */
	public static LockContext current() {
		Deque<LockHandle> stack = held.get();
		stack.removeIf((handle) -> handle.state() == LockState.RELEASED);
		return new LockContext(List.copyOf(stack));
	}

	/**
	 * Record that the current thread acquired a lock. For lock implementations.
	 * @param handle the handle of the acquired lock
	 */
	public static void enter(LockHandle handle) {
		held.get().addLast(handle);
	}

	/**
	 * Record that the current thread released a lock. For lock implementations.
	 * @param handle the handle of the released lock
	 */
	public static void exit(LockHandle handle) {
		Deque<LockHandle> stack = held.get();
		stack.removeLastOccurrence(handle);
		if (stack.isEmpty()) {
			held.remove();
		}
	}

	/** The locks, outermost first. */
	public List<LockHandle> locks() {
		return this.locks;
	}

	/**
	 * Whether the thread holds at least one lock and every one of them is
	 * {@link LockState#HELD}.
	 */
	public boolean isHeld() {
		return !this.locks.isEmpty() && this.locks.stream().allMatch((handle) -> handle.state() == LockState.HELD);
	}

	/**
	 * Check that every lock of the thread is still held.
	 * @throws LockLostException naming the locks that are not, or saying that none is
	 * held
	 */
	public void assertHeld() {
		if (this.locks.isEmpty()) {
			throw new LockLostException("Thread '" + Thread.currentThread().getName() + "' holds no lock");
		}
		List<LockHandle> notHeld = new ArrayList<>();
		for (LockHandle handle : this.locks) {
			if (handle.state() != LockState.HELD) {
				notHeld.add(handle);
			}
		}
		if (!notHeld.isEmpty()) {
			throw new LockLostException("Lock "
					+ notHeld.stream()
						.map((handle) -> "'" + handle.path() + "' (" + handle.state() + ")")
						.collect(Collectors.joining(", "))
					+ " no longer held by thread '" + Thread.currentThread().getName() + "'");
		}
	}

	/**
	 * Return the fencing token of the innermost lock.
	 * @return the token
	 * @throws IllegalStateException if the thread holds no lock
	 */
	public long fencingToken() {
		if (this.locks.isEmpty()) {
			throw new IllegalStateException("Thread '" + Thread.currentThread().getName() + "' holds no lock");
		}
		return this.locks.get(this.locks.size() - 1).fencingToken();
	}

	/**
	 * Return the fencing token of the lock at the given path.
	 * @param path the lock path
	 * @return the token
	 * @throws IllegalStateException if the thread holds no lock at that path
	 */
	public long fencingToken(LockPath path) {
		for (int i = this.locks.size() - 1; i >= 0; i--) {
			if (this.locks.get(i).path().equals(path)) {
				return this.locks.get(i).fencingToken();
			}
		}
		throw new IllegalStateException(
				"Thread '" + Thread.currentThread().getName() + "' holds no lock at '" + path + "'");
	}

}
