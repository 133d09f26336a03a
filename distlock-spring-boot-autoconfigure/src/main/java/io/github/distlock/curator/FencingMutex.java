package io.github.distlock.curator;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.locks.InterProcessMutex;
import org.apache.curator.framework.recipes.locks.StandardLockInternalsDriver;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.data.Stat;

/**
 * Curator's reentrant mutex, creating its node with distlock's holder identity as data
 * and remembering each node's creating zxid, which serves as the fencing token: it is
 * assigned by the ensemble in one total order, so it strictly increases for successive
 * holders of a path, even after the parent node was reaped and re-created (when sequence
 * numbers start over).
 */
final class FencingMutex extends InterProcessMutex {

	private final HolderIdentity identity;

	private final CuratorFramework client;

	private final TokenRecordingDriver driver;

	private FencingMutex(CuratorFramework client, String path, TokenRecordingDriver driver, HolderIdentity identity) {
		super(client, path, driver);
		this.client = client;
		this.driver = driver;
		this.identity = identity;
	}

	static FencingMutex create(CuratorFramework client, String path, HolderIdentity identity) {
		return new FencingMutex(client, path, new TokenRecordingDriver(), identity);
	}

	@Override
	protected byte[] getLockNodeBytes() {
		return this.identity.currentNodeData();
	}

	/**
	 * Return the lock node of the current thread's hold, which it must have just
	 * acquired.
	 * @return the node's creating zxid and owning session
	 * @throws Exception if ZooKeeper had to be asked and failed
	 */
	LockNode currentNode() throws Exception {
		String lockPath = getLockPath();
		if (lockPath == null) {
			throw new IllegalStateException("Current thread does not hold the lock");
		}
		Created created = TokenRecordingDriver.lastCreated.get();
		TokenRecordingDriver.lastCreated.remove();
		if (created != null && created.path().equals(lockPath) && created.node().czxid() != 0) {
			return created.node();
		}
		// Created through Curator's protected-mode recovery: the stat was not filled in.
		Stat stat = this.client.checkExists().forPath(lockPath);
		if (stat == null) {
			throw new IllegalStateException("Lock node " + lockPath + " vanished right after it was acquired");
		}
		return LockNode.of(stat);
	}

	private record Created(String path, LockNode node) {
	}

	private static final class TokenRecordingDriver extends StandardLockInternalsDriver {

		// Creation and acquisition happen on the same thread, one lock node at a time;
		// one
		// thread-local for all drivers, emptied once read, so nothing is retained per
		// key.
		private static final ThreadLocal<Created> lastCreated = new ThreadLocal<>();

		@Override
		public String createsTheLock(CuratorFramework client, String path, byte[] lockNodeBytes) throws Exception {
			Stat stat = new Stat();
			String ourPath = client.create()
				.storingStatIn(stat)
				.creatingParentContainersIfNeeded()
				.withProtection()
				.withMode(CreateMode.EPHEMERAL_SEQUENTIAL)
				.forPath(path, lockNodeBytes);
			lastCreated.set(new Created(ourPath, LockNode.of(stat)));
			return ourPath;
		}

	}

}
