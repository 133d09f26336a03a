/**
 * distlock's lock engine: the protocols of Apache Curator's lock recipes, node for node,
 * driven by ZooKeeper's answers and watches on Curator's asynchronous API.
 * <p>
 * One noun per step of a lock's life:
 * <ul>
 * <li>{@link io.github.distlock.curator.Attempt}: one acquisition in flight, from the
 * call to its outcome (a hold, a timeout, a cancellation or a failure); its outcome
 * future is where a grant and a deadline that meet are told apart. It first takes its
 * turn in the application's {@link io.github.distlock.curator.LocalQueues local queue} of
 * an exclusive lock, then works in ZooKeeper through its queue positions.</li>
 * <li>{@link io.github.distlock.curator.QueuePosition}: our node in one queue of
 * ZooKeeper, the acquisition state machine (create and first read pipelined, watch,
 * re-read, re-create when the session ended); the same for every protocol.</li>
 * <li>{@link io.github.distlock.curator.QueueDriver}: a protocol's rules, one driver per
 * protocol (mutex, read, write, semaphore lease): how nodes are named and sorted, when
 * one holds, what a waiter watches.</li>
 * <li>{@link io.github.distlock.curator.Hold}: a granted node, following its session
 * until it is released (delete sent, confirmation optional) or lost.</li>
 * <li>{@link io.github.distlock.core.LockHandle}: what the caller holds; a
 * {@link io.github.distlock.core.LockScope} hands out one per acquisition, re-entries
 * included, and closes the hold with the last.</li>
 * </ul>
 * {@link io.github.distlock.curator.CuratorLock} is the programmatic entry point of one
 * lock (the synchronous call is the asynchronous one awaited),
 * {@link io.github.distlock.curator.CuratorLocks} the engine on one client: connection
 * state, holds and attempts, the {@link io.github.distlock.curator.DeadlineTimer deadline
 * timer}, loss reports.
 */
@NullMarked
package io.github.distlock.curator;

import org.jspecify.annotations.NullMarked;
