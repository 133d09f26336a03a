package io.github.distlock.curator;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.github.distlock.core.LockEventListener;
import io.github.distlock.core.LockKind;
import io.github.distlock.core.LockPath;

/**
 * What the {@link LockEventListener}s follow of one acquisition: its outcome and, once
 * held, its loss and release. A listener that fails is logged, never allowed to break the
 * lock. Called on the thread that receives each event, never on a ZooKeeper thread.
 */
final class Events implements AcquisitionEvents {

	private static final Logger logger = LoggerFactory.getLogger(Events.class);

	private final LockKind kind;

	private final LockPath path;

	private final LockEventListener.AcquisitionListener[] acquisitions;

	private Events(LockKind kind, LockPath path, LockEventListener.AcquisitionListener[] acquisitions) {
		this.kind = kind;
		this.path = path;
		this.acquisitions = acquisitions;
	}

	/** Tell the listeners (at least one) that an acquisition starts. */
	static Events start(LockEventListener[] listeners, LockKind kind, LockPath path) {
		LockEventListener.AcquisitionListener[] acquisitions = new LockEventListener.AcquisitionListener[listeners.length];
		for (int i = 0; i < listeners.length; i++) {
			try {
				acquisitions[i] = listeners[i].acquiring(kind, path);
			}
			catch (RuntimeException ex) {
				logger.warn("Lock event listener failed for {} '{}'", kind, path, ex);
				acquisitions[i] = LockEventListener.AcquisitionListener.NONE;
			}
		}
		return new Events(kind, path, acquisitions);
	}

	@Override
	public void acquired(long fencingToken) {
		for (LockEventListener.AcquisitionListener acquisition : this.acquisitions) {
			try {
				acquisition.acquired(fencingToken);
			}
			catch (RuntimeException ex) {
				failedListener(ex);
			}
		}
	}

	@Override
	public void timedOut() {
		for (LockEventListener.AcquisitionListener acquisition : this.acquisitions) {
			try {
				acquisition.timedOut();
			}
			catch (RuntimeException ex) {
				failedListener(ex);
			}
		}
	}

	@Override
	public void cancelled() {
		for (LockEventListener.AcquisitionListener acquisition : this.acquisitions) {
			try {
				acquisition.cancelled();
			}
			catch (RuntimeException ex) {
				failedListener(ex);
			}
		}
	}

	@Override
	public void failed(Throwable error) {
		for (LockEventListener.AcquisitionListener acquisition : this.acquisitions) {
			try {
				acquisition.failed(error);
			}
			catch (RuntimeException ex) {
				failedListener(ex);
			}
		}
	}

	@Override
	public void lost() {
		for (LockEventListener.AcquisitionListener acquisition : this.acquisitions) {
			try {
				acquisition.lost();
			}
			catch (RuntimeException ex) {
				failedListener(ex);
			}
		}
	}

	@Override
	public void released() {
		for (LockEventListener.AcquisitionListener acquisition : this.acquisitions) {
			try {
				acquisition.released();
			}
			catch (RuntimeException ex) {
				failedListener(ex);
			}
		}
	}

	private void failedListener(RuntimeException ex) {
		logger.warn("Lock event listener failed for {} '{}'", this.kind, this.path, ex);
	}

}
