package io.github.distlock.curator;

import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * One queue position's part in {@link LoneGrants}: before its create, whether the
 * create's answer may prove the node alone (no read is sent with it then); before a read,
 * the parent's watch; after a read that found the node alone, that fact. Off (never
 * proving) for every queue but the mutex queue of an exclusive acquisition. Guarded by
 * the position's owner's monitor, as the position is.
 */
final class LoneCheck {

	/** Never proving: for every queue but the mutex queue of an exclusive acquisition. */
	static final LoneCheck OFF = new LoneCheck(null, "");

	private final @Nullable LoneGrants grants;

	private final String queuePath;

	// What the answer of the create in flight may prove, or null.
	private LoneQueue.@Nullable Proof proof;

	LoneCheck(@Nullable LoneGrants grants, String queuePath) {
		this.grants = grants;
		this.queuePath = queuePath;
	}

	/**
	 * Before a create: whether its answer may prove the node alone, so that no read is
	 * sent with it.
	 * @param parentsFirst whether the create makes the queue's parents first
	 * @param instance Curator's handle index the create is sent with
	 */
	boolean mayProve(boolean parentsFirst, long instance) {
		this.proof = (this.grants != null && !parentsFirst) ? this.grants.before(this.queuePath, instance) : null;
		return this.proof != null;
	}

	/** A read follows the create: the parent's watch is set before it. */
	void beforeRead(long instance) {
		if (this.grants != null) {
			this.grants.watchParent(this.queuePath, instance);
		}
	}

	/** Whether the create in flight was sent without its read. */
	boolean pending() {
		return this.proof != null;
	}

	/**
	 * The create was answered with the node's stat: whether its number proves it alone.
	 * The proof is used up either way.
	 */
	boolean proves(String nodeName, long instance) {
		LoneQueue.Proof proof = this.proof;
		this.proof = null;
		return proof != null && this.grants != null && this.grants.proves(proof, nodeName, instance);
	}

	/**
	 * The create was answered without the node's stat: nothing is proved.
	 * @return whether the create was sent without its read (the queue must be read)
	 */
	boolean drop() {
		boolean pending = this.proof != null;
		this.proof = null;
		return pending;
	}

	/** A read found our node holding: remembered if it is the queue's only child. */
	void found(List<String> children, String nodeName, long instance) {
		if (this.grants != null && children.size() == 1 && children.get(0).equals(nodeName)) {
			this.grants.alone(this.queuePath, nodeName, instance);
		}
	}

}
