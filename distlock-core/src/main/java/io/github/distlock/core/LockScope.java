package io.github.distlock.core;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

import org.jspecify.annotations.Nullable;

/**
 * Who holds locks, for reentrancy: a thread, for the synchronous API, or an asynchronous
 * piece of work (a reactive pipeline, a coroutine) that carries its scope along. A scope
 * that holds a reentrant lock gets it again at once; a scope that holds a lock that is
 * not reentrant, or that holds the read side of a read/write lock and asks for its write
 * side, is refused at once, since waiting would be waiting for itself.
 * <p>
 * A scope is a layer over holds: the lock implementation acquires a hold, and the scope
 * hands out one handle per acquisition, counting re-entries; the hold is released when
 * the last handle of the scope closes it. Handles may be closed by any thread, and a
 * scope whose last handle is closed leaves nothing behind (a thread's scope is forgotten,
 * no thread-local survives it).
 * <p>
 * Applications meet scopes only through {@link LockContext}; lock implementations use
 * {@link #reenter}, {@link #holdOf} and {@link #adopt}.
 */
public final class LockScope {

	private static final ConcurrentHashMap<Thread, Entries> threads = new ConcurrentHashMap<>();

	private final String name;

	private final @Nullable Thread thread;

	private final @Nullable Entries own;

	private LockScope(String name, @Nullable Thread thread, @Nullable Entries own) {
		this.name = name;
		this.thread = thread;
		this.own = own;
	}

	/**
	 * Return a new scope for asynchronous work, holding nothing yet.
	 * @param name what to call the holder in lock nodes, logs and the endpoint
	 * @return the scope
	 */
	public static LockScope create(String name) {
		return new LockScope(name, null, new Entries());
	}

	/**
	 * Return the scope of the current thread: the locks it acquired through the
	 * synchronous API and has not released.
	 * @return the scope
	 */
	public static LockScope currentThread() {
		Thread thread = Thread.currentThread();
		return new LockScope(thread.getName(), thread, null);
	}

	/** Name of the holder, as lock nodes, logs and the endpoint show it. */
	public String name() {
		return this.name;
	}

	/**
	 * Return the handles of this scope that are not closed, outermost first.
	 * @return a snapshot
	 */
	public List<LockHandle> handles() {
		Entries entries = entries();
		if (entries == null) {
			return List.of();
		}
		synchronized (entries) {
			return List.copyOf(entries.handles);
		}
	}

	/**
	 * Re-enter a lock this scope holds, before acquiring it anew. For lock
	 * implementations.
	 * @param owner the {@link Locks} the lock belongs to: locks of different owners (two
	 * clients, standing for two nodes) are different locks, even at the same path
	 * @param kind the kind of lock asked for
	 * @param path its path
	 * @param reentrant whether the caller allows re-entry (a reentrant mutex) or not
	 * @return a new handle of the held lock, or {@code null} if the scope does not hold
	 * it and must acquire it (a semaphore is never re-entered: each acquisition takes a
	 * permit)
	 * @throws LockReentryException if the scope holds the lock and re-entry is not
	 * allowed by the caller or by the hold
	 * @throws LockUpgradeException if the scope holds the read side and asks for the
	 * write side
	 * @throws LockLostException if the scope holds the lock and it is no longer held
	 */
	public @Nullable LockHandle reenter(Locks owner, LockKind kind, LockPath path, boolean reentrant) {
		if (kind == LockKind.SEMAPHORE) {
			return null;
		}
		Entries entries = entries();
		if (entries == null) {
			return null;
		}
		synchronized (entries) {
			Entry entry = entries.find(owner, kind, path);
			if (entry == null) {
				if (kind == LockKind.WRITE && entries.find(owner, LockKind.READ, path) != null) {
					throw new LockUpgradeException(this.name + " holds the read lock '" + path
							+ "' and asked for its write lock: the writer would wait for this very reader forever. "
							+ "Release the read lock first, or take the write lock from the start (a writer may "
							+ "also read)");
				}
				return null;
			}
			if (!reentrant || !entry.reentrant) {
				throw new LockReentryException("Lock '" + path + "' is not reentrant and is already held by "
						+ this.name + ": waiting for it would wait for itself");
			}
			LockState state = entry.hold.state();
			if (state != LockState.HELD) {
				throw new LockLostException("Lock '" + path + "' is held by " + this.name + " but is " + state
						+ ": it is not handed out again");
			}
			entry.count++;
			ScopedHandle handle = new ScopedHandle(this, entry);
			entries.handles.add(handle);
			return handle;
		}
	}

	/**
	 * Return the hold this scope has of the given lock, as it was {@linkplain #adopt
	 * adopted}.
	 * @param owner the {@link Locks} the lock belongs to
	 * @param kind the kind of lock
	 * @param path the lock path
	 * @return the hold, or {@code null} if the scope does not hold the lock
	 */
	public @Nullable LockHandle holdOf(Locks owner, LockKind kind, LockPath path) {
		Entries entries = entries();
		if (entries == null) {
			return null;
		}
		synchronized (entries) {
			Entry entry = entries.find(owner, kind, path);
			return (entry != null) ? entry.hold : null;
		}
	}

	/**
	 * Make a newly acquired hold this scope's. For lock implementations.
	 * @param owner the {@link Locks} the lock belongs to
	 * @param kind the kind of lock
	 * @param path the lock path
	 * @param hold the handle of the hold, released when the scope's last handle of it is
	 * closed
	 * @param reentrant whether the scope may re-enter it
	 * @return the scope's handle of the hold
	 */
	public LockHandle adopt(Locks owner, LockKind kind, LockPath path, LockHandle hold, boolean reentrant) {
		Entry entry = new Entry(owner, kind, path, hold, reentrant);
		return update((entries) -> {
			entries.entries.add(entry);
			ScopedHandle handle = new ScopedHandle(this, entry);
			entries.handles.add(handle);
			return handle;
		});
	}

	/** Forget a closed handle; return whether it was the last one of its hold. */
	private boolean remove(ScopedHandle handle) {
		Thread thread = this.thread;
		if (thread == null) {
			Entries entries = this.own;
			synchronized (entries) {
				return entries.remove(handle);
			}
		}
		boolean[] last = new boolean[1];
		// Atomic with adopt() on the same thread: an emptied scope is forgotten only if
		// nothing was added to it meanwhile.
		threads.computeIfPresent(thread, (key, entries) -> {
			synchronized (entries) {
				last[0] = entries.remove(handle);
				return entries.handles.isEmpty() ? null : entries;
			}
		});
		return last[0];
	}

	private <T> T update(Function<Entries, T> action) {
		Thread thread = this.thread;
		if (thread == null) {
			Entries entries = this.own;
			synchronized (entries) {
				return action.apply(entries);
			}
		}
		List<T> result = new ArrayList<>(1);
		threads.compute(thread, (key, existing) -> {
			Entries entries = (existing != null) ? existing : new Entries();
			synchronized (entries) {
				result.add(action.apply(entries));
			}
			return entries;
		});
		return result.get(0);
	}

	private @Nullable Entries entries() {
		return (this.thread != null) ? threads.get(this.thread) : this.own;
	}

	/**
	 * Whether the given thread's scope is remembered (for tests of what is left behind).
	 */
	static boolean remembers(Thread thread) {
		return threads.containsKey(thread);
	}

	@Override
	public String toString() {
		return "LockScope[" + this.name + "]";
	}

	/** The holds of one scope and its open handles, in acquisition order. */
	private static final class Entries {

		private final List<Entry> entries = new ArrayList<>(2);

		private final List<ScopedHandle> handles = new ArrayList<>(2);

		@Nullable Entry find(Locks owner, LockKind kind, LockPath path) {
			for (Entry entry : this.entries) {
				if (entry.matches(owner, kind, path)) {
					return entry;
				}
			}
			return null;
		}

		boolean remove(ScopedHandle handle) {
			this.handles.remove(handle);
			Entry entry = handle.entry;
			if (--entry.count > 0) {
				return false;
			}
			this.entries.remove(entry);
			return true;
		}

	}

	/** One hold of a scope, with the number of its open handles. */
	private static final class Entry {

		private final Locks owner;

		private final LockKind kind;

		private final LockPath path;

		private final LockHandle hold;

		private final boolean reentrant;

		private int count = 1;

		Entry(Locks owner, LockKind kind, LockPath path, LockHandle hold, boolean reentrant) {
			this.owner = owner;
			this.kind = kind;
			this.path = path;
			this.hold = hold;
			this.reentrant = reentrant;
		}

		boolean matches(Locks owner, LockKind kind, LockPath path) {
			return this.owner == owner && this.kind == kind && this.path.equals(path);
		}

	}

	/** A scope's handle of a hold: one per acquisition, re-entries included. */
	private static final class ScopedHandle implements LockHandle {

		private final LockScope scope;

		private final Entry entry;

		private volatile boolean closed;

		ScopedHandle(LockScope scope, Entry entry) {
			this.scope = scope;
			this.entry = entry;
		}

		@Override
		public LockPath path() {
			return this.entry.hold.path();
		}

		@Override
		public LockKind kind() {
			return this.entry.kind;
		}

		@Override
		public long fencingToken() {
			return this.entry.hold.fencingToken();
		}

		@Override
		public Instant acquiredAt() {
			return this.entry.hold.acquiredAt();
		}

		@Override
		public Optional<String> nodePath() {
			return this.entry.hold.nodePath();
		}

		@Override
		public LockState state() {
			return this.closed ? LockState.RELEASED : this.entry.hold.state();
		}

		@Override
		public boolean isReleaseRequested() {
			return this.entry.hold.isReleaseRequested();
		}

		@Override
		public void onReleaseRequested(Runnable listener) {
			this.entry.hold.onReleaseRequested(listener);
		}

		@Override
		public void close() {
			closeAsync();
		}

		@Override
		public CompletableFuture<Void> closeAsync() {
			return leave() ? this.entry.hold.closeAsync() : CompletableFuture.completedFuture(null);
		}

		@Override
		public void closeAfter(Duration delay) {
			// The scope gives the lock up now; the hold stays until the timer
			// releases it.
			if (leave()) {
				this.entry.hold.closeAfter(delay);
			}
		}

		/** Leave the scope; return whether this was the hold's last handle. */
		private boolean leave() {
			synchronized (this) {
				if (this.closed) {
					return false;
				}
				this.closed = true;
			}
			return this.scope.remove(this);
		}

		@Override
		public String toString() {
			return "LockHandle[" + this.entry.kind + " '" + path() + "' of " + this.scope.name + ", token "
					+ fencingToken() + ", " + state() + "]";
		}

	}

}
