/**
 * The randomized, seeded history checker of the engine (DESIGN §2, issue 18):
 * {@link io.github.distlock.history.HistoryCheckerTests} runs a
 * {@link io.github.distlock.history.CheckerRun}: distlock nodes
 * ({@link io.github.distlock.history.DistlockActor}) and a raw Curator client
 * ({@link io.github.distlock.history.CuratorActor}) on an
 * {@link io.github.distlock.history.Ensemble} under the faults of a
 * {@link io.github.distlock.history.FaultInjector}; every hold goes through
 * {@link io.github.distlock.history.FencedLocks}; the
 * {@link io.github.distlock.history.History} is judged by
 * {@link io.github.distlock.history.HistoryAnalysis}. Built on the shared test support
 * ({@code Faults}, {@code TcpRelay}, {@code ServerWatches}, {@code ZooKeeperNodes});
 * nothing here is used by other test packages.
 */
package io.github.distlock.history;
