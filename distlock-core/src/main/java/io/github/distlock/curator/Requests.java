package io.github.distlock.curator;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.function.Predicate;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.CuratorEvent;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.github.distlock.core.LockReleaseException;

/**
 * Every request the engine sends in the background, for one client: the creates, reads
 * and watches of queue positions, leader elections and semaphores, each answered to the
 * callback it is given on Curator's event thread; and what must reach ZooKeeper whatever
 * the connection does: releases of holds (sent again when the connection returns, until
 * confirmed or the session ends), deletes of nodes nobody holds, and removals of watches
 * nobody needs. Those are sent from the request thread without a connection, never from
 * the caller's: Curator would block it until it gives up. The {@code SessionWatch} tells
 * it when the connection returns and when the session ends.
 * <p>
 * The other requests are sent at once, on the caller's thread, in the order they are
 * asked: ZooKeeper answers one session's requests in that order. Each throws what Curator
 * throws when it cannot send it.
 */
final class Requests {

	private static final Logger logger = LoggerFactory.getLogger(Requests.class);

	// Parents carry no data, as Curator's own parent nodes do (not the client's
	// default data).
	private static final byte[] NO_DATA = new byte[0];

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

	/**
	 * Whether a connection error is a want of a connection (lost, timed out, the session
	 * gone or moved) rather than ZooKeeper's answer.
	 */
	static boolean isConnectionProblem(KeeperException.Code code) {
		return code == KeeperException.Code.CONNECTIONLOSS || code == KeeperException.Code.SESSIONEXPIRED
				|| code == KeeperException.Code.OPERATIONTIMEOUT || code == KeeperException.Code.SESSIONMOVED;
	}

	/** Tell the given consumer the node of each release ZooKeeper deleted. */
	void onDeleted(Consumer<String> deleted) {
		this.deleted = deleted;
	}

	/** A request to send at once, which Curator may fail to send. */
	interface Request {

		void send() throws Exception;

	}

	/**
	 * Send a request at once.
	 * @param unsent told if Curator cannot send it
	 * @return whether it was sent
	 */
	boolean trySend(Request request, Consumer<Exception> unsent) {
		try {
			request.send();
			return true;
		}
		catch (Exception ex) {
			unsent.accept(ex);
			return false;
		}
	}

	/**
	 * Create a node, protected as Curator's recipes create theirs: its name carries a new
	 * UUID, by which Curator finds it again when the answer was lost with the connection.
	 */
	void create(String path, byte[] data, CreateMode mode, Consumer<CuratorEvent> answer) throws Exception {
		this.client.create()
			.withProtection()
			.withMode(mode)
			.inBackground((client, event) -> answer.accept(event))
			.forPath(path, data);
	}

	/**
	 * Create a node at exactly the given path, unprotected: a node whose path says what
	 * it is (a partition's owner), which exists at most once.
	 */
	void createExact(String path, byte[] data, CreateMode mode, Consumer<CuratorEvent> answer) throws Exception {
		this.client.create().withMode(mode).inBackground((client, event) -> answer.accept(event)).forPath(path, data);
	}

	/**
	 * Create the namespace's and the queue's parents as containers, one request each in
	 * one round trip (Curator's own creatingParentContainersIfNeeded makes them one
	 * synchronous request after the other on its background thread, which a burst of new
	 * keys queues behind). NODEEXISTS is the usual answer, and connection problems show
	 * in the answer of the create that follows; a refusal (no access, a bad ACL) is told
	 * with ZooKeeper's answer and the full path: creating the node again would be refused
	 * again.
	 */
	void createParents(String queuePath, Consumer<KeeperException> refused) throws Exception {
		// The client's namespace node is a container too (Curator makes it one, once per
		// client): when ZooKeeper has reaped it, nothing but us makes it again.
		String namespace = this.client.getNamespace();
		if (namespace != null && !namespace.isEmpty()) {
			CuratorFramework root = this.client.usingNamespace(null);
			String node = "";
			for (String segment : ZKPaths.split(ZKPaths.makePath("/", namespace))) {
				node = node + "/" + segment;
				root.create()
					.withMode(CreateMode.CONTAINER)
					.inBackground((client, event) -> parentCreated(event, true, refused))
					.forPath(node, NO_DATA);
			}
		}
		String parent = "";
		for (String segment : ZKPaths.split(queuePath)) {
			parent = parent + "/" + segment;
			this.client.create()
				.withMode(CreateMode.CONTAINER)
				.inBackground((client, event) -> parentCreated(event, false, refused))
				.forPath(parent, NO_DATA);
		}
	}

	/** Read a node's children, setting the watcher on it if one is given. */
	void children(String path, @Nullable Watcher watcher, Consumer<CuratorEvent> answer) throws Exception {
		if (watcher != null) {
			this.client.getChildren()
				.usingWatcher(watcher)
				.inBackground((client, event) -> answer.accept(event))
				.forPath(path);
		}
		else {
			this.client.getChildren().inBackground((client, event) -> answer.accept(event)).forPath(path);
		}
	}

	/** Read a node's data, setting the watcher on it if one is given. */
	void data(String path, @Nullable Watcher watcher, Consumer<CuratorEvent> answer) throws Exception {
		if (watcher != null) {
			this.client.getData()
				.usingWatcher(watcher)
				.inBackground((client, event) -> answer.accept(event))
				.forPath(path);
		}
		else {
			this.client.getData().inBackground((client, event) -> answer.accept(event)).forPath(path);
		}
	}

	/** Write a node's data if its version is still the given one. */
	void setData(String path, byte[] data, int version, Consumer<CuratorEvent> answer) throws Exception {
		this.client.setData()
			.withVersion(version)
			.inBackground((client, event) -> answer.accept(event))
			.forPath(path, data);
	}

	/** Read a node's stat, setting the watcher on it (exists or not) if one is given. */
	void stat(String path, @Nullable Watcher watcher, Consumer<CuratorEvent> answer) throws Exception {
		if (watcher != null) {
			this.client.checkExists()
				.usingWatcher(watcher)
				.inBackground((client, event) -> answer.accept(event))
				.forPath(path);
		}
		else {
			this.client.checkExists().inBackground((client, event) -> answer.accept(event)).forPath(path);
		}
	}

	/**
	 * Delete a node, guaranteed (retried until it is gone or its session ends); without a
	 * connection it is sent from the request thread.
	 * @return completes once ZooKeeper confirmed the node gone (deleted, absent, or its
	 * session over)
	 */
	CompletableFuture<Void> deleteConfirmed(String path) {
		CompletableFuture<Void> deleted = new CompletableFuture<>();
		send(() -> {
			try {
				this.client.delete().guaranteed().inBackground((client, event) -> {
					KeeperException.Code code = KeeperException.Code.get(event.getResultCode());
					if (code == KeeperException.Code.OK || code == KeeperException.Code.NONODE
							|| code == KeeperException.Code.SESSIONEXPIRED) {
						deleted.complete(null);
					}
					else {
						deleted.completeExceptionally(KeeperException.create(code, path));
					}
				}).forPath(path);
			}
			catch (Exception ex) {
				deleted.completeExceptionally(ex);
			}
		});
		return deleted;
	}

	/**
	 * Delete a node of the given session in that session only: through the session's own
	 * handle, never retried in a later session. For nodes whose name is not unique (a
	 * partition's owner node): once the session ended, another client may have made a
	 * node of the same name, which a delete by path would remove. Completes once deleted,
	 * or known gone with its session (this client's session is another one now, or
	 * ended); fails on a connection loss, to be asked again once the connection is back.
	 */
	CompletableFuture<Void> deleteInSession(LockNode node) {
		CompletableFuture<Void> deleted = new CompletableFuture<>();
		send(() -> {
			try {
				ZooKeeper handle = this.client.getZookeeperClient().getZooKeeper();
				if (handle.getSessionId() != node.session()) {
					deleted.complete(null);
					return;
				}
				handle.delete(ZKPaths.fixForNamespace(this.client.getNamespace(), node.path()), -1, (rc, path, ctx) -> {
					KeeperException.Code code = KeeperException.Code.get(rc);
					if (code == KeeperException.Code.OK || code == KeeperException.Code.NONODE
							|| code == KeeperException.Code.SESSIONEXPIRED) {
						deleted.complete(null);
					}
					else {
						deleted.completeExceptionally(KeeperException.create(code, node.path()));
					}
				}, null);
			}
			catch (Exception ex) {
				deleted.completeExceptionally(ex);
			}
		});
		return deleted;
	}

	private void parentCreated(CuratorEvent event, boolean fullPath, Consumer<KeeperException> refused) {
		KeeperException.Code code = KeeperException.Code.get(event.getResultCode());
		if (code == KeeperException.Code.NOAUTH || code == KeeperException.Code.INVALIDACL
				|| code == KeeperException.Code.AUTHFAILED) {
			String namespace = this.client.getNamespace();
			boolean bare = fullPath || namespace == null || namespace.isEmpty();
			refused.accept(KeeperException.create(code,
					bare ? event.getPath() : ZKPaths.makePath(namespace, event.getPath())));
		}
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
