package io.github.distlock.transaction;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The history checker's fenced store on a real database: holders write through distlock's
 * fenced transactions ({@code FencedTransactions}) to H2 with the fence table, under the
 * checker's faults, and the database's record of what it committed is judged (see
 * {@link FencedCommitRounds}, {@link FencedCommits}): no stale commit accepted, no
 * rightful commit refused. A short run with a fixed seed is part of the build; a long run
 * is opt-in:
 *
 * <pre>
 * ./mvnw -pl distlock-spring-boot-autoconfigure -am -Dsurefire.failIfNoSpecifiedTests=false test -Dtest=FencedCommitsCheckerTests \
 *     -Ddistlock.history.fenced.rounds=1000 [-Ddistlock.history.fenced.seed=42] \
 *     [-Ddistlock.history.fenced.servers=3]
 * </pre>
 */
class FencedCommitsCheckerTests {

	/** The short run's seed. */
	private static final long SHORT_RUN_SEED = 7;

	private static final int SHORT_RUN_ROUNDS = 12;

	@Test
	void shortRunAcceptsNoStaleCommitAndRefusesNoRightfulOne() throws Exception {
		long seed = Long.getLong("distlock.history.fenced.seed", SHORT_RUN_SEED);
		FencedCommitRounds.Result result = new FencedCommitRounds(settings(seed, SHORT_RUN_ROUNDS)).execute();
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
		FencedCommitRounds.Result result = new FencedCommitRounds(settings(seed, rounds)).execute();
		System.out.println("[measure] " + result.report());
		assertThat(result.violations()).as(result.report()).isEmpty();
	}

	private static FencedCommitRounds.Settings settings(long seed, int rounds) {
		return new FencedCommitRounds.Settings(seed, rounds, Integer.getInteger("distlock.history.fenced.servers", 1));
	}

}
