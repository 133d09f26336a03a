package io.github.distlock.testsupport;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.jspecify.annotations.Nullable;

/**
 * A store that checks fencing tokens, as a resource guarded by distlock's locks should:
 * an operation carries the fencing token of the lock its caller holds, the store
 * remembers the highest token it has accepted per key, and it rejects an operation whose
 * token is lower. Such an operation comes from a holder that lost its lock without
 * knowing it (its session expired while it was paused, say) after a newer holder already
 * used the store. It stands in for the real resource in a test:
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
 * {@link #write} answers whether the store took a write; {@link #writeOrThrow} and the
 * fenced {@link #read(Object, long) read} throw {@link StaleTokenException} instead, for
 * a caller that must stop there, as a database's constraint would stop it.
 *
 * @param <K> the type of the keys
 * @param <V> the type of the values
 */
public final class FencedStore<K, V> {

	private final Map<K, Long> highestTokens = new HashMap<>();

	private final Map<K, V> values = new HashMap<>();

	private final List<Write<K, V>> writes = new ArrayList<>();

	private int rejectedReads;

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

	/**
	 * Write a value under a fencing token, or fail.
	 * @param key the key
	 * @param value the value
	 * @param fencingToken the token of the lock the writer holds
	 * @throws StaleTokenException if the key has seen a higher token (the write is
	 * recorded as rejected)
	 */
	public synchronized void writeOrThrow(K key, V value, long fencingToken) {
		if (!write(key, value, fencingToken)) {
			throw stale(key, fencingToken);
		}
	}

	/** The value of a key, as the last accepted write left it. */
	public synchronized Optional<V> read(K key) {
		return Optional.ofNullable(this.values.get(key));
	}

	/**
	 * Read a key under a fencing token: the token becomes the lowest the key accepts from
	 * now on, so that a holder that read under a newer token shuts out older holders
	 * before it writes.
	 * @param key the key
	 * @param fencingToken the token of the lock the reader holds
	 * @return the value, as the last accepted write left it
	 * @throws StaleTokenException if the key has seen a higher token
	 */
	public synchronized Optional<V> read(K key, long fencingToken) {
		Long highest = this.highestTokens.get(key);
		if (highest != null && fencingToken < highest) {
			this.rejectedReads++;
			throw stale(key, fencingToken);
		}
		this.highestTokens.put(key, fencingToken);
		return read(key);
	}

	/** The highest token a key has seen, 0 if none. */
	public synchronized long highestToken(K key) {
		return this.highestTokens.getOrDefault(key, 0L);
	}

	/** Every write, in order. */
	public synchronized List<Write<K, V>> getWrites() {
		return List.copyOf(this.writes);
	}

	/** The writes of a key that the store accepted, in order. */
	public synchronized List<Write<K, V>> getAcceptedWrites(K key) {
		return this.writes.stream().filter((write) -> write.accepted() && write.key().equals(key)).toList();
	}

	/** The writes that were rejected, in order. */
	public synchronized List<Write<K, V>> getRejectedWrites() {
		return this.writes.stream().filter((write) -> !write.accepted()).toList();
	}

	/** How many operations, reads and writes, were rejected for a stale token. */
	public synchronized int getRejectedCount() {
		return getRejectedWrites().size() + this.rejectedReads;
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

	private StaleTokenException stale(K key, long fencingToken) {
		return new StaleTokenException("Stale fencing token " + fencingToken + " for '" + key + "': the store has seen "
				+ this.highestTokens.get(key));
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

	/** Thrown for an operation whose token is lower than one the store has seen. */
	public static final class StaleTokenException extends RuntimeException {

		StaleTokenException(String message) {
			super(message);
		}

	}

}
