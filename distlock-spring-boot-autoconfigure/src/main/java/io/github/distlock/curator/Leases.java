package io.github.distlock.curator;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.locks.Lease;
import org.apache.zookeeper.data.Stat;

/**
 * Reading the fencing token of a semaphore lease.
 */
final class Leases {

	private Leases() {
	}

	/**
	 * Return the lease's node.
	 * @param client the client
	 * @param semaphorePath the semaphore's path; Curator keeps lease nodes in its
	 * "leases" child
	 * @param lease the lease
	 * @return its creating zxid and owning session
	 * @throws Exception if ZooKeeper failed
	 */
	static LockNode node(CuratorFramework client, String semaphorePath, Lease lease) throws Exception {
		String leasePath = semaphorePath + "/leases/" + lease.getNodeName();
		Stat stat = client.checkExists().forPath(leasePath);
		if (stat == null) {
			throw new IllegalStateException("Lease node " + leasePath + " vanished right after it was acquired");
		}
		return LockNode.of(stat);
	}

}
