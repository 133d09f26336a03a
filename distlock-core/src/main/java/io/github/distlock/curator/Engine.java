package io.github.distlock.curator;

import org.apache.curator.framework.CuratorFramework;
import org.jspecify.annotations.Nullable;

import io.github.distlock.core.LockKind;
import io.github.distlock.core.LockPath;

/**
 * What the parts of an acquisition ({@link Acquisition}, its {@link QueuePosition}s, its
 * {@link Hold}) and of a leader election need of the engine of their client, and all they
 * may reach, each as a narrow interface with the methods they call: the client to send
 * requests with, the {@linkplain Threads threads} work runs on, the {@linkplain Session
 * session} and what follows it, the client's {@linkplain LocalTurns local queues}, the
 * {@linkplain AcquisitionEvents event listeners}, the {@linkplain Drain drain}, and the
 * {@linkplain AccessDeniedAdvice advice} of a failure that access control refused.
 * {@link CuratorLocks} is the application's side of the same engine, and puts the classes
 * that implement them together.
 */
interface Engine {

	/** The client requests are sent with; its namespace is the lock root. */
	CuratorFramework client();

	/** Who this client is, for the data of its lock nodes. */
	Identity identity();

	/** Where work runs. */
	Threads threads();

	/** The session, and the holds and acquisitions that follow it. */
	Session session();

	/**
	 * Every request sent in the background, through the session's requests: creates,
	 * reads, watches and deletes.
	 */
	Requests requests();

	/** This client's queues of exclusive locks. */
	LocalTurns localQueues();

	/**
	 * This client's mutex queues where its last node was known alone, whose next node's
	 * number may prove it alone without a read.
	 */
	LoneGrants loneQueues();

	/**
	 * Start following one acquisition for the event listeners.
	 * @return what the listeners are told, or {@code null} if there is none
	 */
	@Nullable AcquisitionEvents events(LockKind kind, LockPath path);

	/** Whether the locks were closed: no acquisition may start any more. */
	boolean isClosed();

	/** Whether the locks are draining: no new acquisition may start until it ends. */
	Drain drain();

	/** What a failure refused by ZooKeeper's access control advises checking. */
	AccessDeniedAdvice accessDeniedAdvice();

}
