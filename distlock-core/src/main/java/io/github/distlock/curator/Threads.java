package io.github.distlock.curator;

import java.time.Duration;

/**
 * Where the engine's parts run their work: completions, requests that may wait, loss
 * reports, and the deadline timer. Implemented by {@link EngineThreads}.
 */
interface Threads {

	/** The timer of deadlines and delayed work. */
	Timer timer();

	/** Complete a future of the application, off ZooKeeper's and the timer's threads. */
	void complete(Runnable completion);

	/** Run work that may wait (a request sent while disconnected). */
	void request(Runnable work);

	/** Run work that may wait, after a pause. */
	void requestAfter(Duration pause, Runnable work);

	/** Tell the loss listeners of a loss, in order. */
	void reportLoss(Runnable report);

	/** Whether the calling thread is the timer's. */
	boolean isTimerThread();

}
