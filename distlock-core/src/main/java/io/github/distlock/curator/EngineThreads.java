package io.github.distlock.curator;

import java.time.Duration;
import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.jspecify.annotations.Nullable;

/**
 * Where the engine's work runs, so that no thread waits on another's job: ZooKeeper's and
 * Curator's threads only decide, the {@linkplain DeadlineTimer deadline timer} only
 * decides, and everything that may block or run an application's code runs on a thread of
 * its own.
 * <ul>
 * <li><b>Completions</b> of asynchronous acquisitions (and so the code an application
 * chains to them): on the application's executor when it gave one, else on daemon threads
 * of distlock's own, created as needed ({@code distlock-async-N}): a completion that
 * blocks holds up no other. The application's executor is never called from a ZooKeeper
 * thread or the timer: its {@code execute} may block (a full queue, a caller-runs
 * policy), so it is called from one of distlock's threads.</li>
 * <li><b>Requests</b> that may wait ({@code distlock-requests}, one thread, in order):
 * Curator's background calls block their caller while the connection is away.</li>
 * <li><b>Loss reports</b> ({@code distlock-events}, one thread, in order): a listener
 * that blocks delays other loss reports, never a grant.</li>
 * <li><b>The namespace</b> ({@code distlock-namespace}): Curator makes sure of the
 * namespace node with a blocking call on the thread of the first request.</li>
 * </ul>
 * Every thread is a daemon and ends when idle; {@link #close()} ends the threads of
 * acquisitions, and lets the request and loss-report threads end once idle: holds kept
 * across close still release and lose on them.
 */
final class EngineThreads implements Threads, AutoCloseable {

	private static final long IDLE_SECONDS = 30;

	private final DeadlineTimer timer = new DeadlineTimer();

	private final @Nullable Executor applicationExecutor;

	private final CompletionThreads completions;

	private final ThreadPoolExecutor requests;

	private final ThreadPoolExecutor lossReports;

	private final ThreadPoolExecutor namespace;

	/**
	 * Create the threads of one client's engine.
	 * @param applicationExecutor where asynchronous acquisitions complete, or
	 * {@code null} for threads of distlock's own
	 */
	EngineThreads(@Nullable Executor applicationExecutor) {
		this.applicationExecutor = applicationExecutor;
		this.completions = new CompletionThreads(this.timer, daemonThreads("distlock-async-"));
		this.requests = singleThread("distlock-requests");
		this.lossReports = singleThread("distlock-events");
		this.namespace = singleThread("distlock-namespace");
	}

	private static ThreadPoolExecutor singleThread(String name) {
		ThreadPoolExecutor executor = new ThreadPoolExecutor(1, 1, IDLE_SECONDS, TimeUnit.SECONDS,
				new LinkedBlockingQueue<>(), daemonThreads(name));
		executor.allowCoreThreadTimeOut(true);
		return executor;
	}

	private static ThreadFactory daemonThreads(String name) {
		AtomicInteger count = new AtomicInteger();
		return (task) -> {
			Thread thread = new Thread(task, name.endsWith("-") ? name + count.incrementAndGet() : name);
			thread.setDaemon(true);
			return thread;
		};
	}

	/** The deadline timer. */
	@Override
	public DeadlineTimer timer() {
		return this.timer;
	}

	/**
	 * Run the completion of an asynchronous acquisition: never on the calling thread,
	 * which may be a ZooKeeper thread or the timer.
	 */
	@Override
	public void complete(Runnable completion) {
		Executor application = this.applicationExecutor;
		if (application == null) {
			runOnOwnThread(completion);
			return;
		}
		runOnOwnThread(() -> {
			try {
				application.execute(completion);
			}
			catch (RejectedExecutionException ex) {
				// The application's executor is full or shut down: a completion is never
				// dropped, since a lock granted in ZooKeeper and never delivered blocks
				// its key for every node.
				completion.run();
			}
		});
	}

	private void runOnOwnThread(Runnable task) {
		try {
			this.completions.execute(task);
		}
		catch (RejectedExecutionException ex) {
			// Closed: the engine refuses new acquisitions, and this is the end of
			// one in flight.
			task.run();
		}
	}

	/**
	 * Run engine work that may send ZooKeeper requests on the request thread, in order,
	 * so that the thread that asks (the timer, a ZooKeeper thread, a caller) never waits
	 * on Curator; also once the engine is closed (releases of holds kept across close).
	 */
	@Override
	public void request(Runnable work) {
		try {
			this.requests.execute(work);
		}
		catch (RejectedExecutionException ex) {
			work.run();
		}
	}

	/** Run engine work that may send requests on the request thread, after a pause. */
	@Override
	public void requestAfter(Duration pause, Runnable work) {
		this.timer.schedule(System.nanoTime() + pause.toNanos(), () -> request(work));
	}

	/** Report a loss to the listeners on the loss-report thread, in order. */
	@Override
	public void reportLoss(Runnable report) {
		try {
			this.lossReports.execute(report);
		}
		catch (RejectedExecutionException ex) {
			report.run();
		}
	}

	/**
	 * Make sure of the namespace on its thread.
	 * @return whether the work was accepted (not once closed)
	 */
	boolean prepareNamespace(Runnable work) {
		try {
			this.namespace.execute(work);
			return true;
		}
		catch (RejectedExecutionException ex) {
			return false;
		}
	}

	/** Whether the calling thread is the deadline timer's. */
	@Override
	public boolean isTimerThread() {
		return this.timer.isTimerThread();
	}

	/**
	 * End the threads of acquisitions: the timer at once, the others once the work they
	 * run now is done. The request and loss-report threads stay for the holds still held
	 * (their releases and losses are sent and told as before close, never from the
	 * caller's or Curator's thread): they end once idle for a second.
	 */
	@Override
	public void close() {
		this.timer.close();
		this.namespace.shutdownNow();
		this.lossReports.setKeepAliveTime(1, TimeUnit.SECONDS);
		this.requests.setKeepAliveTime(1, TimeUnit.SECONDS);
		this.completions.shutdown();
	}

	/** Number of completion threads now (for tests). */
	int completionThreads() {
		return this.completions.threads();
	}

}
