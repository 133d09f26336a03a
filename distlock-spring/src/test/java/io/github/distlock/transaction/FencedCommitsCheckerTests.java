package io.github.distlock.transaction;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.github.distlock.testsupport.EmbeddedPostgresExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The history checker's fenced store on a real database: holders write through distlock's
 * fenced transactions to a database with the fence table, under the checker's faults, and
 * the database's record of what it committed is judged (see {@link FencedCommitRounds},
 * {@link FencedCommits}): no stale commit accepted, no rightful commit refused. The
 * stores: H2 through JDBC ({@code FencedTransactions}), and a real PostgreSQL (embedded)
 * through JDBC, through R2DBC ({@code FencedReactiveTransactions}) and through the
 * annotation (a Spring context per node, a {@code @DistributedLock(fenced = true)} and
 * {@code @Transactional} method). A short run of each with a fixed seed is part of the
 * build; a long run is opt-in:
 *
 * <pre>
 * ./mvnw -pl distlock-spring -am -Dsurefire.failIfNoSpecifiedTests=false test -Dtest=FencedCommitsCheckerTests \
 *     -Ddistlock.history.fenced.rounds=1000 [-Ddistlock.history.fenced.store=postgres-r2dbc] \
 *     [-Ddistlock.history.fenced.seed=42] [-Ddistlock.history.fenced.servers=3]
 * </pre>
 *
 * The long run's store is {@code h2} (the default), {@code postgres-jdbc},
 * {@code postgres-r2dbc} or {@code postgres-annotation}.
 */
class FencedCommitsCheckerTests {

	/** The short run's seed. */
	private static final long SHORT_RUN_SEED = 7;

	private static final int SHORT_RUN_ROUNDS = 12;

	@RegisterExtension
	static final EmbeddedPostgresExtension postgres = new EmbeddedPostgresExtension();

	@Test
	void shortRunOnH2AcceptsNoStaleCommitAndRefusesNoRightfulOne() throws Exception {
		shortRun(FencedCommits.Store.h2(FencedCommits.Access.JDBC));
	}

	@Test
	void shortRunOnPostgresThroughJdbcAcceptsNoStaleCommitAndRefusesNoRightfulOne() throws Exception {
		shortRun(FencedCommits.Store.postgres(postgres, FencedCommits.Access.JDBC));
	}

	@Test
	void shortRunOnPostgresThroughR2dbcAcceptsNoStaleCommitAndRefusesNoRightfulOne() throws Exception {
		shortRun(FencedCommits.Store.postgres(postgres, FencedCommits.Access.R2DBC));
	}

	@Test
	void shortRunOnPostgresThroughTheAnnotationAcceptsNoStaleCommitAndRefusesNoRightfulOne() throws Exception {
		shortRun(FencedCommits.Store.postgres(postgres, FencedCommits.Access.ANNOTATION));
	}

	private static void shortRun(FencedCommits.Store store) throws Exception {
		long seed = Long.getLong("distlock.history.fenced.seed", SHORT_RUN_SEED);
		FencedCommitRounds.Result result = new FencedCommitRounds(settings(seed, SHORT_RUN_ROUNDS, store)).execute();
		System.out.println("[measure] " + result.report());
		assertThat(result.violations()).as(result.report()).isEmpty();
		// A run that refused no stale commit, proved no holder rightful or ended no
		// session would prove nothing.
		assertThat(result.judgement().refused()).as(result.report()).isPositive();
		assertThat(result.judgement().proven()).as(result.report()).isPositive();
		assertThat(result.faults()).as(result.report()).containsKey("session");
	}

	@Test
	@EnabledIfSystemProperty(named = "distlock.history.fenced.rounds", matches = "\\d+")
	void longRunAcceptsNoStaleCommitAndRefusesNoRightfulOne() throws Exception {
		int rounds = Integer.getInteger("distlock.history.fenced.rounds");
		long seed = Long.getLong("distlock.history.fenced.seed", System.nanoTime() % 100_000);
		FencedCommits.Store store = switch (System.getProperty("distlock.history.fenced.store", "h2")) {
			case "postgres-jdbc" -> FencedCommits.Store.postgres(postgres, FencedCommits.Access.JDBC);
			case "postgres-r2dbc" -> FencedCommits.Store.postgres(postgres, FencedCommits.Access.R2DBC);
			case "postgres-annotation" -> FencedCommits.Store.postgres(postgres, FencedCommits.Access.ANNOTATION);
			default -> FencedCommits.Store.h2(FencedCommits.Access.JDBC);
		};
		FencedCommitRounds.Result result = new FencedCommitRounds(settings(seed, rounds, store)).execute();
		System.out.println("[measure] " + result.report());
		assertThat(result.violations()).as(result.report()).isEmpty();
	}

	private static FencedCommitRounds.Settings settings(long seed, int rounds, FencedCommits.Store store) {
		return new FencedCommitRounds.Settings(seed, rounds, Integer.getInteger("distlock.history.fenced.servers", 1),
				store);
	}

}
