package io.github.distlock.curator;

import java.nio.charset.StandardCharsets;

import org.jspecify.annotations.Nullable;

/**
 * A leader's request to hand its tenure to another member of the group, written as the
 * data of the group's node ({@code /<namespace>/leader/<group>}, which a raw
 * {@code LeaderLatch} never reads) as one line of UTF-8 text:
 * {@code hand-off <leader's node> <target's node> <target's member id>}. Every distlock
 * member whose waiting latch node sorts between the two re-enters the queue behind the
 * target; empty data means no request.
 *
 * @param from the name of the leader's latch node
 * @param target the name of the target's latch node
 * @param targetId the target's member id
 */
record HandOffRequest(String from, String target, String targetId) {

	private static final String PREFIX = "hand-off ";

	/** No request: the group node's data once a hand-off is over. */
	static final byte[] NONE = new byte[0];

	/** The request as the group node's data. */
	byte[] bytes() {
		return (PREFIX + this.from + " " + this.target + " " + this.targetId).getBytes(StandardCharsets.UTF_8);
	}

	/**
	 * Whether a waiting latch node of the given name sits between the leader and the
	 * target, so must move behind the target.
	 */
	boolean movesBehind(String node) {
		if (!QueueDriver.isNode(node, QueueDriver.LATCH_NAME) || node.equals(this.target)) {
			return false;
		}
		int sequence = sequence(node);
		return sequence > sequence(this.from) && sequence < sequence(this.target);
	}

	static int sequence(String node) {
		return QueueDriver.sequence(node, QueueDriver.LATCH_NAME);
	}

	/**
	 * Read a group node's data.
	 * @return the request, or null if the data is none (or not a request)
	 */
	static @Nullable HandOffRequest parse(byte @Nullable [] data) {
		if (data == null || data.length == 0) {
			return null;
		}
		String text = new String(data, StandardCharsets.UTF_8);
		if (!text.startsWith(PREFIX)) {
			return null;
		}
		String[] parts = text.substring(PREFIX.length()).split(" ", 3);
		if (parts.length != 3 || !QueueDriver.isNode(parts[0], QueueDriver.LATCH_NAME)
				|| !QueueDriver.isNode(parts[1], QueueDriver.LATCH_NAME)) {
			return null;
		}
		return new HandOffRequest(parts[0], parts[1], parts[2]);
	}

}
