package io.github.distlock.interceptor;

import io.github.distlock.core.Handle;

/**
 * What a fenced locked call asks of the transaction layer: that the transactions the call
 * runs in commit only if no newer holder of its locks committed before them. The lock
 * wraps the call's transaction, so the fencing tokens are known before the transaction
 * begins; the implementation fences the transaction that is running when the call enters,
 * and every transaction that begins on the calling thread while the call runs. A context
 * offers a bean of this type for each store whose writes it can fence (a
 * {@code DataSource} and a transaction manager; a transactional Kafka producer factory);
 * a fenced call enters every one that is usable, and a fenced annotation is refused at
 * startup when none is.
 */
public interface TransactionFencing {

	/**
	 * Check, when a fenced annotation is parsed, that transactions can be fenced.
	 * @param description the annotation and the method, for the message
	 * @throws io.github.distlock.core.LockConfigurationException naming the method and
	 * what is missing
	 */
	void checkUsable(String description);

	/**
	 * Enter a fenced call on the calling thread, its locks held.
	 * @param description the annotation and the method, for messages
	 * @param handle the call's handle: every lock it holds fences
	 * @return the call, to close on the same thread when the method's work ended
	 */
	FencedCall enter(String description, Handle handle);

	/** A fenced call on the calling thread, from the grant of its locks to its end. */
	interface FencedCall extends AutoCloseable {

		/**
		 * Whether a transaction took the call's fence: the call ran in a transaction, or
		 * one began inside it.
		 * @return {@code false} if the method's writes were not fenced
		 */
		boolean fencedTransaction();

		/** Leave the call: transactions that begin from now on are not fenced by it. */
		@Override
		void close();

	}

}
