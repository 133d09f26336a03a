package io.github.distlock.curator;

import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;
import org.jspecify.annotations.Nullable;

/**
 * What a {@link QueuePosition} knows of its node now: its path and name once created, its
 * creating zxid (the fencing token) and session once its stat is known, and Curator's
 * handle index when its create was sent and when it was answered: the node belongs to
 * that handle's session only if both are the same. A value, guarded by the position's
 * monitor.
 */
final class PositionNode {

	private @Nullable String path;

	private @Nullable String name;

	// Known only with the node's stat (state QUEUED and later).
	private long czxid;

	private long session;

	private long instanceAtSend;

	private long clientInstance;

	// How many creates in a row found a parent missing.
	private int parentsMissing;

	// The last create's answer was lost with the connection: its node may exist (Curator
	// deletes what a failed protected create left), in the session of its send.
	private boolean answerLost;

	// A read answered before the create did: read again once the node is known.
	private boolean earlyRead;

	/** A create is sent through the given handle: nothing is known of its node yet. */
	void sent(long instance) {
		this.answerLost = false;
		this.earlyRead = false;
		this.path = null;
		this.name = null;
		this.czxid = 0;
		this.session = 0;
		this.instanceAtSend = instance;
	}

	/** A create found a parent missing: whether the one before did too. */
	boolean parentsMissingAgain() {
		return this.parentsMissing++ > 0;
	}

	/** Whether the last create found a parent missing. */
	boolean parentsMissing() {
		return this.parentsMissing > 0;
	}

	/** A create was answered with the parents there. */
	void answered(KeeperException.Code code) {
		this.parentsMissing = 0;
		this.answerLost = Requests.isConnectionProblem(code);
	}

	/** Whether the last create's answer was lost with the connection. */
	boolean answerLost() {
		return this.answerLost;
	}

	/** A read was answered before the create (if {@code early}): read again then. */
	void readEarly(boolean early) {
		this.earlyRead |= early;
	}

	/** Whether a read was answered before the create. */
	boolean wasReadEarly() {
		return this.earlyRead;
	}

	/** The create was answered through the given handle. */
	void created(String path, long instance) {
		this.path = path;
		this.name = ZKPaths.getNodeFromPath(path);
		this.clientInstance = instance;
	}

	/** The node's stat is known. */
	void known(Stat stat) {
		this.czxid = stat.getCzxid();
		this.session = stat.getEphemeralOwner();
	}

	/** The node's full path, once created. */
	@Nullable String path() {
		return this.path;
	}

	/** The node's name in its queue, once created. */
	@Nullable String name() {
		return this.name;
	}

	long czxid() {
		return this.czxid;
	}

	long session() {
		return this.session;
	}

	/** Whether the node's stat is known. */
	boolean isKnown() {
		return this.czxid != 0;
	}

	/** Whether the create was answered through the handle it was sent with. */
	boolean isOfSend() {
		return this.instanceAtSend == this.clientInstance;
	}

	/** Whether the node was made, through another handle than the given one. */
	boolean isOfOtherHandle(long instance) {
		return this.path != null && this.clientInstance != instance;
	}

	/** Whether the node was made through the given handle (so in its session). */
	boolean isOf(long instance) {
		return this.clientInstance == instance;
	}

	long clientInstance() {
		return this.clientInstance;
	}

	/** The node as granted. */
	LockNode lockNode() {
		return new LockNode(this.path, this.czxid, this.session, this.clientInstance);
	}

	/** Forget the path: the node is given up. */
	void forget() {
		this.path = null;
	}

}
