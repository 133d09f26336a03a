/**
 * The randomized, seeded history checker of the engine (the invariants of
 * docs/failure-model.md, leadership included):
 * {@link io.github.distlock.history.HistoryCheckerTests} runs a
 * {@link io.github.distlock.history.CheckerRun}: distlock nodes
 * ({@link io.github.distlock.history.DistlockActor}) and a raw Curator client
 * ({@link io.github.distlock.history.CuratorActor}) on an
 * {@link io.github.distlock.testsupport.ZooKeeperEnsemble} under the faults of a
 * {@link io.github.distlock.history.FaultInjector}; every hold goes through
 * {@link io.github.distlock.history.FencedLocks}; the
 * {@link io.github.distlock.history.History} is judged by
 * {@link io.github.distlock.history.HistoryAnalysis}. A steered phase at the run's start
 * sets up downgrades across the end of the write hold's session, each asked for in the
 * client's new session, then holds a mutex of the {@code LOST}-policy node while its own
 * relays are cut until Curator gives its session up (the loss must be told before any
 * reconnection), then, in runs with leadership, gives up on its client the session of a
 * distlock member that leads (the server keeps that session, and its latch node, one more
 * session timeout: the member must delete it), before the random faults begin. Beside the
 * locks, the same clients take part in leader elections
 * ({@link io.github.distlock.history.LeaderMember}: the engine's leadership,
 * {@link io.github.distlock.history.DistlockMember}, and a raw Curator
 * {@code LeaderLatch}, {@link io.github.distlock.history.LatchMember}), each driven by a
 * {@link io.github.distlock.history.LeaderActor} that writes to the same fenced store
 * with its epoch, hands tenures over (judged by
 * {@link io.github.distlock.history.Transfers}: the target of a transfer that succeeded
 * is told it leads with the returned epoch, unless it was not live and ready) and drains
 * one member's engine; their "I lead" intervals are recorded by
 * {@link io.github.distlock.history.Leads}, watched for leaderless groups by
 * {@link io.github.distlock.history.LeaderLiveness}, and judged by
 * {@link io.github.distlock.history.LeadershipAnalysis} (an old leader's overlap or stale
 * write is excused only if its session was lost and its tenure answered no ask begun
 * after every listener of its client had handled the trouble that it still held, known
 * from its {@link io.github.distlock.history.Dispatches}; no time bound on when it was
 * told its end); an observer client that no fault is aimed at lists the groups' latch
 * nodes, and {@link io.github.distlock.history.LatchPresence} judges that every connected
 * member keeps its node of its current session, and deletes every node of an earlier
 * session it is seen with once its client reported that session lost and connected in a
 * new one (judged from the delete answers its client got, with no time bound, see
 * {@link io.github.distlock.history.Node}); a calm leadership phase in each run (no
 * membership changes, the sessions of a waiting and of a leading member ended on their
 * clients, no other fault; a raw latch that leads while no distlock member does
 * relinquishes first) gives the presence rule quiet windows. Faults include sessions
 * expired by their client while the server keeps them and the quorum away past the
 * session timeout, and another client deleting a waiting member's latch node
 * ({@link io.github.distlock.history.LatchDeletes}; the first faults after the steered
 * phase delete two such nodes one behind the other, the later first, so its member finds
 * its node gone at once and must queue again); one distlock member leads, and one node's
 * locks are held, under the {@code LOST} policy. A
 * {@link io.github.distlock.history.HoldWatcher} per distlock node holds a mutex for
 * seconds, asking its state on a timer or only listening for the loss listener: a
 * {@code HELD} answer after a reported loss, and a loss not told in time, are violations.
 * In runs with leadership, each distlock node also takes part in a partitioned group
 * ({@link io.github.distlock.history.PartitionMember}, on an engine of its own, joining,
 * leaving and joining again); {@link io.github.distlock.history.Owners} records its
 * ownership intervals and judges them (never two owners beyond the session rule, epochs
 * growing from one owner to the next, every partition owned again in the calm phase).
 * Opt-in, {@link io.github.distlock.history.ParentRemake} deletes a busy mutex queue's
 * parent and makes it again under a raw holder.
 * {@link io.github.distlock.history.PlantedCatalogueTests} (opt-in) plants each defect of
 * the catalogue {@link io.github.distlock.history.PlantedDefect} by patching the engine's
 * source at test time ({@link io.github.distlock.history.PatchedEngine}: compiled, and
 * run through {@link io.github.distlock.history.PlantedRun} in a class loader of its own)
 * and reports on which seeds the checker finds it;
 * {@link io.github.distlock.history.PlantedLeadershipDefectsCheckerTests} does so for the
 * two older leadership defects. Built on the shared test support ({@code Faults},
 * {@code ServerWatches}, {@code ZooKeeperNodes}) and the {@code distlock-tcp-relay}
 * module's {@code TcpRelay}; nothing here is used by other test packages.
 * <p>
 * The fenced store's real-database variant, distlock-spring's
 * {@code io.github.distlock.transaction.FencedCommitsCheckerTests}, runs rounds of
 * holders that write through distlock's fenced transactions (JDBC and R2DBC) to H2 and
 * PostgreSQL under the same kinds of faults ({@code FencedCommitRounds}) and judges what
 * the database committed ({@code FencedCommits}).
 */
package io.github.distlock.history;
