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
 */
@NullMarked
package io.github.distlock.core;

import org.jspecify.annotations.NullMarked;
