package io.github.distlock.interceptor;

import java.lang.reflect.Method;

import io.github.distlock.core.ClusterLock;
import io.github.distlock.core.LockKind;
import io.github.distlock.core.LockPath;
import io.github.distlock.core.Locks;

/**
 * A {@link io.github.distlock.annotation.Semaphore @Semaphore}: one permit of a counting
 * semaphore. It never locks several paths at once.
 *
 * @param method the annotated method as declared on the target class
 * @param description the annotation and method, for messages
 * @param returnType how long the method's work lasts, told by its return type
 * @param path the parsed path template
 * @param waitTime how long to wait
 * @param onTimeout what to do when no permit was acquired in time
 * @param permits the number of permits, at least 1
 */
public record SemaphoreOperation(Method method, String description, LockedReturnType returnType, LockPathTemplate path,
		DurationTemplate waitTime, TimeoutPolicy onTimeout, int permits) implements LockOperation {

	@Override
	public LockKind kind() {
		return LockKind.SEMAPHORE;
	}

	@Override
	public ClusterLock lock(Locks locks, LockPath path) {
		return locks.semaphore(path, this.permits);
	}

	@Override
	public boolean supportsMultiLock() {
		return false;
	}

}
