package io.github.distlock.curator;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.Predicate;

import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Watcher;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.github.distlock.core.LockReleaseException;

/**
 * What must reach ZooKeeper whatever the connection does, for one client: releases of
 * holds (sent again when the connection returns, until confirmed or the session ends),
 * deletes of nodes nobody holds, and removals of watches nobody needs. Without a
 * connection a request is sent from the request thread, never from the caller's: Curator
 * would block it until it gives up. The {@code SessionWatch} tells it when the connection
 * returns and when the session ends.
 */
final class Requests {

	private static final Logger logger = LoggerFactory.getLogger(Requests.class);

	private final CuratorFramework client;

	private final EngineThreads threads;

	// Holds whose delete failed for want of a connection: sent again when it returns.
	private final Set<Session.Held> unconfirmedReleases = ConcurrentHashMap.newKeySet();

	// Every release not completed yet, sent or waiting for the connection: the session
	// watch keeps following the connection until none is left, even once the locks are
	// closed, since only the connection's return or the session's end completes them.
	private final Set<Session.Held> releasing = ConcurrentHashMap.newKeySet();

	// Told when a release completed.
	private final Runnable releaseCompleted;

	// Told of each release whose delete ZooKeeper answered with the node gone by it.
	private volatile Consumer<String> deleted = (path) -> {
	};

	Requests(CuratorFramework client, EngineThreads threads, Runnable releaseCompleted) {
		this.client = client;
		this.threads = threads;
		this.releaseCompleted = releaseCompleted;
	}

	/** Tell the given consumer the node of each release ZooKeeper deleted. */
	void onDeleted(Consumer<String> deleted) {
		this.deleted = deleted;
	}

	/**
	 * Release a hold: send the delete of its node, and complete its confirmation when
	 * ZooKeeper answers. Without a connection the delete is sent again when the
	 * connection returns (Curator's guaranteed delete retries it too), unless the session
	 * ends first, which deletes the node.
	 */
	void release(Session.Held hold) {
		this.releasing.add(hold);
		hold.released().whenComplete((done, ex) -> {
			this.releasing.remove(hold);
			this.releaseCompleted.run();
		});
		send(() -> sendRelease(hold));
	}

	/** Whether a release is not completed yet. */
	boolean isReleasing() {
		return !this.releasing.isEmpty();
	}

	private void sendRelease(Session.Held hold) {
		String path = hold.node().path();
		try {
			this.client.delete().guaranteed().inBackground((client, event) -> {
				KeeperException.Code code = KeeperException.Code.get(event.getResultCode());
				switch (code) {
					case OK -> {
						this.deleted.accept(path);
						hold.released().complete(null);
					}
					case NONODE, SESSIONEXPIRED -> hold.released().complete(null);
					case CONNECTIONLOSS, OPERATIONTIMEOUT -> {
						if (hold.released().isDone()) {
							// Completed meanwhile by the end of its session.
							return;
						}
						this.unconfirmedReleases.add(hold);
						if (isConnected()) {
							// The connection returned before this answer came.
							this.unconfirmedReleases.remove(hold);
							sendRelease(hold);
						}
					}
					default -> hold.released()
						.completeExceptionally(new LockReleaseException("Releasing lock '" + hold.path()
								+ "' failed: ZooKeeper refused to delete " + path + ": " + code, null));
				}
			}).forPath(path);
		}
		catch (Exception ex) {
			hold.released()
				.completeExceptionally(new LockReleaseException(
						"Releasing lock '" + hold.path() + "' failed: " + ex.getMessage(), ex));
		}
	}

	/** Number of releases waiting for the connection to return. */
	int unconfirmedReleases() {
		return this.unconfirmedReleases.size();
	}

	/**
	 * A session ended: the nodes of the releases not completed yet (waiting for the
	 * connection, or sent and not answered) died with it, unless made in a session
	 * evidently alive (the loss was about an earlier one, reported late).
	 */
	void lost(Predicate<LockNode> live) {
		for (Session.Held hold : this.releasing) {
			if (live.test(hold.node())) {
				continue;
			}
			this.unconfirmedReleases.remove(hold);
			hold.released().complete(null);
		}
	}

	/** The connection is back: send the releases waiting for it again. */
	void reconnected() {
		for (Session.Held hold : this.unconfirmedReleases) {
			this.unconfirmedReleases.remove(hold);
			if (!hold.released().isDone()) {
				sendRelease(hold);
			}
		}
	}

	private boolean isConnected() {
		return this.client.getZookeeperClient().isConnected();
	}

	/**
	 * Delete a node nobody holds (an abandoned acquisition's, a semaphore's guard) in the
	 * background, guaranteed: retried until it is gone or its session ends.
	 */
	void deleteInBackground(String path) {
		send(() -> {
			try {
				this.client.delete().guaranteed().inBackground().forPath(path);
			}
			catch (Exception ex) {
				logger.warn("Could not delete lock node {}; it is deleted with its session", path, ex);
			}
		});
	}

	/**
	 * Remove a watch nobody needs any more (an abandoned or granted position's), as
	 * Curator's recipes do when they stop waiting: otherwise it stays registered until
	 * its node changes, and is set again on every reconnection. Without a connection only
	 * the client forgets it, and so does not set it again.
	 */
	void removeWatch(Watcher watcher, String path, Watcher.WatcherType type) {
		send(() -> removeWatch(watcher, path, type, !isConnected()));
	}

	/**
	 * Remove every watch of this client of the given type on a path, on the server too:
	 * ZooKeeper may keep a watch on the server when one watcher of it is removed. Without
	 * a connection only the client forgets the given watcher.
	 */
	void removeAllWatches(Watcher watcher, String path, Watcher.WatcherType type) {
		send(() -> {
			boolean locally = !isConnected();
			if (locally) {
				removeWatch(watcher, path, type, true);
				return;
			}
			try {
				this.client.watchers().removeAll().ofType(type).quietly().inBackground().forPath(path);
			}
			catch (Exception ex) {
				logger.debug("Could not remove the watches on {}: {}", path, ex.toString());
			}
		});
	}

	private void removeWatch(Watcher watcher, String path, Watcher.WatcherType type, boolean locally) {
		try {
			if (locally) {
				this.client.watchers().remove(watcher).ofType(type).locally().quietly().inBackground().forPath(path);
			}
			else {
				this.client.watchers().remove(watcher).ofType(type).quietly().inBackground().forPath(path);
			}
		}
		catch (Exception ex) {
			logger.debug("Could not remove the watch on {}: {}", path, ex.toString());
		}
	}

	/**
	 * Send a request from this thread while connected (Curator queues it at once), else
	 * from the request thread: without a connection Curator would block this one until it
	 * gives up on it.
	 */
	void send(Runnable request) {
		if (isConnected()) {
			request.run();
		}
		else {
			this.threads.request(request);
		}
	}

}
