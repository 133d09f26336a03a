package io.github.distlock.history;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingCluster;
import org.apache.curator.test.TestingServer;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.client.FourLetterWordMain;
import org.jspecify.annotations.Nullable;

import io.github.distlock.testsupport.Faults;
import io.github.distlock.testsupport.ServerState;
import io.github.distlock.testsupport.ServerWatches;

/**
 * The ZooKeeper servers of a checker run: one {@link TestingServer} or a
 * {@link TestingCluster} of three, all with short sessions, whose servers the faults stop
 * and start again.
 */
final class Ensemble implements AutoCloseable {

	@Nullable private final TestingServer server;

	@Nullable private final TestingCluster cluster;

	private final List<InstanceSpec> specs = new ArrayList<>();

	private final List<Boolean> running = new ArrayList<>();

	private final Map<String, Integer> childVersions = new LinkedHashMap<>();

	private Ensemble(@Nullable TestingServer server, @Nullable TestingCluster cluster) {
		this.server = server;
		this.cluster = cluster;
	}

	/** Start one server or an ensemble of three. */
	static Ensemble start(int servers) throws Exception {
		ServerWatches.enable();
		if (servers == 1) {
			InstanceSpec spec = Faults.shortSessionSpec(-1);
			Ensemble ensemble = new Ensemble(new TestingServer(spec, true), null);
			ensemble.specs.add(spec);
			ensemble.running.add(true);
			return ensemble;
		}
		List<InstanceSpec> specs = new ArrayList<>();
		for (int id = 1; id <= servers; id++) {
			specs.add(Faults.shortSessionSpec(id));
		}
		TestingCluster cluster = new TestingCluster(specs);
		cluster.start();
		Ensemble ensemble = new Ensemble(null, cluster);
		ensemble.specs.addAll(cluster.getInstances());
		cluster.getInstances().forEach((spec) -> ensemble.running.add(true));
		return ensemble;
	}

	int size() {
		return this.specs.size();
	}

	String connectString() {
		return (this.server != null) ? this.server.getConnectString() : this.cluster.getConnectString();
	}

	/** The client port of a server, by index. */
	int port(int index) {
		return this.specs.get(index).getPort();
	}

	synchronized boolean isRunning(int index) {
		return this.running.get(index);
	}

	synchronized void stop(int index) throws Exception {
		if (!this.running.get(index)) {
			return;
		}
		if (this.server != null) {
			this.server.stop();
		}
		else {
			this.cluster.killServer(this.specs.get(index));
		}
		this.running.set(index, false);
	}

	synchronized void restart(int index) throws Exception {
		if (this.running.get(index)) {
			return;
		}
		if (this.server != null) {
			this.server.restart();
			for (Map.Entry<String, Integer> kept : this.childVersions.entrySet()) {
				ServerState.setChildVersion(this.server, kept.getKey(), kept.getValue());
			}
		}
		else {
			this.cluster.restartServer(this.specs.get(index));
		}
		this.running.set(index, true);
	}

	/** Start every stopped server. */
	synchronized void restartAll() throws Exception {
		for (int i = 0; i < size(); i++) {
			restart(i);
		}
	}

	/** The index of the server a client talks to, -1 if unknown. */
	int serverOf(ZooKeeper zooKeeper) {
		if (this.server != null) {
			return 0;
		}
		try {
			InstanceSpec spec = this.cluster.findConnectionInstance(zooKeeper);
			return this.specs.indexOf(spec);
		}
		catch (Exception ex) {
			return -1;
		}
	}

	/** The index of the leader, -1 if no running server says it leads. */
	synchronized int leader() {
		for (int i = 0; i < size(); i++) {
			if (this.running.get(i)) {
				try {
					String report = FourLetterWordMain.send4LetterWord("localhost", port(i), "srvr");
					if (report.contains("Mode: leader") || report.contains("Mode: standalone")) {
						return i;
					}
				}
				catch (Exception ex) {
					// not answering: not the leader
				}
			}
		}
		return -1;
	}

	/**
	 * Set the child version of a node on the server (one server only), so that its next
	 * sequential child gets that number, and set it again after every restart: the
	 * server's log does not keep it.
	 * @param path the node's full path (namespace included)
	 * @param childVersion the new child version
	 */
	synchronized void keepChildVersion(String path, int childVersion) throws Exception {
		if (this.server == null) {
			throw new IllegalStateException("Child versions are set on a single server only");
		}
		this.childVersions.put(path, childVersion);
		ServerState.setChildVersion(this.server, path, childVersion);
	}

	@Override
	public void close() throws Exception {
		if (this.server != null) {
			this.server.close();
		}
		else {
			this.cluster.close();
		}
	}

}
