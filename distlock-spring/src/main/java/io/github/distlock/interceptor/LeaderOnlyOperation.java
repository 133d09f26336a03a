package io.github.distlock.interceptor;

import java.lang.reflect.Method;
import java.time.Duration;
import java.util.function.Supplier;

import io.github.distlock.annotation.OnNotLeader;
import io.github.distlock.core.ClusterLock;
import io.github.distlock.core.Leadership;
import io.github.distlock.core.LockKind;
import io.github.distlock.core.LockPath;
import io.github.distlock.core.Locks;

/**
 * A {@link io.github.distlock.annotation.LeaderOnly @LeaderOnly}: the method runs under
 * the current tenure of its group, taken at once or not at all (the wait time is zero).
 * It runs through the same executors as the lock operations, so every return type the
 * lock annotations support works, and a tenure that ends while the method runs ends the
 * call as a lost lock does.
 *
 * @param method the annotated method as declared on the target class
 * @param description the annotation and method, for messages
 * @param returnType how long the method's work lasts, told by its return type
 * @param path the group, as a constant template
 * @param onNotLeader what a call on an instance that does not lead does
 * @param leadership the leader election, asked for on the first call
 * @param fenced whether the leader's calls fence the transaction they run in, with the
 * tenure's epoch as the token
 */
public record LeaderOnlyOperation(Method method, String description, LockedReturnType returnType, LockPathTemplate path,
		OnNotLeader onNotLeader, Supplier<Leadership> leadership, boolean fenced) implements LockOperation {

	private static final DurationTemplate AT_ONCE = new DurationTemplate.Fixed(Duration.ZERO);

	/** The group's name. */
	public String group() {
		return this.path.template();
	}

	@Override
	public LockKind kind() {
		return LockKind.LEADER;
	}

	@Override
	public DurationTemplate waitTime() {
		return AT_ONCE;
	}

	/**
	 * Not leading is the leader's "not acquired": skipped, or the
	 * {@link io.github.distlock.core.NotLeaderException} thrown.
	 */
	@Override
	public TimeoutPolicy onTimeout() {
		return (this.onNotLeader == OnNotLeader.SKIP) ? TimeoutPolicy.SKIP : TimeoutPolicy.THROW;
	}

	@Override
	public ClusterLock lock(Locks locks, LockPath path) {
		return new LeaderOnlyLock(this.leadership.get(), locks, path, this);
	}

	@Override
	public boolean supportsMultiLock() {
		return false;
	}

}
