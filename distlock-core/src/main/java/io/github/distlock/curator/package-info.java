/**
 * distlock's lock engine: the protocols of Apache Curator's lock recipes, node for node,
 * driven by ZooKeeper's answers and watches on Curator's asynchronous API.
 * <p>
 * One noun per step of a lock's life:
 * <ul>
 * <li>{@link io.github.distlock.curator.Acquisition}: one acquisition in flight, from the
 * call to its outcome (a hold, a timeout, a cancellation or a failure); its outcome
 * future is where a grant and a deadline that meet are told apart. It first takes its
 * turn in the client's {@link io.github.distlock.curator.LocalQueues local queue} of an
 * exclusive lock, then works in ZooKeeper through its queue positions.</li>
 * <li>{@link io.github.distlock.curator.QueuePosition}: our node in one queue of
 * ZooKeeper, the acquisition state machine (its table:
 * {@link io.github.distlock.curator.PositionState}); the same for every protocol, as
 * Curator's {@code LockInternals} is. One class owns the position's life: it sends its
 * node's create (and the queue's parents'), the read of the queue, the watch of one node
 * and the delete through the session's {@link io.github.distlock.curator.Requests}, and
 * each answer comes back to it and advances one state, the pure
 * {@link io.github.distlock.curator.QueueDriver} deciding. What it knows of its node is a
 * value ({@link io.github.distlock.curator.PositionNode}), its registered watches are
 * kept by {@link io.github.distlock.curator.Watches}, and a
 * {@link io.github.distlock.curator.Downgrade} holds the checks of a reader entering its
 * write lock. It is guarded by its owner's monitor, and tells its owner what happened
 * through {@link io.github.distlock.curator.QueuePosition.Owner} only.</li>
 * <li>{@link io.github.distlock.curator.QueueDriver}: a protocol's rules, one driver per
 * protocol (mutex, read, write, semaphore lease): how nodes are named and sorted, when
 * one holds, what a waiter watches. The endpoint's view of a path asks the same drivers
 * ({@link io.github.distlock.curator.QueueInspector}).</li>
 * <li>{@link io.github.distlock.curator.Hold}: a granted node, following its session
 * until it is released (delete sent, confirmation optional) or lost. A re-entry or a
 * downgrade enters a hold: it exists only while that hold is held, and carries its
 * fencing token.</li>
 * <li>{@link io.github.distlock.core.LockHandle}: what the caller holds; a
 * {@link io.github.distlock.core.LockScope} hands out one per acquisition, re-entries
 * included, and closes the hold with the last.</li>
 * </ul>
 * <h2>The engine's parts</h2> {@link io.github.distlock.curator.CuratorLocks} is the
 * application's side (the {@link io.github.distlock.core.Locks} bean) and puts the parts
 * together, each with one job; acquisitions, positions and holds reach them only through
 * the narrow {@link io.github.distlock.curator.Engine} interface, which hands out no
 * concrete class, only narrow interfaces with the methods the parts call:
 * {@link io.github.distlock.curator.EngineThreads} (where work runs: completions,
 * requests that may wait, loss reports, the namespace, the
 * {@link io.github.distlock.curator.DeadlineTimer deadline timer}; the parts see them as
 * {@link io.github.distlock.curator.Threads} and
 * {@link io.github.distlock.curator.Timer}), {@link io.github.distlock.curator.Events}
 * (the event listeners, seen as {@link io.github.distlock.curator.AcquisitionEvents}),
 * {@link io.github.distlock.curator.HolderIdentity} (the data of our nodes, seen as
 * {@link io.github.distlock.curator.Identity}),
 * {@link io.github.distlock.curator.LoneQueues} (the mutex queues whose next node's
 * number may prove it alone, and the watches on their parents that the proof needs, seen
 * as {@link io.github.distlock.curator.LoneGrants}),
 * {@link io.github.distlock.curator.SessionWatch} (the connection and session, what
 * follows it, and its {@link io.github.distlock.curator.Requests}: every request the
 * engine sends in the background (creates, reads, watches, deletes), and the releases and
 * deletes that must reach ZooKeeper, which the parts reach through
 * {@code Engine#requests()}; the parts see the session watch as the narrow
 * {@link io.github.distlock.curator.Session}, and it sees them as
 * {@link io.github.distlock.curator.Session.Held} and
 * {@link io.github.distlock.curator.Session.Waiting}, so it depends on no hold or
 * acquisition), {@link io.github.distlock.curator.LocalQueues} (seen as
 * {@link io.github.distlock.curator.LocalTurns}) and
 * {@link io.github.distlock.curator.QueueInspector}.
 * <h2>The walk of one lock call</h2> A synchronous, uncontended
 * {@code @DistributedLock("orders/#{#id}")} call on a mutex whose path was used before
 * (the create's number proves the node alone: 2 requests) enters these files, in order of
 * first entry, from {@code LockInterceptor.invoke} until the guaranteed delete is handed
 * to Curator and the call returns. Counted by instrumenting every distlock method and
 * constructor: a file counts when code defined in it runs (a nested type is in its
 * owner's file); JDK, Spring, Curator and ZooKeeper files do not, nor interfaces whose
 * methods run elsewhere. {@code LockCallWalkTests} of distlock-spring measures it and
 * fails when the walk grows past this count: {@code ./mvnw -pl distlock-spring -am test
 * -Dsurefire.failIfNoSpecifiedTests=false -Dtest=LockCallWalkTests -Ddistlock.walk=true}.
 * <ol>
 * <li>{@code LockInterceptor}: hands the call on.</li>
 * <li>{@code AbstractFallbackOperationSource}: the method's operation, cached.</li>
 * <li>{@code LockOperationExecutor}: resolves the call, acquires, runs the method,
 * releases.</li>
 * <li>{@code MutexOperation}: the operation's values; the lock of the path.</li>
 * <li>{@code LockPathTemplate}: the path from the argument.</li>
 * <li>{@code LockPath} (core): the argument escaped to a segment, the path parsed.</li>
 * <li>{@link io.github.distlock.curator.CuratorLocks}: the default wait time, the
 * {@code ClusterLock} of the path, the parts (its {@code Engine}).</li>
 * <li>{@code DurationTemplate}: the wait time and the hold time.</li>
 * <li>{@code LockCall}: the resolved call, acquired, released.</li>
 * <li>{@link io.github.distlock.curator.CuratorLock}: asks the thread's scope, starts the
 * acquisition, parks on its outcome, delivers the hold.</li>
 * <li>{@link io.github.distlock.curator.QueuePaths}: the queue's path.</li>
 * <li>{@code LockKind}, {@code LockProtocol} (core): the kind's subtree.</li>
 * <li>{@code LockScope} (core): no re-entry; the hold adopted as the caller's handle,
 * then closed.</li>
 * <li>{@link io.github.distlock.curator.Acquisition}: the outcome future, the deadline,
 * the local turn, the position's start; the grant of the hold.</li>
 * <li>{@link io.github.distlock.curator.LoneCheck}: whether the create's number may prove
 * the node alone.</li>
 * <li>{@link io.github.distlock.curator.HolderIdentity}: the node's data.</li>
 * <li>{@link io.github.distlock.curator.QueuePosition}: sends the create; from its
 * answer, the node known, proved alone, held; its owner told.</li>
 * <li>{@link io.github.distlock.curator.PositionNode}: what the position knows of its
 * node.</li>
 * <li>{@link io.github.distlock.curator.SessionWatch}: follows the acquisition, then the
 * hold; the session in use; the release.</li>
 * <li>{@link io.github.distlock.curator.EngineThreads}: the timer.</li>
 * <li>{@link io.github.distlock.curator.DeadlineTimer}: the deadline armed, then
 * cancelled.</li>
 * <li>{@link io.github.distlock.curator.LocalQueues}: the local turn entered, then
 * left.</li>
 * <li>{@link io.github.distlock.curator.QueueDriver}: the node's name and number.</li>
 * <li>{@link io.github.distlock.curator.LoneQueues}: the queue known alone; the proof
 * checked against the create's answer.</li>
 * <li>{@link io.github.distlock.curator.LoneQueue}: that queue's state, and its
 * {@code Proof}.</li>
 * <li>{@link io.github.distlock.curator.Requests}: sends the protected create, then the
 * guaranteed delete.</li>
 * <li>{@link io.github.distlock.curator.LockNode}: the granted node's value.</li>
 * <li>{@link io.github.distlock.curator.Hold}: the granted node following its session
 * ({@code Hold.Node}), delivered, released.</li>
 * </ol>
 * That is 29 files; 37 before the event listeners ({@code Events}, only when there are
 * some), the failure messages ({@code AcquisitionFailures}, only on a failure), the
 * watches and the creation order (only when the queue is read) and the code of the
 * {@code Session} interface (now {@code Requests}' and the hold's) left this path, the
 * lone rule's proof became {@code LoneQueue}'s (the narrow {@code LoneGrants} has no code
 * left), and the queue acquisition and {@code HeldNode} were merged into
 * {@code Acquisition} and {@code Hold}. A path's first call (its queue's parents made,
 * the queue read: no proof) enters {@code ForeignNodes}, {@code Watches} and
 * {@code CreationOrder} too: 32. Toward 12, the merges next: on the Spring side the
 * operation, its resolution and the call ({@code MutexOperation},
 * {@code DurationTemplate}, {@code LockCall}) in one file; in the engine the lone rule in
 * one file ({@code LoneCheck}, {@code LoneQueue} into {@code LoneQueues}), the timer
 * armed only once a wait has to wait (a deadline still kept while ZooKeeper is away), the
 * local turn entered only when another local acquisition of the path exists, the queue's
 * path and the node's data made once per lock, and {@code PositionNode}, {@code LockNode}
 * into the position and the hold. That would leave 16: the rest is the path's resolution
 * ({@code LockPathTemplate}, {@code LockPath}) and the layers of the lock
 * ({@code CuratorLocks}, {@code CuratorLock}, {@code LockScope}).
 * <h2>Following the session</h2> One mechanism follows the session: the
 * {@code SessionWatch} alone listens to the connection's state, and tells everything that
 * follows the session through the narrow {@link io.github.distlock.curator.SessionBound}
 * (suspended, reconnected, lost): holds, then acquisitions in flight, then the
 * participants of leader elections. An acquisition resumes its positions; a participant
 * resumes its position or tells its tenure. A lock's hold and a leader's tenure follow
 * the session by one code, a {@code Hold.Node} per granted node (held, in doubt, lost,
 * released; the fencing token, a tenure's epoch): in doubt or lost by the connection-loss
 * policy, lost once the session of its node was replaced (told, or seen when its state is
 * asked). Its owner's hooks differ: back within the session, a hold is held at once, a
 * tenure once its {@code LatchRecheck} found the node still first (another member may
 * lead meanwhile); a loss passes a hold's local turn on and is reported to the loss
 * listeners, or ends a tenure and tells the election; the session's end leaves a hold's
 * node to its release, and has a participant delete its node (a server may keep that
 * session) and queue again. Outside it: a tenure's handle is {@code IN_DOUBT} while
 * disconnected before the suspension is told (it is asked before new work), a hold
 * {@code HELD} until told; a participant watches its node.
 * <p>
 * Curator tells connection events on a thread of its own, one at a time and in order, and
 * tells a new ZooKeeper handle's connection before any answer through it reaches the
 * engine; but it may tell a session's suspension or loss after it already connected in a
 * new session and a node was granted there. So the session watch notes the handle in use
 * at each connection it is told, and a suspension or loss ends only what was made through
 * that handle or an earlier one: a node made through a newer handle belongs to a later
 * session ({@code Session#isOfLaterSession}), and the event is about an earlier one. A
 * hold, a participant's node and a release waiting for the connection each judge it so;
 * an acquisition in flight does nothing on a loss (its position finds its node gone when
 * it resumes). The handle is read when the connection is told, so it may be newer than
 * the one that connected: the rule then ends more, never less. ({@code
 * LateSessionLossTests} holds the events up until the new session holds a lock, leads,
 * waits and follows: only the old session's hold and tenure end.)
 * <h2>Closing</h2> {@link io.github.distlock.curator.CuratorLocks#close()} ends every
 * acquisition in flight at once with a {@code LockAcquisitionException} saying the locks
 * were closed, and refuses later ones the same way. A hold still held is not ended: it
 * keeps following its session ({@code SessionWatch} keeps its connection listener until
 * the last hold left and the last release completed) and leaves {@code HELD} by the
 * connection-loss policy, until its holder closes it. Its release completes as before
 * close: a delete answered for want of a connection is sent again when the connection
 * returns, and completed when the session ends (its node died with it); its loss is told
 * on the loss-report thread, never on Curator's ({@code EngineThreads} keeps the request
 * and loss-report threads after close, ending them once idle). The client itself, which
 * the application may own, is not closed. ({@code ReleaseAfterCloseTests},
 * {@code LossReportsAfterCloseTests}.)
 * <p>
 * A hold's loss is told to the listeners after they were told it was acquired: a loss
 * that comes while the acquired event is being told waits for it
 * ({@code LossBeforeAcquiredTests}). Under the {@code LOST} policy a hold is told lost
 * when Curator gives its session up while the server is away (Curator's LOST after the
 * session timeout without a connection), before any reconnection
 * ({@code SessionGivenUpTests}). A parent watch of {@code LoneQueues} that the server set
 * after the queue stopped taking part (the {@code exists} sent again by Curator after a
 * removal made without a connection, or after close) is removed when its answer comes
 * ({@code LoneWatchRetryTests}).
 * <h2>Draining</h2> {@link io.github.distlock.curator.Drain} is whether the locks drain
 * ({@code LockAdmin#drain}), one per engine, shared by its views. {@code CuratorLock}
 * refuses a new acquisition with a {@code LocksDrainingException} after the scope's
 * re-entry (a re-entry takes no new node) and before the acquisition starts, and looks
 * again once it is followed by the session: {@code CuratorLockAdmin} begins the drain and
 * then fails the acquisitions the session follows, so an acquisition that passed the
 * first check either is among them or sees the drain at the second; a grant that crosses
 * the failure releases its node, as after a timeout. The hot path reads the drain as a
 * field only. {@code CuratorLeadership} listens to the drain: it leaves every group it is
 * a member of (a leader's tenure drains first) and joins them again when the drain ends.
 * {@code CuratorScheduledJobs} skips its firings as {@code DRAINING}. The holds are
 * awaited by their releases, looked at again every 50 ms. ({@code DrainTests}.)
 * <h2>Release requests and forced releases</h2> An operator's request to release
 * ({@code LockAdmin#requestRelease}) is Curator's revocation: the revoke marker written
 * as a holder's node data. A {@link io.github.distlock.curator.Hold} watches its node's
 * data through a {@link io.github.distlock.curator.ReleaseRequest}, made only when a
 * listener registers (a kept hold's {@code closeAfter} registers one that releases it),
 * so the walk above sends no extra request and enters no extra file. A forced release
 * ({@code LockAdmin#forceRelease}, in {@link io.github.distlock.curator.HolderReleases})
 * advances the registered fence stores, then deletes the holder's node in one
 * multi-operation with a write of a notice node; each client's
 * {@link io.github.distlock.curator.ForcedReleases} keeps one persistent watch on it
 * (registered at each connection) and, on each notice, asks whether the node of each of
 * its holds exists: a hold whose node is gone is lost, as by its session
 * ({@code Session.Held#gone}). A hold is registered as its position handles the answer
 * that grants it, and ZooKeeper delivers that answer before the event of a notice written
 * after it ({@code ForceReleaseTests}, {@code ReleaseRequestTests}).
 * <h2>Leader election</h2> {@link io.github.distlock.curator.CuratorLeadership} (the
 * {@link io.github.distlock.core.Leadership} bean) runs on the same engine: one
 * {@link io.github.distlock.curator.Participant} per group (the membership and its node),
 * which waits in a queue position with the
 * {@linkplain io.github.distlock.curator.QueueDriver#LATCH latch driver} (Curator's
 * {@code LeaderLatch}: {@code latch-} nodes, the first leads) and, once its node is
 * first, holds a <em>tenure</em> that follows the connection and the node until it ends:
 * its {@link io.github.distlock.curator.Tenure} (leading, in doubt, draining, the epoch,
 * the open {@link io.github.distlock.curator.TenureHandle}s and who waits to lead). After
 * a reconnection in the same session, its {@link io.github.distlock.curator.LatchRecheck}
 * reads the queue again to learn whether the node is still first. All three are guarded
 * by the participant's monitor; its {@link io.github.distlock.curator.LeadingNodeWatch}
 * tells it when its leading node is deleted. A leader hands its tenure to a chosen member
 * ({@link io.github.distlock.curator.Transfers}, one at a time per group) through a
 * {@link io.github.distlock.curator.HandOff}: a
 * {@link io.github.distlock.curator.HandOffRequest} in the group node's data, which every
 * participant's {@link io.github.distlock.curator.HandOffWatch} reads, has the members
 * between leader and target queue again behind the target, then the leader drains and
 * deletes its node; the latch protocol alone still decides who leads, so a hand-off that
 * fails half-way leaves one leader. A group followed without taking part has an
 * {@link io.github.distlock.curator.Observation} (in the leadership's
 * {@link io.github.distlock.curator.Observations}): a watch on the group node's children
 * that tells each new leader. Preferred leaders
 * ({@link io.github.distlock.curator.PreferredLeaders}): a preferred member keeps an
 * ephemeral marker under {@code /leader-preferred/<group>}, outside the latch directory
 * that raw {@code LeaderLatch}es read, and a leader that is not preferred watches the
 * markers and the latch nodes while it leads, and hands off through {@code Transfers}
 * once a preferred member's one latch node has been in the queue for the delay; it reads
 * on one thread of its own per leadership, never the engine's request thread. A
 * participant refused by ZooKeeper keeps the refusal in its
 * {@link io.github.distlock.curator.ElectionFailures}, which tells each new cause once,
 * to the log and to the client's {@code UnhandledErrorListener}s. No thread is kept per
 * group. A join or a wait to lead that races {@code CuratorLeadership#close()} is either
 * refused or done before close leaves every group ({@code LeadershipCloseRaceTests}): no
 * latch node outlives the close.
 * <h2>Owned partitions</h2> {@code CuratorLeadership#partitions} joins a partitioned
 * group through its {@link io.github.distlock.curator.PartitionGroups} (one per
 * leadership, which stands every group aside while the locks drain): one
 * {@link io.github.distlock.curator.PartitionGroup} per group, bound to the session,
 * under {@code /partitions/<group>}. Its
 * {@link io.github.distlock.curator.PartitionMembers} keeps this instance's member node
 * (a protected ephemeral-sequential {@code member-} node whose data is the member id) and
 * the view of the live members: the children of {@code members}, watched, each new
 * child's data read once; the view is settled when no read of it is in flight, and only a
 * settled view decides. Its {@link io.github.distlock.curator.PartitionOwnerNodes} reads
 * and watches every owner node {@code owners/<index>} (an exists while absent) and
 * creates one, ephemeral, with the member id as data, only when it was read absent and
 * this instance is the partition's desired owner ({@code PartitionHash#ownerOf} the live
 * members, rendezvous hashing). A node read with our member id and our session's
 * ephemeral owner is claimed: a {@link io.github.distlock.curator.PartitionOwnership},
 * whose epoch is the node's creating zxid, told assigned by its
 * {@link io.github.distlock.curator.PartitionEvents}. An ownership whose partition
 * another member should own (the view changed, this instance leaves or drains) is given
 * up in three steps: the listeners told revoked (on the event thread; the future
 * completes once they returned), the guards entered under it closed (at most the
 * leadership's drain time, 10 s), then the node deleted; only its delete lets the desired
 * owner, which watches the node, create it. A member that joins is seen by every other
 * member before the delete of a node it should own: ZooKeeper tells a client the change
 * of {@code members} before the later delete, and answers its reads in order, so no
 * member judges that delete by a view without the newcomer. A suspension that the
 * connection-loss policy counts as lost gives every ownership up at once (told, not
 * deleted: the node is deleted once the connection is back in the same session, and never
 * claimed again); a session loss, or a reconnection in a new session, gives up every
 * ownership of the old session (told; the nodes died with it). An owner node of an old
 * session is never deleted by path: another member may own the partition by then.
 * ({@code PartitionsTests}.)
 * <h2>The states of a queue position</h2> The transitions of a
 * {@link io.github.distlock.curator.QueuePosition}, each with the test that forces it,
 * are the table of {@link io.github.distlock.curator.PositionState}. Transitions no
 * single test can force (they need a session to end between two particular answers) are
 * explored by the seeded, randomized history checker under faults. To show that it finds
 * what it must, its opt-in tests plant defects without the engine reading anything: a
 * test-side catalogue changes one line of an engine source file, compiles the patched
 * file at test time and runs the checker in a class loader that takes the engine's
 * classes from that output first (docs/failure-model.md, "Planted runs"). The catalogue
 * names each line by its exact text, so a changed line here fails the planted test until
 * the catalogue follows it.
 * <h2>The states of a leader's tenure</h2> A participant is not joined, queued (a queue
 * position with the latch driver, see its states), or has a node that led: leading, in
 * doubt, ended with its node kept, or draining. Relinquishing and leaving without open
 * handles are immediate: the node is deleted at once. A tenure is a hold of the node by
 * the same {@code Hold.Node} as a lock's (above), its epoch the node's creating zxid.
 * <table>
 * <caption>Transitions of a {@code Participant} and its {@code Tenure}, each with the
 * test that forces it</caption>
 * <tr>
 * <th>From</th>
 * <th>Event</th>
 * <th>To</th>
 * <th>Forced by</th>
 * </tr>
 * <tr>
 * <td>not joined</td>
 * <td>join, or a wait to lead</td>
 * <td>queued, once the namespace is ready</td>
 * <td>{@code LeaderLatchWireTests}</td>
 * </tr>
 * <tr>
 * <td>queued</td>
 * <td>the position holds: our node is first, the client connected, the node of the
 * session in use</td>
 * <td>leading, epoch the node's creating zxid; granted told, waiters completed</td>
 * <td>{@code LeaderLatchWireTests}</td>
 * </tr>
 * <tr>
 * <td>queued</td>
 * <td>a read fails for want of a connection; its answer comes after the connection's
 * return</td>
 * <td>queued: the position is resumed after 50 ms, not at the next reconnection</td>
 * <td>{@code LeadershipLateLossTests}</td>
 * </tr>
 * <tr>
 * <td>queued</td>
 * <td>our node vanished, or belongs to a session Curator replaced</td>
 * <td>queued with a new node (the old one deleted)</td>
 * <td>{@code LeadershipSessionLossTests}</td>
 * </tr>
 * <tr>
 * <td>leading</td>
 * <td>suspended, policy {@code SUSPENDED}</td>
 * <td>ended, node kept; revoked told; open handles {@code LOST}</td>
 * <td>{@code LeadershipConnectionTests}</td>
 * </tr>
 * <tr>
 * <td>leading</td>
 * <td>suspended, policy {@code LOST}</td>
 * <td>in doubt: not leader for new work, open handles {@code IN_DOUBT}</td>
 * <td>{@code LeadershipConnectionTests}</td>
 * </tr>
 * <tr>
 * <td>in doubt, or ended with its node kept</td>
 * <td>reconnected in the same session; the queue, read again, still has our node
 * first</td>
 * <td>leading with the same epoch (from ended: a new tenure, granted told again)</td>
 * <td>{@code LeadershipConnectionTests}</td>
 * </tr>
 * <tr>
 * <td>in doubt, or ended with its node kept</td>
 * <td>reconnected in the same session; our node is not first any more, or gone</td>
 * <td>queued with a new node; revoked told if it was in doubt</td>
 * <td>{@code TenureRecheckTests}</td>
 * </tr>
 * <tr>
 * <td>in doubt, or ended with its node kept</td>
 * <td>the re-read fails for want of a connection; its answer comes after the connection's
 * return</td>
 * <td>unchanged; read again after 50 ms</td>
 * <td>{@code TenureRecheckTests}</td>
 * </tr>
 * <tr>
 * <td>leading, in doubt, ended with its node kept</td>
 * <td>the session is lost, or the connection returns in a new session (a handle asked
 * after Curator replaced the session ends the tenure then, as a hold's loss)</td>
 * <td>revoked told; the old node deleted (a server may keep the old session a while);
 * queued with a new node once the connection is back</td>
 * <td>{@code LeadershipSessionLossTests}, {@code LeadershipFaultTests},
 * {@code LateSessionLossTests}</td>
 * </tr>
 * <tr>
 * <td>leading, or queued, in a new session</td>
 * <td>the loss of the earlier session, told after the client connected in the new
 * one</td>
 * <td>unchanged: leading with the same epoch, no revoked told; a follower keeps its
 * node</td>
 * <td>{@code LateSessionLossTests}</td>
 * </tr>
 * <tr>
 * <td>leading</td>
 * <td>our node is deleted by another client</td>
 * <td>queued with a new node; revoked told; leads again with a new epoch</td>
 * <td>{@code TenureTransitionsTests}</td>
 * </tr>
 * <tr>
 * <td>leading</td>
 * <td>relinquish</td>
 * <td>queued at the end with a new node; revoked told; the node deleted</td>
 * <td>{@code LeaderLatchWireTests}</td>
 * </tr>
 * <tr>
 * <td>leading, with open handles</td>
 * <td>leave, or the election closes</td>
 * <td>draining: not leader for new work, the open handles still {@code HELD}, the node
 * still first, so nobody else leads yet</td>
 * <td>{@code TenureTransitionsTests}</td>
 * </tr>
 * <tr>
 * <td>draining</td>
 * <td>the last open handle is closed</td>
 * <td>not joined at once: revoked told, the node deleted (the leave completes on its
 * confirmation)</td>
 * <td>{@code TenureTransitionsTests}</td>
 * </tr>
 * <tr>
 * <td>draining</td>
 * <td>the drain limit (10 s) is over with handles still open</td>
 * <td>not joined: revoked told, the node deleted, the open handles {@code LOST}</td>
 * <td>{@code TenureTransitionsTests}</td>
 * </tr>
 * <tr>
 * <td>queued, or leading without open handles</td>
 * <td>leave, or the election closes</td>
 * <td>not joined: the position abandoned or the node deleted at once; waiters fail</td>
 * <td>{@code LeadershipFaultTests}</td>
 * </tr>
 * <tr>
 * <td>not joined</td>
 * <td>a join or a wait to lead that passed the closed check as the election closed</td>
 * <td>not joined: close waits for the join, then leaves the group</td>
 * <td>{@code LeadershipCloseRaceTests}</td>
 * </tr>
 * </table>
 * <p>
 * {@link io.github.distlock.curator.CuratorScheduledJobs} keeps the records of jobs that
 * run once per slot, persistent nodes {@code /jobs/<name>} beside the lock subtrees,
 * written only with version-checked writes, and runs a job's slot under its mutex
 * {@code jobs/<name>}.
 */
@NullMarked
package io.github.distlock.curator;

import org.jspecify.annotations.NullMarked;
