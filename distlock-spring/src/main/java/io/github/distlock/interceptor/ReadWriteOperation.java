package io.github.distlock.interceptor;

import java.lang.reflect.Method;

import io.github.distlock.core.ClusterLock;
import io.github.distlock.core.ClusterReadWriteLock;
import io.github.distlock.core.LockKind;
import io.github.distlock.core.LockPath;
import io.github.distlock.core.Locks;

/**
 * A {@link io.github.distlock.annotation.ReadLock @ReadLock} or a
 * {@link io.github.distlock.annotation.WriteLock @WriteLock}: one side of the read/write
 * lock of a path.
 *
 * @param method the annotated method as declared on the target class
 * @param description the annotation and method, for messages
 * @param returnType how long the method's work lasts, told by its return type
 * @param path the parsed path template
 * @param waitTime how long to wait
 * @param onTimeout what to do when the lock was not acquired in time
 * @param write whether this is the exclusive (write) side
 * @param fenced whether the lock fences the transaction the call runs in; only for the
 * write side
 */
public record ReadWriteOperation(Method method, String description, LockedReturnType returnType, LockPathTemplate path,
		DurationTemplate waitTime, TimeoutPolicy onTimeout, boolean write, boolean fenced) implements LockOperation {

	@Override
	public LockKind kind() {
		return this.write ? LockKind.WRITE : LockKind.READ;
	}

	@Override
	public ClusterLock lock(Locks locks, LockPath path) {
		ClusterReadWriteLock lock = locks.readWrite(path);
		return this.write ? lock.writeLock() : lock.readLock();
	}

}
