package io.github.distlock.curator;

import java.util.concurrent.CompletableFuture;

import org.jspecify.annotations.Nullable;

import io.github.distlock.core.HeldLock;
import io.github.distlock.core.LockAcquisitionException;
import io.github.distlock.core.LockPath;
import io.github.distlock.core.LockState;
import io.github.distlock.core.WaitingAcquisition;

/**
 * The session of one client as the parts of the engine see it: whether requests may be
 * sent, which session is in use, what follows it ({@link Held holds}, {@link Waiting
 * acquisitions in flight}, any other {@link SessionBound}), and the requests that must
 * reach ZooKeeper whatever the connection does. One implementation follows the
 * connection; the parts reach it through their {@link Engine} only.
 */
interface Session {

	// The connection

	/**
	 * Whether a suspended connection loses the holds, rather than leaving them in doubt.
	 */
	boolean suspendedIsLost();

	/** Whether the client is connected now. */
	boolean isConnected();

	/**
	 * Wait for the connection for at most the client's connection timeout.
	 * @throws LockAcquisitionException if the client is not connected by then, or the
	 * thread is interrupted
	 */
	void awaitConnection();

	/** Whether the client was connected once, and is not now. */
	boolean isDisconnected();

	/** Whether requests may be sent now: connected, and the namespace node exists. */
	boolean isReady();

	/** Curator's index of the ZooKeeper handle (and so of the session) in use now. */
	long clientInstance();

	/**
	 * Whether a node was made through a ZooKeeper handle newer than the one whose
	 * connection was told last. Curator tells connection events on a thread of its own,
	 * in order, and tells a handle's connection before any answer through it: a
	 * suspension or loss told now is about the handle connected last or an earlier one,
	 * never about this node's session.
	 */
	boolean isOfLaterSession(LockNode node);

	/** The servers the client connects to, for messages. */
	String connectString();

	/** The full ZooKeeper path of a path relative to the client's namespace. */
	String namespaced(String path);

	/** Make sure the namespace node exists, then go on with the waiting acquisitions. */
	void prepareNamespace();

	// What follows the session

	/** Follow an acquisition until it ends: it is resumed when the connection returns. */
	void follow(Waiting acquisition);

	/** Stop following an acquisition that ended. */
	void unfollow(Waiting acquisition);

	/** Tell a follower what the connection does, until it is unbound. */
	void bind(SessionBound follower);

	/** Stop telling a follower what the connection does. */
	void unbind(SessionBound follower);

	/** Start following a new hold's session. */
	void register(Held hold);

	/** Tell the holder's listeners and the loss listeners that a hold was lost. */
	void reportLoss(Held hold);

	// Requests that must reach ZooKeeper

	/** Release a hold: send the delete of its node, and complete its confirmation. */
	void release(Held hold);

	/** A granted node, as its session follows it. */
	interface Held extends SessionBound {

		LockPath path();

		LockNode node();

		/**
		 * What the holder should know now: the state, or lost if the session that owns
		 * the node was replaced, whether or not an event said so yet.
		 */
		LockState state();

		/** Completed when ZooKeeper confirmed the node is gone. */
		CompletableFuture<Void> released();

		HeldLock snapshot();

		@Nullable AcquisitionEvents events();

		/** Someone else deleted the node (a forced release): it is lost. */
		void gone();

	}

	/** An acquisition in flight, as its session follows it. */
	interface Waiting extends SessionBound {

		/** The connection came back, or the namespace node is known to exist. */
		void resume();

		/** ZooKeeper refused the namespace node: fail, unless requests were sent. */
		void failBeforeBegin(Exception refused);

		/** Fail the acquisition with the given problem. */
		void fail(Exception ex);

		/** The failure of an acquisition ended because the locks were closed. */
		LockAcquisitionException closed();

		WaitingAcquisition snapshot();

	}

}
