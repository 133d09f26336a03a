package io.github.distlock.testsupport;

import org.apache.curator.test.TestingServer;
import org.apache.zookeeper.server.DataNode;

/**
 * Sets state of a running in-process ZooKeeper server that no client request can set, for
 * tests of what the server does only after a long life: the child version of a node,
 * which the server turns into the sequence number of the next sequential child (after
 * 2<sup>31</sup> child changes it wraps). It reaches the server through curator-test's
 * non-public fields.
 */
public final class ServerState {

	private ServerState() {
	}

	/**
	 * Set the child version of a node, so that its next sequential child gets that
	 * number.
	 * @param server the running server
	 * @param path the node's full path (namespace included)
	 * @param childVersion the new child version
	 */
	public static void setChildVersion(TestingServer server, String path, int childVersion) throws Exception {
		DataNode node = ZooKeeperEnsemble.zooKeeperServer(server).getZKDatabase().getNode(path);
		if (node == null) {
			throw new IllegalArgumentException("No node " + path);
		}
		synchronized (node) {
			node.stat.setCversion(childVersion);
		}
	}

}
