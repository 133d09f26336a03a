package io.github.distlock.curator;

/**
 * The node that holds a lock for us.
 *
 * @param path its full path, relative to the client's namespace
 * @param czxid its creating zxid, which serves as the fencing token
 * @param session the session that owns the (ephemeral) node: the lock lives as long as it
 * @param clientInstance Curator's instance index of the ZooKeeper handle of that session:
 * when Curator replaces the handle, the session is gone, and so is the lock
 */
record LockNode(String path, long czxid, long session, long clientInstance) {

	/** The sequence number of the node's name, as it sorts in its queue. */
	String sequence() {
		int end = this.path.length();
		int start = end;
		while (start > 0 && Character.isDigit(this.path.charAt(start - 1))) {
			start--;
		}
		return this.path.substring(start, end);
	}

}
