package io.github.distlock.curator;

import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.imps.CuratorFrameworkState;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.github.distlock.core.LockAcquisitionException;
import io.github.distlock.core.LockKind;
import io.github.distlock.core.LockPath;

/**
 * The {@linkplain JobRecord records} of scheduled jobs in ZooKeeper, the persistent nodes
 * {@code /jobs/<name>} under the client's namespace: read with their version, and written
 * only if the node still has the version read, so that of two writers of the same version
 * one wins and the other reads again. Blocking calls.
 */
final class JobRecords {

	private static final Logger logger = LoggerFactory.getLogger(JobRecords.class);

	private static final String JOBS = "jobs";

	private static final String ROOT = "/" + JOBS;

	private final CuratorFramework client;

	JobRecords(CuratorFramework client) {
		this.client = client;
	}

	/**
	 * Read the record of a job.
	 * @return the record and its version; {@link JobRecord#EMPTY} and {@code -1} if there
	 * is no node
	 */
	Versioned read(String job) {
		String path = path(job);
		Stat stat = new Stat();
		byte[] data;
		try {
			data = this.client.getData().storingStatIn(stat).forPath(path);
		}
		catch (KeeperException.NoNodeException ex) {
			return new Versioned(JobRecord.EMPTY, -1);
		}
		catch (Exception ex) {
			throw failure("Reading the record of scheduled job '" + job + "' failed", ex);
		}
		try {
			return new Versioned(JobRecord.parse(job, data), stat.getVersion());
		}
		catch (RuntimeException ex) {
			throw new LockAcquisitionException(
					"The node " + path + " is not the record of scheduled job '" + job + "' (" + ex.getMessage() + ")",
					ex);
		}
	}

	/**
	 * Write the record if its node still has the version read.
	 * @param version the version read, {@code -1} if there was no node
	 * @return whether it was written; {@code false} if another write came first
	 */
	boolean write(String job, int version, JobRecord record) {
		String path = path(job);
		try {
			if (version < 0) {
				this.client.create()
					.creatingParentContainersIfNeeded()
					.withMode(CreateMode.PERSISTENT)
					.forPath(path, record.toBytes());
			}
			else {
				this.client.setData().withVersion(version).forPath(path, record.toBytes());
			}
			return true;
		}
		catch (KeeperException.BadVersionException | KeeperException.NodeExistsException
				| KeeperException.NoNodeException ex) {
			return false;
		}
		catch (Exception ex) {
			throw failure("Writing the record of scheduled job '" + job + "' failed", ex);
		}
	}

	/**
	 * Write the record of a newly registered job if the job has no record yet and the
	 * client is connected now: an existing record is never changed by it, and a
	 * registration never waits for a connection (the first claim writes the record then).
	 */
	void createIfConnected(String job, JobRecord record) {
		if (this.client.getState() != CuratorFrameworkState.STARTED
				|| !this.client.getZookeeperClient().isConnected()) {
			return;
		}
		try {
			this.client.create()
				.creatingParentContainersIfNeeded()
				.withMode(CreateMode.PERSISTENT)
				.forPath(path(job), record.toBytes());
		}
		catch (KeeperException.NodeExistsException ex) {
			// Registered before, or run: the record stays as it is.
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		catch (Exception ex) {
			logger.debug("The record of scheduled job '{}' was not created", job, ex);
		}
	}

	/**
	 * Whether no one holds or waits for the job's lock, as ZooKeeper has it now: its
	 * mutex queue has no nodes.
	 * @return {@code true} if the queue is empty or absent; {@code false} if it has nodes
	 * or could not be read
	 */
	boolean lockFree(LockPath lock) {
		try {
			return this.client.getChildren().forPath(QueuePaths.of(LockKind.MUTEX, lock)).isEmpty();
		}
		catch (KeeperException.NoNodeException ex) {
			return true;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return false;
		}
		catch (Exception ex) {
			return false;
		}
	}

	/**
	 * The names of the jobs that have a record, cluster-wide.
	 * @return the names, sorted
	 */
	List<String> names() {
		List<String> children;
		try {
			children = this.client.getChildren().forPath(ROOT);
		}
		catch (KeeperException.NoNodeException ex) {
			return List.of();
		}
		catch (Exception ex) {
			throw failure("Reading the records of scheduled jobs failed", ex);
		}
		List<String> names = new ArrayList<>(children.size());
		for (String child : children) {
			names.add(LockPath.unescapeSegment(child));
		}
		names.sort(null);
		return names;
	}

	/** Change the record, reading it again as long as another write comes first. */
	void update(String job, UnaryOperator<JobRecord> change) {
		while (true) {
			Versioned current = read(job);
			if (write(job, current.version(), change.apply(current.record()))) {
				return;
			}
		}
	}

	private static LockAcquisitionException failure(String message, Exception ex) {
		if (ex instanceof InterruptedException) {
			Thread.currentThread().interrupt();
		}
		return new LockAcquisitionException(message + ": " + ex, ex);
	}

	private static String path(String job) {
		return "/" + LockPath.of(JOBS, job).value();
	}

	/** A record as read, with the version of its node. */
	record Versioned(JobRecord record, int version) {
	}

}
