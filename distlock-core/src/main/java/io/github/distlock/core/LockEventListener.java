package io.github.distlock.core;

/**
 * Told of every acquisition of a lock that has to contend for it (a re-entry of a lock
 * the holder already holds is not one), for metrics and tracing. Implementations are
 * called on the hot path, so they must be quick and must not throw. They are never called
 * on a ZooKeeper or Curator thread: an outcome is reported by the thread that receives it
 * (the caller of a synchronous acquisition, the executor of an asynchronous one), a
 * release by the thread that releases, and a loss by distlock's event thread.
 * <p>
 * Name a lock by {@link LockPath#template()}, never by its resolved path, wherever the
 * number of distinct names matters (metric tags): resolved paths are unbounded.
 */
public interface LockEventListener {

	/**
	 * An acquisition starts.
	 * @param kind the kind of lock
	 * @param path the lock path
	 * @return what follows this acquisition; {@link AcquisitionListener#NONE} to ignore
	 * it
	 */
	AcquisitionListener acquiring(LockKind kind, LockPath path);

	/**
	 * One acquisition, from its start to its end or, once acquired, to its release. Each
	 * acquisition ends with exactly one of {@link #acquired}, {@link #timedOut},
	 * {@link #cancelled} and {@link #failed}; an acquired one then ends with
	 * {@link #released}, possibly after {@link #lost}.
	 */
	interface AcquisitionListener {

		/** An acquisition nobody follows. */
		AcquisitionListener NONE = new AcquisitionListener() {
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
		 * The acquisition was abandoned by its caller (an interrupt, a cancelled future
		 * or subscription) before it got the lock.
		 */
		default void cancelled() {
		}

		/**
		 * The acquisition failed for another reason than the wait time.
		 * @param error what went wrong
		 */
		default void failed(Throwable error) {
		}

		/**
		 * The held lock became {@link LockState#LOST}; called on distlock's event thread,
		 * after {@link #acquired}.
		 */
		default void lost() {
		}

		/** The held lock was released (its last handle closed). */
		default void released() {
		}

	}

}
