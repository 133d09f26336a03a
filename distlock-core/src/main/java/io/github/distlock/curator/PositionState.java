package io.github.distlock.curator;

/**
 * The states of a {@link QueuePosition}, and its transitions:
 * <table>
 * <caption>Transitions of {@code QueuePosition}, each with the test that forces
 * it</caption>
 * <tr>
 * <th>From</th>
 * <th>Event</th>
 * <th>To</th>
 * <th>Forced by</th>
 * </tr>
 * <tr>
 * <td>NEW</td>
 * <td>the acquisition begins: our node's create and the queue's read are sent
 * together</td>
 * <td>CREATING</td>
 * <td>{@code CuratorLocksTests}</td>
 * </tr>
 * <tr>
 * <td>CREATING</td>
 * <td>the read is answered (or fails) before the create</td>
 * <td>CREATING; the queue is read again once the node is known</td>
 * <td>{@code ProtectedRecoveryTests}</td>
 * </tr>
 * <tr>
 * <td>CREATING</td>
 * <td>the create is answered with the node's stat</td>
 * <td>QUEUED (a downgrade: see below)</td>
 * <td>{@code CuratorLocksTests}</td>
 * </tr>
 * <tr>
 * <td>NEW (a mutex of this client's exclusive acquisitions)</td>
 * <td>the acquisition begins, and our previous node in the queue was last seen alone
 * under the parent's watch ({@link io.github.distlock.curator.LoneQueues}): only our
 * node's create is sent</td>
 * <td>CREATING, no read in flight</td>
 * <td>{@code LoneNodeGrantTests}</td>
 * </tr>
 * <tr>
 * <td>CREATING (no read in flight)</td>
 * <td>the create is answered with the number one past our previous node's, that node's
 * delete was answered, the parent's watch has not fired and no connection event came
 * since (same handle)</td>
 * <td>HOLDS as below (connected, the node of the session in use), without a read; any
 * other answer: QUEUED, the queue is read</td>
 * <td>{@code LoneNodeGrantTests} (a raw Curator mutex between, the parent reaped and made
 * again, a server restart between)</td>
 * </tr>
 * <tr>
 * <td>CREATING</td>
 * <td>the create is answered by Curator's protected-mode recovery, without a stat</td>
 * <td>CONFIRMING: the node's stat is read</td>
 * <td>{@code ProtectedRecoveryTests}</td>
 * </tr>
 * <tr>
 * <td>NEW (downgrade)</td>
 * <td>the write lock's node is at the ceiling of sequence numbers</td>
 * <td>ABANDONED, nothing sent; the acquisition fails with a
 * {@code LockAcquisitionException} (a read node keeping the write node's number would not
 * keep its place there)</td>
 * <td>{@code SequenceWrapTests}</td>
 * </tr>
 * <tr>
 * <td>CREATING</td>
 * <td>a parent is missing</td>
 * <td>CREATING, parents made first; STALLED for 50 ms if they went missing again</td>
 * <td>{@code NamespaceReapedTests}, {@code FencingAfterReapTests}</td>
 * </tr>
 * <tr>
 * <td>CREATING</td>
 * <td>the create or a parent's create is refused (no access, a bad ACL)</td>
 * <td>ABANDONED; the acquisition fails with ZooKeeper's answer</td>
 * <td>{@code RefusedParentsTests}, {@code ZookeeperAuthenticationTests}</td>
 * </tr>
 * <tr>
 * <td>CREATING</td>
 * <td>the create fails for want of a connection</td>
 * <td>STALLED without a node</td>
 * <td>{@code DeadlineWithServerDownTests}, {@code LostCreateTests}, the history
 * checker</td>
 * </tr>
 * <tr>
 * <td>CONFIRMING</td>
 * <td>the stat is read</td>
 * <td>QUEUED</td>
 * <td>{@code ProtectedRecoveryTests}</td>
 * </tr>
 * <tr>
 * <td>CONFIRMING</td>
 * <td>the node is gone, or the read fails for want of a connection</td>
 * <td>as "our node is gone" below; STALLED with a node but no stat</td>
 * <td>{@code NodeConfirmationTests}</td>
 * </tr>
 * <tr>
 * <td>QUEUED</td>
 * <td>the node was made through another ZooKeeper handle than the create was sent with
 * (Curator sent it again in a new session)</td>
 * <td>as "our node is gone"</td>
 * <td>{@code CreateAnsweredInNewSessionTests}</td>
 * </tr>
 * <tr>
 * <td>QUEUED</td>
 * <td>the queue is read and holds nodes at the ceiling of sequence numbers (numbered
 * {@code 2147483647} or below zero) whose creation zxid is not known</td>
 * <td>QUEUED; their stats are read (a node gone meanwhile is left out), then the driver
 * decides, sorting them by creation zxid behind every node below the ceiling</td>
 * <td>{@code SequenceWrapTests}</td>
 * </tr>
 * <tr>
 * <td>QUEUED</td>
 * <td>the driver says the node holds, the client is connected and the node belongs to the
 * session in use</td>
 * <td>HOLDS; watches removed; the owner is granted the node</td>
 * <td>{@code CuratorLocksTests}</td>
 * </tr>
 * <tr>
 * <td>QUEUED</td>
 * <td>the driver says the node holds, but the connection is down</td>
 * <td>STALLED: looked at again when it is back</td>
 * <td>{@code ServerRestartFaultTests}</td>
 * </tr>
 * <tr>
 * <td>QUEUED</td>
 * <td>the driver says the node holds, but Curator replaced the node's session</td>
 * <td>as "our node is gone"</td>
 * <td>{@code ReadAnsweredInNewSessionTests}</td>
 * </tr>
 * <tr>
 * <td>QUEUED</td>
 * <td>the driver says the node waits</td>
 * <td>QUEUED, watching one node (mutex, writer, reader) or the queue (lease)</td>
 * <td>{@code HotKeyQueueingTests}, {@code ReadWriteLockTests},
 * {@code SemaphoreTests}</td>
 * </tr>
 * <tr>
 * <td>QUEUED</td>
 * <td>a watch fires</td>
 * <td>QUEUED; the queue is read</td>
 * <td>{@code HotKeyQueueingTests}</td>
 * </tr>
 * <tr>
 * <td>QUEUED</td>
 * <td>our node is gone (its session ended, or it was deleted)</td>
 * <td>CREATING with a new node, or ABANDONED when the owner may not queue again (a
 * semaphore lease outside the session of its guard: the acquisition starts over at the
 * guard; a downgrade: the acquisition fails with a {@code LockLostException})</td>
 * <td>{@code DeletedWaiterNodeTests}, {@code SessionExpiryFaultTests},
 * {@code DowngradeSafetyTests}</td>
 * </tr>
 * <tr>
 * <td>STALLED without a node (the create's answer was lost with the connection)</td>
 * <td>resumed</td>
 * <td>as "our node is gone": the position asks its owner whether it may make its node
 * again. A semaphore lease may only in the session that holds its guard; when the
 * connection returned in a new session, ABANDONED: the acquisition starts over at the
 * guard and takes its lease in the session that holds the new guard (a lease made outside
 * it would be counted by nobody and block a permit for the session's life)</td>
 * <td>{@code LostCreateTests} (a mutex makes it again),
 * {@code SemaphoreGuardSessionTests}</td>
 * </tr>
 * <tr>
 * <td>QUEUED</td>
 * <td>a read or a watch fails for want of a connection</td>
 * <td>STALLED</td>
 * <td>{@code ServerRestartFaultTests}, {@code QuorumLossFaultTests}</td>
 * </tr>
 * <tr>
 * <td>QUEUED (downgrade)</td>
 * <td>the node of a reader entering its write lock is known</td>
 * <td>HOLDS with the write lock's token, if the write lock is still held and the node is
 * of its session; otherwise ABANDONED with a {@code LockLostException}</td>
 * <td>{@code DowngradeSafetyTests}</td>
 * </tr>
 * <tr>
 * <td>STALLED or QUEUED</td>
 * <td>resumed after Curator replaced the session our node was made in (the server may
 * still keep that session, and the node with it)</td>
 * <td>as "our node is gone": the node is deleted and, if the owner allows, made anew in
 * the new session</td>
 * <td>{@code LeadershipSessionLossTests}</td>
 * </tr>
 * <tr>
 * <td>STALLED</td>
 * <td>the failed request's answer came after the connection's return (its event may have
 * been handled already)</td>
 * <td>STALLED; the owner resumes it after 50 ms</td>
 * <td>{@code LeadershipLateLossTests}</td>
 * </tr>
 * <tr>
 * <td>STALLED</td>
 * <td>the connection is back (resume)</td>
 * <td>CREATING (no node: parents missing again, or a lost create the owner lets make
 * again), CONFIRMING (no stat) or QUEUED with the queue read again</td>
 * <td>{@code ServerRestartFaultTests}, {@code DeadlineWithServerDownTests},
 * {@code LostCreateTests} (a lost create), {@code NodeConfirmationTests} (no stat)</td>
 * </tr>
 * <tr>
 * <td>any but HOLDS</td>
 * <td>the acquisition ends without the lock (deadline, try-once, cancellation, closed
 * locks)</td>
 * <td>ABANDONED: the node is deleted (in the background, guaranteed) and our watches are
 * removed</td>
 * <td>{@code WatchRemovalTests}, {@code ClosedLocksTests},
 * {@code AsyncAcquisitionTests}</td>
 * </tr>
 * <tr>
 * <td>ABANDONED</td>
 * <td>a create is answered late</td>
 * <td>ABANDONED; its node is deleted</td>
 * <td>{@code AcquisitionSafetyTests}</td>
 * </tr>
 * </table>
 */
enum PositionState {

	/** Nothing sent yet. */
	NEW,

	/** Our node is being created; the queue's read may be in flight. */
	CREATING,

	/**
	 * Our node exists (Curator's protected-mode recovery found it after a lost
	 * connection), but its stat is not known yet: it is read.
	 */
	CONFIRMING,

	/** Our node and its stat are known; we read the queue or wait for a watch. */
	QUEUED,

	/** A request failed for want of a connection: waiting to be resumed. */
	STALLED,

	/** Our node holds the lock: the position's work is done. */
	HOLDS,

	/** Given up: our node is deleted (or will be, once its create is answered). */
	ABANDONED

}
