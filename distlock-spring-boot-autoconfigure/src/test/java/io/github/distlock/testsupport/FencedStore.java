package io.github.distlock.testsupport;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A store that checks fencing tokens, as docs/failure-model.md describes: it remembers
 * the highest token it has seen per key, on reads and on writes, and rejects any
 * operation carrying a lower one. Such an operation comes from a holder that lost its
 * lock without knowing it (its session expired during a pause) while a newer holder
 * already used the store.
 */
public final class FencedStore {

	private final Map<String, Entry> entries = new HashMap<>();

	private int rejected;

	/**
	 * Read the current value of a key, making its token the lowest the store accepts from
	 * now on.
	 * @return the value, 0 if the key was never written
	 * @throws StaleTokenException if a newer holder already used the key
	 */
	public synchronized long read(String key, long token) {
		Entry entry = fence(key, token);
		return entry.writes.isEmpty() ? 0 : entry.writes.get(entry.writes.size() - 1).value();
	}

	/**
	 * Write a value.
	 * @param section which critical section wrote it, to check later that none was lost
	 * @throws StaleTokenException if a newer holder already used the key
	 */
	public synchronized void write(String key, long token, long value, long section) {
		Entry entry = fence(key, token);
		entry.writes.add(new Write(token, value, section));
	}

	private Entry fence(String key, long token) {
		Entry entry = this.entries.computeIfAbsent(key, (k) -> new Entry());
		if (token < entry.highestToken) {
			this.rejected++;
			throw new StaleTokenException(
					"Stale fencing token " + token + " for '" + key + "': the store has seen " + entry.highestToken);
		}
		entry.highestToken = token;
		return entry;
	}

	/** The highest token the store has seen for a key. */
	public synchronized long highestToken(String key) {
		Entry entry = this.entries.get(key);
		return (entry != null) ? entry.highestToken : 0;
	}

	/** The writes the store accepted for a key, in order. */
	public synchronized List<Write> writes(String key) {
		Entry entry = this.entries.get(key);
		return (entry != null) ? List.copyOf(entry.writes) : List.of();
	}

	/** Number of operations rejected for a stale token. */
	public synchronized int rejected() {
		return this.rejected;
	}

	/** A write the store accepted, with the section that made it. */
	public record Write(long token, long value, long section) {
	}

	private static final class Entry {

		private long highestToken;

		private final List<Write> writes = new ArrayList<>();

	}

	/** Thrown for an operation whose token is lower than one the store has seen. */
	public static final class StaleTokenException extends RuntimeException {

		public StaleTokenException(String message) {
			super(message);
		}

	}

}
