package io.github.distlock.core;

/**
 * Told of every acquisition of a lock that has to contend for it (a re-entry of a lock
 * the thread already holds is not one), for metrics and tracing. Implementations are
 * called on the hot path and on Curator's event thread, so they must be quick and must
 * not throw.
 * <p>
 * Name a lock by {@link LockPath#template()}, never by its resolved path, wherever the
 * number of distinct names matters (metric tags): resolved paths are unbounded.
 */
public interface LockEventListener {

	/**
	 * An acquisition starts.
	 * @param kind the kind of lock
	 * @param path the lock path
	 * @return what follows this acquisition; {@link Attempt#NONE} to ignore it
	 */
	Attempt acquiring(LockKind kind, LockPath path);

	/**
	 * One acquisition, from its start to its end or, once acquired, to its release. Each
	 * attempt ends with exactly one of {@link #acquired}, {@link #timedOut} and
	 * {@link #failed}; an acquired one then ends with {@link #released}, possibly after
	 * {@link #lost}.
	 */
	interface Attempt {

		/** An attempt nobody follows. */
		Attempt NONE = new Attempt() {
		};

		/**
		 * The lock was acquired.
		 * @param fencingToken its fencing token
		 */
		default void acquired(long fencingToken) {
		}

		/** The lock was not acquired within the wait time. */
		default void timedOut() {
		}

		/**
		 * The acquisition failed for another reason than the wait time.
		 * @param error what went wrong
		 */
		default void failed(Throwable error) {
		}

		/**
		 * The held lock became {@link LockState#LOST}; called on Curator's event thread.
		 */
		default void lost() {
		}

		/** The held lock was released (its last handle closed). */
		default void released() {
		}

	}

}
