package io.github.distlock.curator;

import java.time.Instant;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.github.distlock.core.LockEventListener;
import io.github.distlock.core.LockKind;
import io.github.distlock.core.LockPath;
import io.github.distlock.core.WaitingLock;

/**
 * One acquisition that contends for its lock: listed as waiting while it waits, and
 * reporting its outcome and, once held, its end to the {@link LockEventListener}s.
 */
final class Acquisition {

	private static final Logger logger = LoggerFactory.getLogger(Acquisition.class);

	private final LockKind kind;

	private final LockPath path;

	private final String thread;

	private final Instant since;

	private final LockEventListener.Attempt events;

	Acquisition(LockKind kind, LockPath path, LockEventListener.Attempt events) {
		this.kind = kind;
		this.path = path;
		this.thread = Thread.currentThread().getName();
		this.since = Instant.now();
		this.events = events;
	}

	WaitingLock snapshot() {
		return new WaitingLock(this.kind, this.path, this.thread, this.since);
	}

	void acquired(long fencingToken) {
		try {
			this.events.acquired(fencingToken);
		}
		catch (RuntimeException ex) {
			failedListener(ex);
		}
	}

	void timedOut() {
		try {
			this.events.timedOut();
		}
		catch (RuntimeException ex) {
			failedListener(ex);
		}
	}

	void failed(Throwable error) {
		try {
			this.events.failed(error);
		}
		catch (RuntimeException ex) {
			failedListener(ex);
		}
	}

	void lost() {
		try {
			this.events.lost();
		}
		catch (RuntimeException ex) {
			failedListener(ex);
		}
	}

	void released() {
		try {
			this.events.released();
		}
		catch (RuntimeException ex) {
			failedListener(ex);
		}
	}

	private void failedListener(RuntimeException ex) {
		logger.warn("Lock event listener failed for {} '{}'", this.kind, this.path, ex);
	}

}
