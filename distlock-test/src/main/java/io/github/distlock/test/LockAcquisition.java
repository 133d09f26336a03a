package io.github.distlock.test;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import org.jspecify.annotations.Nullable;

import io.github.distlock.core.LockEventListener;
import io.github.distlock.core.LockKind;
import io.github.distlock.core.LockPath;

/**
 * One acquisition a {@link LockRecorder} recorded: which lock, on which node and thread,
 * how it ended, how long it waited, with which fencing token, and what became of the
 * lock.
 */
public final class LockAcquisition implements LockEventListener.AcquisitionListener {

	/** How an acquisition ended. */
	public enum Outcome {

		/** It has not ended yet: still waiting. */
		WAITING,

		/** It got the lock. */
		ACQUIRED,

		/** It did not get the lock within its wait time. */
		TIMED_OUT,

		/** Its caller abandoned it. */
		CANCELLED,

		/** It failed for another reason than the wait time. */
		FAILED

	}

	/**
	 * Numbers the grants of the whole JVM, so that acquisitions of several nodes sort.
	 */
	private static final AtomicLong grants = new AtomicLong();

	private final LockRecorder recorder;

	private final String node;

	private final LockKind kind;

	private final LockPath path;

	private final String thread;

	private final long startNanos;

	private volatile Outcome outcome = Outcome.WAITING;

	private volatile long endNanos;

	private volatile long fencingToken;

	private volatile long grant;

	private volatile @Nullable Throwable error;

	private volatile boolean lost;

	private volatile boolean released;

	LockAcquisition(LockRecorder recorder, String node, LockKind kind, LockPath path, String thread, long startNanos) {
		this.recorder = recorder;
		this.node = node;
		this.kind = kind;
		this.path = path;
		this.thread = thread;
		this.startNanos = startNanos;
	}

	@Override
	public void acquired(long fencingToken) {
		this.fencingToken = fencingToken;
		this.grant = grants.incrementAndGet();
		end(Outcome.ACQUIRED);
	}

	@Override
	public void timedOut() {
		end(Outcome.TIMED_OUT);
	}

	@Override
	public void cancelled() {
		end(Outcome.CANCELLED);
	}

	@Override
	public void failed(Throwable error) {
		this.error = error;
		end(Outcome.FAILED);
	}

	@Override
	public void lost() {
		this.lost = true;
		this.recorder.changed();
	}

	@Override
	public void released() {
		this.released = true;
		this.recorder.changed();
	}

	private void end(Outcome outcome) {
		this.endNanos = System.nanoTime();
		this.outcome = outcome;
		this.recorder.changed();
	}

	/**
	 * The order in which the acquisitions that got their lock got it, across every node
	 * of the JVM: 0 for an acquisition that did not.
	 */
	long grant() {
		return this.grant;
	}

	/** Whether this acquisition was of the given lock path or template. */
	boolean isOf(String pathOrTemplate) {
		return this.path.value().equals(pathOrTemplate) || this.path.template().equals(pathOrTemplate);
	}

	/**
	 * The name of the node that made the acquisition ({@code node-1}, ...), as
	 * {@link DistlockNode#getName()} has it.
	 */
	public String getNode() {
		return this.node;
	}

	/** The kind of lock. */
	public LockKind getKind() {
		return this.kind;
	}

	/** The lock's path (its template is {@code getPath().template()}). */
	public LockPath getPath() {
		return this.path;
	}

	/** Name of the thread that started the acquisition. */
	public String getThread() {
		return this.thread;
	}

	/** How it ended so far. */
	public Outcome getOutcome() {
		return this.outcome;
	}

	/** How long it waited: until it ended, or until now while it waits. */
	public Duration getWaited() {
		long end = (this.outcome == Outcome.WAITING) ? System.nanoTime() : this.endNanos;
		return Duration.ofNanos(end - this.startNanos);
	}

	/** The fencing token of the lock, once acquired; 0 otherwise. */
	public long getFencingToken() {
		return this.fencingToken;
	}

	/** Why it failed, for {@link Outcome#FAILED}. */
	public @Nullable Throwable getError() {
		return this.error;
	}

	/** Whether the acquired lock was lost (its session expired, or it was in doubt). */
	public boolean isLost() {
		return this.lost;
	}

	/** Whether the acquired lock was released. */
	public boolean isReleased() {
		return this.released;
	}

	@Override
	public String toString() {
		StringBuilder builder = new StringBuilder().append(this.kind)
			.append(' ')
			.append(this.path.value())
			.append(" on ")
			.append(this.node)
			.append('/')
			.append(this.thread)
			.append(": ");
		switch (this.outcome) {
			case WAITING -> builder.append("waiting for ").append(getWaited().toMillis()).append(" ms");
			case ACQUIRED -> builder.append("acquired after ")
				.append(getWaited().toMillis())
				.append(" ms, fencing token ")
				.append(this.fencingToken);
			case TIMED_OUT -> builder.append("timed out after ").append(getWaited().toMillis()).append(" ms");
			case CANCELLED -> builder.append("cancelled after ").append(getWaited().toMillis()).append(" ms");
			case FAILED -> builder.append("failed: ").append(this.error);
		}
		if (this.lost) {
			builder.append(", LOST");
		}
		if (this.released) {
			builder.append(", released");
		}
		return builder.toString();
	}

}
