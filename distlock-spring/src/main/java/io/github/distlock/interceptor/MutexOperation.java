package io.github.distlock.interceptor;

import java.lang.reflect.Method;

import io.github.distlock.core.ClusterLock;
import io.github.distlock.core.LockKind;
import io.github.distlock.core.LockPath;
import io.github.distlock.core.Locks;

/**
 * A {@link io.github.distlock.annotation.DistributedLock @DistributedLock}: a reentrant
 * or non-reentrant mutex.
 *
 * @param method the annotated method as declared on the target class
 * @param description the annotation and method, for messages
 * @param returnType how long the method's work lasts, told by its return type
 * @param path the parsed path template
 * @param waitTime how long to wait
 * @param onTimeout what to do when the lock was not acquired in time
 * @param reentrant whether the holding thread may take the lock again
 * @param holdAtLeast how long the lock stays held at least after its acquisition
 * @param fenced whether the lock fences the transaction the call runs in
 */
public record MutexOperation(Method method, String description, LockedReturnType returnType, LockPathTemplate path,
		DurationTemplate waitTime, TimeoutPolicy onTimeout, boolean reentrant, DurationTemplate holdAtLeast,
		boolean fenced) implements LockOperation {

	@Override
	public LockKind kind() {
		return LockKind.MUTEX;
	}

	@Override
	public ClusterLock lock(Locks locks, LockPath path) {
		return this.reentrant ? locks.mutex(path) : locks.nonReentrantMutex(path);
	}

}
