package io.github.distlock.test;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;

import org.jspecify.annotations.Nullable;

import io.github.distlock.core.LockEventListener;
import io.github.distlock.core.LockKind;
import io.github.distlock.core.LockPath;
import io.github.distlock.curator.CuratorLocks;

/**
 * The lock history of a test: every acquisition a node made that contended for its lock
 * (as {@link LockEventListener} reports them), with its outcome, how long it waited, its
 * fencing token and whether the lock was later lost or released.
 * <p>
 * In a test with {@link AutoConfigureDistlockZooKeeper @AutoConfigureDistlockZooKeeper}
 * it is a bean of the context, cleared before each test; elsewhere,
 * {@link #recording(CuratorLocks)} attaches one to a node's locks.
 *
 * <pre class="code">
 * LockAcquisition purchase = recorder.assertRanUnder("inventory/widget", () -&gt; inventory.purchase("widget", 1));
 * assertThat(purchase.getWaited()).isLessThan(Duration.ofSeconds(1));
 * </pre>
 */
public final class LockRecorder implements LockEventListener {

	private final List<LockAcquisition> acquisitions = new ArrayList<>();

	/**
	 * A recorder following the given locks from now on.
	 * @param locks the locks of a node
	 * @return the recorder
	 */
	public static LockRecorder recording(CuratorLocks locks) {
		LockRecorder recorder = new LockRecorder();
		locks.addEventListener(recorder);
		return recorder;
	}

	@Override
	public AcquisitionListener acquiring(LockKind kind, LockPath path) {
		LockAcquisition acquisition = new LockAcquisition(kind, path, Thread.currentThread().getName(),
				System.nanoTime());
		synchronized (this.acquisitions) {
			this.acquisitions.add(acquisition);
		}
		return acquisition;
	}

	/** Forget everything recorded so far. */
	public void clear() {
		synchronized (this.acquisitions) {
			this.acquisitions.clear();
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
	 * The fencing tokens of the acquisitions of one lock that got it, in the order they
	 * started.
	 * @param pathOrTemplate the lock's path or template
	 */
	public List<Long> getFencingTokens(String pathOrTemplate) {
		return getAcquisitions(pathOrTemplate).stream()
			.filter((acquisition) -> acquisition.getOutcome() == LockAcquisition.Outcome.ACQUIRED)
			.map(LockAcquisition::getFencingToken)
			.toList();
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
