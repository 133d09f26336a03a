package io.github.distlock.test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.jspecify.annotations.Nullable;

/**
 * A store that checks fencing tokens, as a resource guarded by distlock's locks should: a
 * write carries the fencing token of the lock its writer holds, and a write whose token
 * is lower than one the store has already accepted for that key is rejected. It stands in
 * for the real resource in a test, to show that a holder that lost its lock (its session
 * expired while it was paused, say) cannot overwrite the work of the next holder.
 *
 * <pre class="code">
 * FencedStore&lt;String, Integer&gt; stock = new FencedStore&lt;&gt;();
 * long late = first.fencingToken();
 * zookeeper.expireSession(firstNode);           // the first holder loses its lock
 * stock.write("widget", 9, second.fencingToken());
 * assertThat(stock.write("widget", 10, late)).isFalse();
 * stock.assertLateWritesRejected();
 * </pre>
 *
 * @param <K> the type of the keys
 * @param <V> the type of the values
 */
public final class FencedStore<K, V> {

	private final Map<K, Long> highestTokens = new HashMap<>();

	private final Map<K, V> values = new HashMap<>();

	private final List<Write<K, V>> writes = new ArrayList<>();

	/**
	 * Write a value under a fencing token.
	 * @param key the key
	 * @param value the value
	 * @param fencingToken the token of the lock the writer holds
	 * @return whether the write was accepted: its token is not lower than the highest the
	 * key has seen
	 */
	public synchronized boolean write(K key, V value, long fencingToken) {
		Long highest = this.highestTokens.get(key);
		boolean accepted = highest == null || fencingToken >= highest;
		this.writes.add(new Write<>(key, value, fencingToken, highest, accepted, Thread.currentThread().getName()));
		if (accepted) {
			this.highestTokens.put(key, fencingToken);
			this.values.put(key, value);
		}
		return accepted;
	}

	/** The value of a key, as the last accepted write left it. */
	public synchronized Optional<V> read(K key) {
		return Optional.ofNullable(this.values.get(key));
	}

	/** Every write, in order. */
	public synchronized List<Write<K, V>> getWrites() {
		return List.copyOf(this.writes);
	}

	/** The writes that were rejected, in order. */
	public synchronized List<Write<K, V>> getRejectedWrites() {
		return this.writes.stream().filter((write) -> !write.accepted()).toList();
	}

	/**
	 * Check that at least one late write was made and that every one was rejected.
	 * @throws AssertionError listing the writes otherwise
	 */
	public synchronized void assertLateWritesRejected() {
		if (getRejectedWrites().isEmpty()) {
			StringBuilder report = new StringBuilder(
					"Expected a late write (a token lower than one already accepted) to be rejected, but none was made:");
			this.writes.forEach((write) -> report.append("\n  ").append(write));
			throw new AssertionError(report.toString());
		}
	}

	/**
	 * One write.
	 *
	 * @param key the key written
	 * @param value the value written
	 * @param fencingToken the writer's token
	 * @param highestBefore the highest token the key had seen before, if any
	 * @param accepted whether the store took it
	 * @param thread the writer's thread
	 * @param <K> the type of the key
	 * @param <V> the type of the value
	 */
	public record Write<K, V>(K key, V value, long fencingToken, @Nullable Long highestBefore, boolean accepted,
			String thread) {

		@Override
		public String toString() {
			return (this.accepted ? "accepted " : "REJECTED ") + this.key + " = " + this.value + " with token "
					+ this.fencingToken + " (highest before: " + this.highestBefore + ") from " + this.thread;
		}

	}

}
