package io.github.distlock.testsupport;

import java.lang.reflect.Method;

import org.apache.curator.test.TestingServer;
import org.apache.zookeeper.server.DataNode;
import org.apache.zookeeper.server.ServerCnxnFactory;
import org.apache.zookeeper.server.ZooKeeperServer;

/**
 * Sets state of a running in-process ZooKeeper server that no client request can set, for
 * tests of what the server does only after a long life: the child version of a node,
 * which the server turns into the sequence number of the next sequential child (after
 * 2<sup>31</sup> child changes it wraps). It reaches the server through curator-test's
 * non-public accessors.
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
		DataNode node = zooKeeperServer(server).getZKDatabase().getNode(path);
		if (node == null) {
			throw new IllegalArgumentException("No node " + path);
		}
		synchronized (node) {
			node.stat.setCversion(childVersion);
		}
	}

	private static ZooKeeperServer zooKeeperServer(TestingServer server) throws Exception {
		Object testingServer = invoke(server, "getTestingZooKeeperServer");
		Object main = invoke(testingServer, "getMain");
		ServerCnxnFactory connections = (ServerCnxnFactory) invoke(main, "getServerCnxnFactory");
		return connections.getZooKeeperServer();
	}

	private static Object invoke(Object target, String name) throws Exception {
		for (Class<?> type = target.getClass(); type != null; type = type.getSuperclass()) {
			try {
				Method method = type.getDeclaredMethod(name);
				method.setAccessible(true);
				return method.invoke(target);
			}
			catch (NoSuchMethodException ex) {
				// Declared higher up.
			}
		}
		throw new NoSuchMethodException(target.getClass().getName() + "." + name + "()");
	}

}
