package io.github.distlock.curator;

import java.util.Collection;
import java.util.function.Supplier;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.CuratorEvent;
import org.apache.zookeeper.AddWatchMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;

/**
 * How a hold of this client learns that an operator removed its node
 * ({@code LockAdmin#forceRelease}): a forced release deletes the holder's node and, in
 * the same multi-operation, writes the notice node {@link #NOTICE} under the lock root.
 * Each client keeps one persistent watch on that node (one request per session, none per
 * acquisition: a hold does not watch its own node); on each notice, and after each
 * (re-)registration of the watch, which covers a notice written while it was not set, it
 * asks whether the node of each of its holds still exists, and a hold whose node is gone
 * is lost, as any lost hold (its local turn passed on, the loss reported). A node deleted
 * without a notice (by hand, by a raw client) is not heard of until its session or its
 * release says so.
 */
final class ForcedReleases implements SessionBound, Watcher {

	/** The notice node, under the lock root, which a forced release writes. */
	static final String NOTICE = "/forced-releases";

	private final CuratorFramework client;

	private final Session session;

	private final Requests requests;

	// The holds the session follows now.
	private final Supplier<? extends Collection<Session.Held>> holds;

	ForcedReleases(CuratorFramework client, Session session, Requests requests,
			Supplier<? extends Collection<Session.Held>> holds) {
		this.client = client;
		this.session = session;
		this.requests = requests;
		this.holds = holds;
	}

	/** Follow the session, and register the watch now if connected. */
	void start() {
		this.session.bind(this);
		if (this.session.isConnected()) {
			reconnected();
		}
	}

	/** Stop following the session, and remove the watch (the client may live on). */
	void close() {
		this.session.unbind(this);
		this.requests.removeWatch(this, NOTICE, Watcher.WatcherType.Any);
	}

	/**
	 * (Re-)register the persistent watch: a new session has none, and one registered
	 * again after a reconnection in the same session does no harm. Then check the holds.
	 */
	@Override
	public void reconnected() {
		this.requests.trySend(() -> this.client.watchers()
			.add()
			.withMode(AddWatchMode.PERSISTENT)
			.inBackground((client, event) -> registered(event))
			.usingWatcher(this)
			.forPath(NOTICE), (unsent) -> {
				// The connection's return registers it again.
			});
	}

	private void registered(CuratorEvent answer) {
		if (answer.getResultCode() == KeeperException.Code.OK.intValue()) {
			checkHolds();
		}
	}

	@Override
	public void process(WatchedEvent event) {
		if (event.getType() == Event.EventType.NodeDataChanged || event.getType() == Event.EventType.NodeCreated) {
			checkHolds();
		}
	}

	/** Ask whether each hold's node exists: a hold whose node is gone is lost. */
	private void checkHolds() {
		for (Session.Held hold : this.holds.get()) {
			this.requests.trySend(() -> this.requests.stat(hold.node().path(), null, (answer) -> {
				if (answer.getResultCode() == KeeperException.Code.NONODE.intValue()) {
					hold.gone();
				}
			}), (unsent) -> {
				// The connection's return checks again.
			});
		}
	}

	@Override
	public void suspended() {
	}

	@Override
	public void lost() {
	}

}
