package io.github.distlock.core;

/**
 * A read/write lock at one path: any number of readers, or one writer.
 */
public interface ClusterReadWriteLock {

	/** Path of this lock relative to the lock root. */
	LockPath path();

	/** The shared side. */
	ClusterLock readLock();

	/** The exclusive side. */
	ClusterLock writeLock();

}
