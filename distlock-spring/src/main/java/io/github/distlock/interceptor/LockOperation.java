package io.github.distlock.interceptor;

import java.lang.reflect.Method;

import io.github.distlock.core.ClusterLock;
import io.github.distlock.core.LockKind;
import io.github.distlock.core.LockPath;
import io.github.distlock.core.Locks;

/**
 * What a lock annotation on one method asks for, parsed and validated once. Each kind of
 * lock annotation maps to one record implementing this interface.
 */
public sealed interface LockOperation
		permits MutexOperation, ReadWriteOperation, SemaphoreOperation, LeaderOnlyOperation {

	/**
	 * The annotated method as declared on the target class: its parameter names are the
	 * ones the path template sees.
	 * @return the method
	 */
	Method method();

	/**
	 * The annotation and the method, for messages, such as
	 * {@code @DistributedLock("orders/#{#id}") on OrderService.ship(long)}.
	 * @return the description
	 */
	String description();

	/**
	 * How long the method's work lasts, and so how long its lock is held: told by what
	 * the method returns, decided when the annotation was parsed.
	 * @return the shape of the method's return type
	 */
	LockedReturnType returnType();

	/**
	 * The kind of lock the annotation asks for: it decides the subtree of the lock root
	 * the lock's nodes live in.
	 * @return the kind
	 */
	LockKind kind();

	/**
	 * The parsed path template.
	 * @return the template
	 */
	LockPathTemplate path();

	/**
	 * How long to wait for the lock.
	 * @return the wait time
	 */
	DurationTemplate waitTime();

	/**
	 * What to do when the lock was not acquired in time.
	 * @return the policy
	 */
	TimeoutPolicy onTimeout();

	/**
	 * Return the lock this operation takes at the given resolved path.
	 * @param locks the lock API
	 * @param path the resolved path
	 * @return the lock
	 */
	ClusterLock lock(Locks locks, LockPath path);

	/**
	 * How long the lock stays held at least after its acquisition ({@code holdAtLeast}).
	 * @return the hold time; {@link DurationTemplate#NONE} unless the annotation asks for
	 * one
	 */
	default DurationTemplate holdAtLeast() {
		return DurationTemplate.NONE;
	}

	/**
	 * Whether a template resolving to several paths locks them all (multi-lock), or is
	 * refused.
	 * @return {@code true} unless the kind of lock guards a single path
	 */
	default boolean supportsMultiLock() {
		return true;
	}

	/**
	 * Whether the lock fences the transaction the call runs in (see
	 * {@link TransactionFencing}, and {@link ReactiveTransactionFencing} for a reactive
	 * method).
	 * @return {@code true} for a fenced {@code @DistributedLock}, {@code @WriteLock} or
	 * {@code @LeaderOnly}
	 */
	default boolean fenced() {
		return false;
	}

}
