package io.github.distlock.benchmarks;

import org.apache.curator.test.TestingServer;

/**
 * The ZooKeeper of the {@link Soak}, in a process of its own so that the soak's heap
 * figures are the client's alone. Container nodes are checked every 100 ms and reaped
 * without the default cap of 10 000 a minute; the transaction log is not fsynced. Prints
 * the connect string, then runs until its standard input closes.
 */
public final class SoakServer {

	/** Line prefix announcing the connect string. */
	static final String CONNECT_PREFIX = "CONNECT ";

	private SoakServer() {
	}

	public static void main(String[] args) throws Exception {
		System.setProperty("znode.container.checkIntervalMs", "100");
		System.setProperty("znode.container.maxPerMinute", String.valueOf(Integer.MAX_VALUE));
		System.setProperty("zookeeper.forceSync", "no");
		System.setProperty("zookeeper.admin.enableServer", "false");
		System.setProperty("zookeeper.4lw.commands.whitelist", "mntr,srvr");
		try (TestingServer server = new TestingServer(true)) {
			System.out.println(CONNECT_PREFIX + server.getConnectString());
			System.out.flush();
			while (System.in.read() != -1) {
				// run until the soak ends (or dies) and our standard input closes
			}
		}
	}

}
