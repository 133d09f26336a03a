package io.github.distlock.autoconfigure;

import java.time.Duration;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.context.SmartLifecycle;

import io.github.distlock.core.LockAdmin;

/**
 * Drains the locks when the application context closes, before they are closed: new
 * acquisitions are refused, and closing waits up to
 * {@code distlock.shutdown.drain-timeout} for the locks this instance holds to be
 * released.
 * <p>
 * Stopped in the phase just after the web server's graceful shutdown
 * ({@code WebServerGracefulShutdownLifecycle}, {@code DEFAULT_PHASE - 1024}): the
 * requests in flight finish first, with the locks they take, and then the work that still
 * holds locks (scheduled runs, asynchronous calls) gets the drain's wait; all of it
 * before the web server stops ({@code DEFAULT_PHASE - 2048}) and long before the beans,
 * the locks among them, are destroyed. The leader elections were left already, in the
 * first phase to stop ({@code LeadershipMembership}), so another instance leads at once.
 * In a context without graceful shutdown the same happens when the context closes.
 */
final class ShutdownDrain implements SmartLifecycle {

	/** Just after the web server's graceful shutdown, which is DEFAULT_PHASE - 1024. */
	static final int PHASE = SmartLifecycle.DEFAULT_PHASE - 1024 - 1;

	private static final Logger logger = LoggerFactory.getLogger(ShutdownDrain.class);

	private final LockAdmin admin;

	private final Duration timeout;

	private volatile boolean running;

	ShutdownDrain(LockAdmin admin, Duration timeout) {
		this.admin = admin;
		this.timeout = timeout;
	}

	@Override
	public void start() {
		this.running = true;
	}

	@Override
	public void stop() {
		if (!this.running) {
			return;
		}
		this.running = false;
		long start = System.nanoTime();
		if (this.admin.drain(this.timeout)) {
			logger.debug("Drained: no lock held ({} ms)", Duration.ofNanos(System.nanoTime() - start).toMillis());
		}
		else {
			logger.warn("Locks still held after draining for {} (distlock.shutdown.drain-timeout): they are "
					+ "released when their work ends, or lost with the session", this.timeout);
		}
	}

	@Override
	public boolean isRunning() {
		return this.running;
	}

	@Override
	public int getPhase() {
		return PHASE;
	}

}
