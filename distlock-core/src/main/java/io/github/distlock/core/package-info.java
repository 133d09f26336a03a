/**
 * The programmatic lock API of distlock: {@link io.github.distlock.core.Locks}, the locks
 * it hands out, their handles and the exceptions. Nothing here knows Spring AOP or
 * Curator.
 * <p>
 * Jobs that run once per slot: {@link io.github.distlock.core.ScheduledJobs} claims a
 * <b>slot</b> (a planned firing time of a {@link io.github.distlock.core.JobSchedule})
 * for a <b>run</b> ({@link io.github.distlock.core.JobRun}, with its
 * {@link io.github.distlock.core.JobOutcome}); a <b>firing</b>
 * ({@link io.github.distlock.core.JobFiring}) either runs its slot or is skipped for a
 * {@link io.github.distlock.core.JobSkip reason}.
 * <p>
 * Owned partitions: {@link io.github.distlock.core.Partitions} is an instance's
 * membership of a partitioned group; each <b>partition</b> has at most one
 * <b>ownership</b> at a time (an {@link io.github.distlock.core.OwnedPartition} with its
 * epoch), <b>assigned</b> and <b>revoked</b> to the
 * {@link io.github.distlock.core.PartitionListener}s; work <b>entered</b> under it
 * ({@link io.github.distlock.core.PartitionGuard}) holds its hand-over. Keys and owners
 * are placed by {@link io.github.distlock.core.PartitionHash}.
 * <h2>One noun per step of a lock's life</h2> The same words are used in the code, the
 * documentation, the endpoint and the metrics:
 * <ul>
 * <li><b>lock</b>: what is asked for, a path with a
 * {@link io.github.distlock.core.LockKind kind}: a
 * {@link io.github.distlock.core.ClusterLock}, or a
 * {@link io.github.distlock.core.MultiLock} for several taken together. Both are
 * {@link io.github.distlock.core.Acquirable}.</li>
 * <li><b>holder</b>: who asks and holds, a {@link io.github.distlock.core.LockScope}: the
 * calling thread for a synchronous acquisition, a scope of its own for an asynchronous,
 * reactive or coroutine call. Reentrancy belongs to the holder. Snapshots name it by the
 * scope's name ({@code holder}).</li>
 * <li><b>acquisition</b>: one request of a holder for a lock, from its start to its
 * outcome (granted, timed out, cancelled or failed). While it waits it is listed as a
 * {@link io.github.distlock.core.WaitingAcquisition}; listeners follow it through a
 * {@link io.github.distlock.core.LockEventListener.AcquisitionListener}. In the engine it
 * is an {@code Acquisition} that first takes its <b>turn</b> in the client's local queue
 * (one acquisition per exclusive lock and client works in ZooKeeper at a time), then
 * waits with its <b>node</b> (the sequential ZooKeeper node of the protocol) in the
 * lock's queue.</li>
 * <li><b>hold</b>: a granted acquisition, until it is released or lost: listed as a
 * {@link io.github.distlock.core.HeldLock}, with its
 * {@link io.github.distlock.core.LockState state} and fencing token. A re-entry or a
 * downgrade enters the holder's hold instead of making a new one.</li>
 * <li><b>handle</b>: what the holder keeps of a hold, and closes to release it: a
 * {@link io.github.distlock.core.Handle}, that is a
 * {@link io.github.distlock.core.LockHandle} for one lock or a
 * {@link io.github.distlock.core.MultiLockHandle} for a set. Each acquisition, re-entries
 * included, gets a handle of its own; the hold is released with the last.</li>
 * <li><b>release</b> and <b>loss</b>: how a hold ends, by its holder or with its session.
 * A lost hold gives up its turn at once; its holder learns of the loss through its
 * handle's state.</li>
 * </ul>
 * A <b>call</b> is one invocation of a locked method; the interceptor makes one
 * acquisition per call (see {@code io.github.distlock.interceptor}).
 * <h2>The nouns</h2> One name per concept of the API; an old name stays, deprecated for
 * removal, where users may have it:
 * <table>
 * <caption>The nouns of the API</caption>
 * <tr>
 * <th>Concept</th>
 * <th>Name</th>
 * <th>Deprecated</th>
 * </tr>
 * <tr>
 * <td>lock: what a holder acquires</td>
 * <td>{@link io.github.distlock.core.ClusterLock} (one path and kind),
 * {@link io.github.distlock.core.MultiLock} (several, all or none); both
 * {@link io.github.distlock.core.Acquirable}</td>
 * <td></td>
 * </tr>
 * <tr>
 * <td>handle: what the holder keeps of a granted acquisition, and closes</td>
 * <td>{@link io.github.distlock.core.LockHandle} (of a {@code ClusterLock}),
 * {@link io.github.distlock.core.MultiLockHandle} (of a {@code MultiLock});
 * {@link io.github.distlock.core.Handle} is either</td>
 * <td></td>
 * </tr>
 * <tr>
 * <td>held lock: a read-only snapshot of a hold, for listings and loss listeners</td>
 * <td>{@link io.github.distlock.core.HeldLock}; a waiter's is a
 * {@link io.github.distlock.core.WaitingAcquisition}</td>
 * <td></td>
 * </tr>
 * <tr>
 * <td>kind: what a handle holds</td>
 * <td>{@link io.github.distlock.core.LockKind}; its {@code isLock()} tells the four kinds
 * of lock from {@code LEADER}</td>
 * <td></td>
 * </tr>
 * <tr>
 * <td>protocol: the queue a kind's nodes wait in (the kind of a queue node)</td>
 * <td>{@link io.github.distlock.core.LockProtocol}</td>
 * <td>{@code LockQueue.Kind}, {@code LockQueue.kind()}</td>
 * </tr>
 * <tr>
 * <td>queue: a lock's nodes as ZooKeeper has them</td>
 * <td>{@link io.github.distlock.core.LockQueue} of
 * {@link io.github.distlock.core.LockParticipant}s</td>
 * <td></td>
 * </tr>
 * </table>
 * Why the names are what they are:
 * <ul>
 * <li>A handle has a type per shape because the shapes answer differently: one lock has a
 * path, a kind and a fencing token, a set has one of each per lock. Both are a
 * {@code Handle}, which is what code that takes either (and {@code Acquirable}) names.
 * The word "handle" means nothing else, and "lock" nothing that cannot be acquired: the
 * snapshot is a <em>held</em> lock, a value, never closed.</li>
 * <li>A protocol is not a kind: the read and write sides of a read/write lock are two
 * kinds (a handle holds one or the other) that wait in one queue. The queue's kind was a
 * second enum nested in {@code LockQueue} that repeated three of the kinds' names; it is
 * now {@code LockProtocol}, which {@link io.github.distlock.core.LockKind#protocol()}
 * maps every kind to.</li>
 * <li>{@code LockKind.LEADER} stays a kind: a leader's tenure is held through a
 * {@code LockHandle} (a {@code @LeaderOnly} call finds it in its {@code LockContext},
 * with the epoch as its fencing token, and loses it with its session, as a lock), so the
 * kind of what a handle holds has to name it. What it is not is a lock that
 * {@link io.github.distlock.core.Locks} hands out or that a holder acquires:
 * {@code LockKind.isLock()} says so where it matters, and leadership has its own API
 * ({@link io.github.distlock.core.Leadership}) and protocol
 * ({@code LockProtocol.LEADER_LATCH}).</li>
 * </ul>
 */
@NullMarked
package io.github.distlock.core;

import org.jspecify.annotations.NullMarked;
