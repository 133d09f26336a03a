package io.github.distlock.kafka;

import java.nio.charset.StandardCharsets;

import io.github.distlock.core.LockConfigurationException;
import io.github.distlock.core.LockHandle;

/**
 * The {@code transactional.id} of the producer that carries a lock holder's Kafka writes:
 * a prefix, the lock kind's subtree and the lock's path, such as
 * {@code distlock-mutex/orders/42}. Every holder of one lock, in every process, derives
 * the same id, so the next holder's {@code initTransactions()} fences the previous
 * holder's producer. Characters other than ASCII letters, digits, {@code . _ - /} are
 * written as {@code %XX} (UTF-8 bytes), so the id reads the same in the broker's logs,
 * ACLs and tools whatever the path holds.
 */
public final class KafkaTransactionalIds {

	/** Prefix unless configured otherwise. */
	public static final String DEFAULT_PREFIX = "distlock-";

	private final String prefix;

	/**
	 * Create the ids under a prefix.
	 * @param prefix the prefix, such as the application's name; letters, digits and
	 * {@code . _ -} only
	 * @throws LockConfigurationException if the prefix is empty or holds other characters
	 */
	public KafkaTransactionalIds(String prefix) {
		if (prefix.isEmpty() || !prefix.chars().allMatch(KafkaTransactionalIds::plain) || prefix.indexOf('/') >= 0) {
			throw new LockConfigurationException("distlock.kafka.transactional-id-prefix '" + prefix
					+ "' is not a prefix distlock can use: give letters, digits, '.', '_' and '-' only, such as "
					+ DEFAULT_PREFIX);
		}
		this.prefix = prefix;
	}

	/** The prefix. */
	public String prefix() {
		return this.prefix;
	}

	/**
	 * The transactional id of a lock's producer.
	 * @param handle the held lock
	 * @return the id
	 */
	public String of(LockHandle handle) {
		StringBuilder id = new StringBuilder(this.prefix).append(handle.kind().subtree()).append('/');
		for (byte b : handle.path().toString().getBytes(StandardCharsets.UTF_8)) {
			if (plain(b)) {
				id.append((char) b);
			}
			else {
				id.append('%')
					.append(Character.toUpperCase(Character.forDigit((b >> 4) & 0xF, 16)))
					.append(Character.toUpperCase(Character.forDigit(b & 0xF, 16)));
			}
		}
		return id.toString();
	}

	private static boolean plain(int c) {
		return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_'
				|| c == '-' || c == '/';
	}

}
