package io.github.distlock.curator;

/**
 * What distlock needs to know of the node that holds a lock.
 *
 * @param czxid the node's creating zxid, which serves as the fencing token
 * @param session the session that owns the (ephemeral) node: the lock lives as long as it
 */
record LockNode(long czxid, long session) {

	static LockNode of(org.apache.zookeeper.data.Stat stat) {
		return new LockNode(stat.getCzxid(), stat.getEphemeralOwner());
	}

}
