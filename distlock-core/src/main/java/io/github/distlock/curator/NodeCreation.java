package io.github.distlock.curator;

import org.apache.curator.framework.api.CuratorEvent;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;
import org.jspecify.annotations.Nullable;

/**
 * The requests that make one {@link QueuePosition}'s node: its create (protected, as
 * Curator's recipes make it), the queue's parents as containers when a create found them
 * missing, and the read of the node's stat when Curator's protected-mode recovery found
 * the node without it. It sorts their answers for its {@link Creator}, which says whether
 * an answer is still wanted.
 * <p>
 * It keeps only what its creates were answered (how many in a row found a parent missing,
 * whether the last answer was lost with the connection), guarded, as all of the position,
 * by the position's monitor (its owner): every method is called holding it, and every
 * answer takes it before the creator is called.
 */
final class NodeCreation {

	/** The position the answers are for, called holding the monitor. */
	interface Creator {

		/**
		 * Whether answers about this generation's node are still wanted: it is the
		 * latest, and the position was not given up.
		 */
		boolean creating(int generation);

		/**
		 * Our node was made: its full path, and its stat ({@code null} when Curator's
		 * protected-mode recovery found it).
		 */
		void created(String node, @Nullable Stat stat);

		/**
		 * A parent of the queue is missing: make the node again, with its parents
		 * ({@code again}: they went missing again at once).
		 */
		void parentsMissing(boolean again);

		/** Whether the stat of this generation's node is still wanted. */
		boolean confirming(int generation);

		/** Our node's stat was read ({@code null}: the node is gone). */
		void confirmed(@Nullable Stat stat);

		/** A request was answered with a problem. */
		void problem(KeeperException.Code code, @Nullable String path);

		/** A request could not be sent. */
		void failed(Exception ex);

	}

	private final Engine engine;

	private final Requests requests;

	private final Object monitor;

	private final String queuePath;

	private final byte[] data;

	private final Creator creator;

	// How many creates in a row found a parent missing.
	private int parentsMissing;

	// Whether the last create's answer was a want of a connection.
	private boolean answerLost;

	NodeCreation(Engine engine, Object monitor, String queuePath, byte[] data, Creator creator) {
		this.engine = engine;
		this.requests = engine.session().requests();
		this.monitor = monitor;
		this.queuePath = queuePath;
		this.data = data;
		this.creator = creator;
	}

	/**
	 * Send our node's create, after the creates of the queue's parents if asked (only
	 * after a create found them missing).
	 * @param generation the generation of the node
	 * @param name the node's name in the queue, before Curator's protection prefix
	 * @param mode the node's mode
	 * @param parentsFirst whether to create the parents first
	 * @return whether the requests were sent (if not, the creator was told why)
	 */
	boolean create(int generation, String name, CreateMode mode, boolean parentsFirst) {
		this.answerLost = false;
		try {
			if (parentsFirst) {
				this.requests.createParents(this.queuePath, (refused) -> parentRefused(generation, refused));
			}
			this.requests.create(ZKPaths.makePath(this.queuePath, name), this.data, mode,
					(event) -> created(generation, event));
			return true;
		}
		catch (Exception ex) {
			this.creator.failed(ex);
			return false;
		}
	}

	/**
	 * Whether the last create's answer was lost with the connection: its node may exist
	 * (Curator deletes what a failed protected create left), in the session of its send.
	 */
	boolean answerLost() {
		return this.answerLost;
	}

	/** Whether the parents are to be made first when the node is made again. */
	boolean parentsMissing() {
		return this.parentsMissing > 0;
	}

	private void created(int generation, CuratorEvent event) {
		synchronized (this.monitor) {
			KeeperException.Code code = KeeperException.Code.get(event.getResultCode());
			if (!this.creator.creating(generation)) {
				// An older node, or the position was given up: nobody will hold it.
				if (code == KeeperException.Code.OK) {
					this.requests.deleteInBackground(event.getName());
				}
				return;
			}
			if (code == KeeperException.Code.NONODE) {
				// A parent is missing (reaped while empty, or never made).
				this.creator.parentsMissing(this.parentsMissing++ > 0);
				return;
			}
			this.parentsMissing = 0;
			if (code != KeeperException.Code.OK) {
				this.answerLost = Session.isConnectionProblem(code);
				this.creator.problem(code, event.getPath());
				return;
			}
			this.creator.created(event.getName(), event.getStat());
		}
	}

	/** A parent's create was refused (no access, a bad ACL). */
	private void parentRefused(int generation, KeeperException refused) {
		synchronized (this.monitor) {
			if (this.creator.creating(generation)) {
				this.creator.failed(refused);
			}
		}
	}

	/** Read the stat of our node, found by Curator's protected-mode recovery. */
	void confirm(int generation, String path) {
		try {
			this.requests.stat(path, null, (event) -> {
				synchronized (this.monitor) {
					if (!this.creator.confirming(generation)) {
						return;
					}
					KeeperException.Code code = KeeperException.Code.get(event.getResultCode());
					if (code == KeeperException.Code.OK && event.getStat() != null) {
						this.creator.confirmed(event.getStat());
					}
					else if (code == KeeperException.Code.OK || code == KeeperException.Code.NONODE) {
						// Gone with its session already.
						this.creator.confirmed(null);
					}
					else {
						this.creator.problem(code, path);
					}
				}
			});
		}
		catch (Exception ex) {
			this.creator.failed(ex);
		}
	}

}
