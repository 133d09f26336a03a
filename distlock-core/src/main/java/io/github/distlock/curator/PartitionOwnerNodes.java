package io.github.distlock.curator;

import java.nio.charset.StandardCharsets;
import java.time.Duration;

import org.apache.curator.framework.api.CuratorEvent;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.data.Stat;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The owner nodes of one partitioned group, {@code owners/<index>} under the group's
 * node, as one {@link PartitionGroup} reads, watches and creates them: each read sets the
 * group's watcher (an exists when the node is absent, since a read of an absent node sets
 * none), and its answer is told as the node's owner and stat, or its absence. A create is
 * sent only when absent, with the member id as data, ephemeral; its answer, ours or
 * another's, is read again. Guarded by the group's monitor, which every call holds and
 * every answer takes.
 */
final class PartitionOwnerNodes {

	private static final Logger logger = LoggerFactory.getLogger(PartitionOwnerNodes.class);

	/** Pause before a create that ZooKeeper refused is read again. */
	private static final Duration RETRY = Duration.ofSeconds(1);

	private final Engine engine;

	private final Object lock;

	private final String group;

	private final String path;

	private final byte[] data;

	private final Watcher watcher;

	private final Answers answers;

	private final boolean[] creating;

	PartitionOwnerNodes(Engine engine, Object lock, String group, String path, int count, byte[] data, Watcher watcher,
			Answers answers) {
		this.engine = engine;
		this.lock = lock;
		this.group = group;
		this.path = path;
		this.data = data;
		this.watcher = watcher;
		this.answers = answers;
		this.creating = new boolean[count];
	}

	String path(int index) {
		return ZKPaths.makePath(this.path, Integer.toString(index));
	}

	/** The partition whose owner node a path is, or -1. */
	int indexOf(String path) {
		if (!path.startsWith(this.path + "/")) {
			return -1;
		}
		try {
			int index = Integer.parseInt(path.substring(this.path.length() + 1));
			return (index >= 0 && index < this.creating.length) ? index : -1;
		}
		catch (NumberFormatException ex) {
			return -1;
		}
	}

	boolean isCreating(int index) {
		return this.creating[index];
	}

	void readAll() {
		for (int index = 0; index < this.creating.length; index++) {
			read(index);
		}
	}

	/** Read the owner node, and watch it. */
	void read(int index) {
		Requests requests = this.engine.requests();
		requests.trySend(() -> requests.data(path(index), this.watcher, (event) -> read(index, event)), (ex) -> logger
			.debug("Could not read the owner of partition {} of group '{}': {}", index, this.group, ex.toString()));
	}

	private void read(int index, CuratorEvent event) {
		synchronized (this.lock) {
			KeeperException.Code code = KeeperException.Code.get(event.getResultCode());
			if (code == KeeperException.Code.NONODE) {
				Requests requests = this.engine.requests();
				requests.trySend(() -> requests.stat(path(index), this.watcher, (exists) -> absent(index, exists)),
						(ex) -> {
						});
			}
			else if (code == KeeperException.Code.OK) {
				byte[] data = (event.getData() != null) ? event.getData() : new byte[0];
				this.answers.present(index, new String(data, StandardCharsets.UTF_8), event.getStat());
			}
			// Otherwise read again when the connection returns.
		}
	}

	private void absent(int index, CuratorEvent event) {
		synchronized (this.lock) {
			KeeperException.Code code = KeeperException.Code.get(event.getResultCode());
			if (code == KeeperException.Code.OK) {
				// Made between the read and this exists.
				read(index);
			}
			else if (code == KeeperException.Code.NONODE) {
				this.answers.absent(index);
			}
		}
	}

	/** Create the owner node, ours. */
	void create(int index) {
		this.creating[index] = true;
		Requests requests = this.engine.requests();
		requests.trySend(() -> requests.createExact(path(index), this.data, CreateMode.EPHEMERAL,
				(event) -> created(index, event)), (ex) -> this.creating[index] = false);
	}

	private void created(int index, CuratorEvent event) {
		synchronized (this.lock) {
			this.creating[index] = false;
			KeeperException.Code code = KeeperException.Code.get(event.getResultCode());
			switch (code) {
				// Ours or another's: the read says which, and sets the watch.
				case OK, NODEEXISTS -> read(index);
				case NONODE -> {
					// The owners' parent was reaped, or never made: make it, then again.
					Requests requests = this.engine.requests();
					requests.trySend(
							() -> requests.createParents(this.path, (refused) -> logger
								.warn("Cannot create the owners of group '{}': {}", this.group, refused.toString())),
							(ex) -> {
							});
					create(index);
				}
				default -> {
					if (!Requests.isConnectionProblem(code)) {
						logger.warn("Could not create the owner node of partition {} of group '{}': {}; "
								+ "reading again in {}", index, this.group, code, RETRY);
						this.engine.threads().requestAfter(RETRY, () -> {
							synchronized (this.lock) {
								read(index);
							}
						});
					}
					// Otherwise read again when the connection returns.
				}
			}
		}
	}

	/** Stop watching the owner nodes. */
	void unwatch() {
		for (int index = 0; index < this.creating.length; index++) {
			this.engine.requests().removeWatch(this.watcher, path(index), Watcher.WatcherType.Any);
		}
	}

	/** What the group is told of the reads. */
	interface Answers {

		/** The owner node exists, its data is the given owner's member id. */
		void present(int index, String owner, Stat stat);

		/** The owner node does not exist. */
		void absent(int index);

	}

}
