package io.github.distlock.test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;

import org.jspecify.annotations.Nullable;

import io.github.distlock.core.LockEventListener;
import io.github.distlock.core.LockKind;
import io.github.distlock.core.LockPath;
import io.github.distlock.core.Locks;

/**
 * The lock history of a test: every acquisition a node made that contended for its lock
 * (as {@link LockEventListener} reports them), with its outcome, how long it waited, its
 * fencing token and whether the lock was later lost or released.
 * <p>
 * Every node of the kit has one: in a test with
 * {@link AutoConfigureDistlockZooKeeper @AutoConfigureDistlockZooKeeper} it is a bean of
 * the test's context, cleared before each test; each node that
 * {@link TestZooKeeper#startNodes} starts has one as a bean too
 * ({@code node.getBean(LockRecorder.class)} or {@link DistlockNode#getRecorder()}), and
 * {@link DistlockNodes#getRecorder()} merges those of the nodes started together. A
 * {@link TestZooKeeper#newNode() bare node} has one of its own. Elsewhere,
 * {@link #recording(Locks)} attaches one to the {@link Locks} of a node.
 * <p>
 * Waiting on it is event-driven: {@link #awaitWaiting(String)} returns as soon as an
 * acquisition of the lock waits.
 *
 * <pre class="code">
 * LockAcquisition purchase = recorder.assertRanUnder("inventory/widget", () -&gt; inventory.purchase("widget", 1));
 * assertThat(purchase.getWaited()).isLessThan(Duration.ofSeconds(1));
 * </pre>
 */
public final class LockRecorder implements LockEventListener {

	/** How long the awaits wait unless told otherwise. */
	public static final Duration DEFAULT_AWAIT_TIMEOUT = Duration.ofSeconds(30);

	private final String node;

	private final List<LockAcquisition> acquisitions = new ArrayList<>();

	/** The merged view this recorder feeds too, or null. */
	private final @Nullable LockRecorder merged;

	/** For a merged view: the recorders it merges. */
	private final List<LockRecorder> sources = new ArrayList<>();

	/** A recorder of acquisitions of a node without a name. */
	public LockRecorder() {
		this("node", null);
	}

	LockRecorder(String node, @Nullable LockRecorder merged) {
		this.node = node;
		this.merged = merged;
		if (merged != null) {
			synchronized (merged.acquisitions) {
				merged.sources.add(this);
			}
		}
	}

	/** A merged view of the recorders of several nodes, fed by them. */
	static LockRecorder merged(String name) {
		return new LockRecorder(name, null);
	}

	/**
	 * A recorder following the given locks from now on.
	 * @param locks the locks of a node
	 * @return the recorder
	 */
	public static LockRecorder recording(Locks locks) {
		LockRecorder recorder = new LockRecorder();
		locks.addEventListener(recorder);
		return recorder;
	}

	@Override
	public AcquisitionListener acquiring(LockKind kind, LockPath path) {
		LockAcquisition acquisition = new LockAcquisition(this, this.node, kind, path, Thread.currentThread().getName(),
				System.nanoTime());
		add(acquisition);
		return acquisition;
	}

	private void add(LockAcquisition acquisition) {
		synchronized (this.acquisitions) {
			this.acquisitions.add(acquisition);
			this.acquisitions.notifyAll();
		}
		if (this.merged != null) {
			this.merged.add(acquisition);
		}
	}

	/** An acquisition of this recorder ended, or its lock was lost or released. */
	void changed() {
		synchronized (this.acquisitions) {
			this.acquisitions.notifyAll();
		}
		if (this.merged != null) {
			this.merged.changed();
		}
	}

	/**
	 * Forget everything recorded so far (for a merged view: in the recorders it merges
	 * too).
	 */
	public void clear() {
		List<LockRecorder> merging;
		synchronized (this.acquisitions) {
			this.acquisitions.clear();
			merging = List.copyOf(this.sources);
		}
		merging.forEach(LockRecorder::clear);
	}

	/**
	 * Wait until an acquisition of the given lock is waiting for it: it started and has
	 * neither got the lock nor given up. Event-driven: returns as soon as the acquisition
	 * starts. Use it to act while a call waits for a lock that another call holds (held,
	 * for example, inside a {@link CallGate}).
	 * @param pathOrTemplate the lock's path or template
	 * @return the waiting acquisition
	 * @throws AssertionError if none waits within {@link #DEFAULT_AWAIT_TIMEOUT}
	 */
	public LockAcquisition awaitWaiting(String pathOrTemplate) {
		return awaitWaiting(pathOrTemplate, DEFAULT_AWAIT_TIMEOUT);
	}

	/**
	 * Wait until an acquisition of the given lock is waiting for it.
	 * @param pathOrTemplate the lock's path or template
	 * @param timeout how long to wait at most
	 * @return the waiting acquisition
	 * @throws AssertionError if none waits within the timeout
	 */
	public LockAcquisition awaitWaiting(String pathOrTemplate, Duration timeout) {
		return await(pathOrTemplate, LockAcquisition.Outcome.WAITING, "waiting", timeout);
	}

	/**
	 * Wait until an acquisition of the given lock has got it (even if it has released it
	 * since).
	 * @param pathOrTemplate the lock's path or template
	 * @return the first acquisition that got it
	 * @throws AssertionError if none gets it within {@link #DEFAULT_AWAIT_TIMEOUT}
	 */
	public LockAcquisition awaitAcquired(String pathOrTemplate) {
		return await(pathOrTemplate, LockAcquisition.Outcome.ACQUIRED, "acquired", DEFAULT_AWAIT_TIMEOUT);
	}

	private LockAcquisition await(String pathOrTemplate, LockAcquisition.Outcome outcome, String description,
			Duration timeout) {
		long deadline = System.nanoTime() + timeout.toNanos();
		synchronized (this.acquisitions) {
			while (true) {
				for (LockAcquisition acquisition : this.acquisitions) {
					if (acquisition.isOf(pathOrTemplate) && acquisition.getOutcome() == outcome) {
						return acquisition;
					}
				}
				long left = deadline - System.nanoTime();
				if (left <= 0) {
					throw new AssertionError("No acquisition of '" + pathOrTemplate + "' " + description + " within "
							+ timeout + "; recorded: "
							+ (this.acquisitions.isEmpty() ? "none" : describe(List.copyOf(this.acquisitions))));
				}
				try {
					this.acquisitions.wait(Math.max(1, left / 1_000_000));
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
					throw new IllegalStateException("Interrupted waiting for an acquisition of " + pathOrTemplate, ex);
				}
			}
		}
	}

	/** Every acquisition recorded, in the order they started. */
	public List<LockAcquisition> getAcquisitions() {
		synchronized (this.acquisitions) {
			return List.copyOf(this.acquisitions);
		}
	}

	/**
	 * The acquisitions of one lock, in the order they started.
	 * @param pathOrTemplate the lock's resolved path ({@code inventory/widget}) or its
	 * template ({@code inventory/#{#sku}})
	 */
	public List<LockAcquisition> getAcquisitions(String pathOrTemplate) {
		return getAcquisitions().stream().filter((acquisition) -> acquisition.isOf(pathOrTemplate)).toList();
	}

	/**
	 * The acquisitions of one lock that got it, in the order they got it (across the
	 * nodes of a merged view too).
	 * @param pathOrTemplate the lock's path or template
	 */
	public List<LockAcquisition> getGranted(String pathOrTemplate) {
		return getAcquisitions(pathOrTemplate).stream()
			.filter((acquisition) -> acquisition.getOutcome() == LockAcquisition.Outcome.ACQUIRED)
			.sorted(Comparator.comparingLong(LockAcquisition::grant))
			.toList();
	}

	/**
	 * The fencing tokens of the acquisitions of one lock that got it, in the order they
	 * got it.
	 * @param pathOrTemplate the lock's path or template
	 */
	public List<Long> getFencingTokens(String pathOrTemplate) {
		return getGranted(pathOrTemplate).stream().map(LockAcquisition::getFencingToken).toList();
	}

	/**
	 * Run a call on this thread and check that it took the given lock: an acquisition of
	 * it started on this thread during the call and got the lock. A locked method's body
	 * runs only once its lock is acquired, so this tells that the method ran while
	 * holding it.
	 * @param pathOrTemplate the lock's path or template
	 * @param call the call, such as {@code () -> service.ship(order)}
	 * @return the acquisition, for its wait time and fencing token
	 * @throws AssertionError with the call's lock history if it did not
	 */
	public LockAcquisition assertRanUnder(String pathOrTemplate, ThrowingRunnable call) {
		return callUnder(pathOrTemplate, () -> {
			call.run();
			return null;
		}).acquisition();
	}

	/**
	 * As {@link #assertRanUnder(String, ThrowingRunnable)}, for a call that returns a
	 * value.
	 * @return the call's value, and the acquisition
	 */
	public <T> Locked<T> callUnder(String pathOrTemplate, Callable<T> call) {
		int start;
		synchronized (this.acquisitions) {
			start = this.acquisitions.size();
		}
		String thread = Thread.currentThread().getName();
		T value;
		try {
			value = call.call();
		}
		catch (RuntimeException | Error ex) {
			throw ex;
		}
		catch (Exception ex) {
			throw new IllegalStateException(ex);
		}
		List<LockAcquisition> during;
		synchronized (this.acquisitions) {
			during = List.copyOf(this.acquisitions.subList(start, this.acquisitions.size()));
		}
		Optional<LockAcquisition> match = during.stream()
			.filter((acquisition) -> acquisition.isOf(pathOrTemplate) && acquisition.getThread().equals(thread)
					&& acquisition.getOutcome() == LockAcquisition.Outcome.ACQUIRED)
			.findFirst();
		if (match.isEmpty()) {
			throw new AssertionError("Expected the call to run under lock '" + pathOrTemplate + "' on thread " + thread
					+ ", but it " + (during.isEmpty() ? "took no lock" : "took only:" + describe(during)));
		}
		return new Locked<>(value, match.get());
	}

	/**
	 * The history, one acquisition a line.
	 */
	@Override
	public String toString() {
		List<LockAcquisition> all = getAcquisitions();
		return all.isEmpty() ? "no lock acquisitions" : describe(all).substring(1);
	}

	private static String describe(List<LockAcquisition> acquisitions) {
		StringBuilder builder = new StringBuilder();
		for (LockAcquisition acquisition : acquisitions) {
			builder.append("\n  ").append(acquisition);
		}
		return builder.toString();
	}

	/** A call that may throw. */
	@FunctionalInterface
	public interface ThrowingRunnable {

		/** Run it. */
		void run() throws Exception;

	}

	/**
	 * What a call returned and the acquisition of the lock it ran under.
	 *
	 * @param value the call's value
	 * @param acquisition the acquisition
	 * @param <T> the type of the value
	 */
	public record Locked<T>(@Nullable T value, LockAcquisition acquisition) {
	}

}
