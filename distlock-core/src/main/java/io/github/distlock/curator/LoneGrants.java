package io.github.distlock.curator;

import org.jspecify.annotations.Nullable;

/**
 * What a mutex queue's position asks of this client's {@link LoneQueues}: whether the
 * answer of its create may prove its node the queue's only child without a read, and what
 * a read found. The rule and what it relies on: docs/failure-model.md, "A mutex cycle
 * without the queue's read".
 */
interface LoneGrants {

	/**
	 * Before our node's create in a mutex queue: what its answer may prove, or
	 * {@code null} if nothing (the queue is read then, as always).
	 * @param queuePath the queue's path
	 * @param instance Curator's handle index the create is sent with
	 * @return the proof to check against the create's answer, or {@code null}
	 */
	LoneQueue.@Nullable Proof before(String queuePath, long instance);

	/**
	 * The create of our node was answered: whether its number proves it the queue's only
	 * node. If it does, the node is the one known alone from now on.
	 * @param proof what {@link #before} returned
	 * @param nodeName the node's name
	 * @param instance Curator's handle index the create was sent and answered with
	 * @return whether the node holds without a read
	 */
	boolean proves(LoneQueue.Proof proof, String nodeName, long instance);

	/**
	 * Before the read of a mutex queue whose create was just sent: set the parent's watch
	 * if the queue takes part and has none set in this session.
	 * @param queuePath the queue's path
	 * @param instance Curator's handle index the requests are sent with
	 */
	void watchParent(String queuePath, long instance);

	/**
	 * A read found our node the queue's only child, on the given handle. It counts only
	 * if the parent's watch was set before, on that handle, and has not fired.
	 * @param queuePath the queue's path
	 * @param nodeName our node's name
	 * @param instance Curator's handle index the read was answered with
	 */
	void alone(String queuePath, String nodeName, long instance);

}
