package io.github.distlock.history;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The randomized history checker of the engine (docs/failure-model.md): distlock nodes
 * and a raw Curator client take every kind of lock at random on a few paths, and lead two
 * groups (docs/leadership.md) with the engine's leadership and a raw {@code LeaderLatch},
 * while faults end sessions, stop servers and pause the network; the history is recorded
 * and judged (see {@link CheckerRun}, {@link FencedLocks}, {@link HistoryAnalysis},
 * {@link LeadershipAnalysis}). A short run with a fixed seed is part of the build; a long
 * run is opt-in:
 *
 * <pre>
 * ./mvnw -pl distlock-core-tests -am -Dsurefire.failIfNoSpecifiedTests=false test -Dtest=HistoryCheckerTests \
 *     -Ddistlock.history.minutes=10 [-Ddistlock.history.seed=42] [-Ddistlock.history.servers=3]
 * </pre>
 *
 * A sweep over seeds, each for the short run's time ({@code -Ddistlock.history.seconds=},
 * 20 by default): {@code -Dtest='HistoryCheckerTests#seedSweepKeepsEveryInvariant'
 * -Ddistlock.history.seeds=1-20}. {@code -Ddistlock.history.dump=DIR} writes each run's
 * whole history to {@code DIR/history-SEED.txt};
 * {@code -Ddistlock.history.leadership=false} leaves the leadership workload out.
 * <p>
 * A failure prints the seed, the thread and its operation number, and an excerpt of the
 * history around each violation; {@code -Ddistlock.history.seed=} replays the same
 * operations and faults (docs/failure-model.md, "History checker").
 */
class HistoryCheckerTests {

	/** The short run's seed. */
	private static final long SHORT_RUN_SEED = 18;

	@Test
	void shortRunKeepsEveryInvariant() throws Exception {
		long seed = Long.getLong("distlock.history.seed", SHORT_RUN_SEED);
		Duration duration = Duration.ofSeconds(Long.getLong("distlock.history.seconds", 20));
		CheckerRun run = new CheckerRun(settings(seed, duration));
		CheckerRun.Result result = run.execute();
		dump(run, seed);
		System.out.println("[measure] " + result.report());
		assertThat(result.violations()).as(result.report()).isEmpty();
		// A run that took no locks or injected no fault would prove nothing.
		assertThat(result.holds()).as(result.report()).isGreaterThan(100);
		assertThat(result.faults()).as(result.report()).isGreaterThanOrEqualTo(3);
		// Nor one where leadership did not move.
		if (result.settings().leadership()) {
			assertThat(result.tenures()).as(result.report()).isGreaterThan(10);
		}
	}

	@Test
	@EnabledIfSystemProperty(named = "distlock.history.minutes", matches = "\\d+")
	void longRunKeepsEveryInvariant() throws Exception {
		long minutes = Long.getLong("distlock.history.minutes");
		long seed = Long.getLong("distlock.history.seed", System.nanoTime() % 100_000);
		CheckerRun run = new CheckerRun(settings(seed, Duration.ofMinutes(minutes)));
		CheckerRun.Result result = run.execute();
		dump(run, seed);
		System.out.println("[measure] " + result.report());
		assertThat(result.violations()).as(result.report()).isEmpty();
	}

	@Test
	@EnabledIfSystemProperty(named = "distlock.history.seeds", matches = "\\d+-\\d+")
	void seedSweepKeepsEveryInvariant() throws Exception {
		String[] range = System.getProperty("distlock.history.seeds").split("-");
		Duration duration = Duration.ofSeconds(Long.getLong("distlock.history.seconds", 20));
		List<String> lines = new ArrayList<>();
		int failed = 0;
		for (long seed = Long.parseLong(range[0]); seed <= Long.parseLong(range[1]); seed++) {
			CheckerRun run = new CheckerRun(settings(seed, duration));
			CheckerRun.Result result = run.execute();
			dump(run, seed);
			System.out.println("[measure] " + result.report());
			String line = "seed " + seed + ": " + result.violations().size() + " violation(s) " + result.byCategory()
					+ " in " + result.millis() + " ms";
			System.out.println("[sweep] " + line);
			lines.add(line);
			failed += result.violations().isEmpty() ? 0 : 1;
		}
		System.out.println("[measure] seed sweep " + System.getProperty("distlock.history.seeds") + ", "
				+ duration.toSeconds() + " s each:\n" + String.join("\n", lines));
		assertThat(failed).as(String.join("\n", lines)).isZero();
	}

	/**
	 * The checker finds what it must: each run plants a defect in the engine (by
	 * {@link PatchedEngine}, see {@link PlantedDefect}) and must find it through the
	 * fenced store's overlaps and rejections (not only through an actor's own check), on
	 * every seed of {@code -Ddistlock.history.seeds=} (1 to 10 by default), each for the
	 * short run's time. {@code -Ddistlock.history.planted=} {@code downgrade} (both
	 * checks of a lost write hold's downgrade removed), {@code ceiling} (nodes at the
	 * ceiling of sequence numbers sorted by their protected-mode UUID; queues start at
	 * the ceiling, one server, no raw Curator actor, a contended mutex in about a third
	 * of the distlock threads' operations) or {@code all}. The whole catalogue is
	 * {@link PlantedCatalogueTests}.
	 */
	@Test
	@EnabledIfSystemProperty(named = "distlock.history.planted", matches = "downgrade|ceiling|all")
	void plantedDefectsAreFound() throws Exception {
		String planted = System.getProperty("distlock.history.planted");
		int missed = 0;
		for (PlantedDefect defect : List.of(PlantedDefect.DOWNGRADE, PlantedDefect.CEILING)) {
			if (planted.equals(defect.id()) || planted.equals("all")) {
				PlantedCatalogueTests.Sweep sweep = PlantedCatalogueTests.sweep(defect,
						PlantedCatalogueTests.seeds("1-10"));
				missed += sweep.seeds() - sweep.found();
			}
		}
		assertThat(missed).as("seeds on which a planted defect was not found").isZero();
	}

	/**
	 * With {@code -Ddistlock.history.dump=DIR}, write the whole history of a run there.
	 */
	static void dump(CheckerRun run, long seed) throws IOException {
		String directory = System.getProperty("distlock.history.dump");
		if (directory != null) {
			Path file = Path.of(directory, "history-" + seed + ".txt");
			Files.createDirectories(file.getParent());
			Files.write(file, run.historyLines());
		}
	}

	private static CheckerRun.Settings settings(long seed, Duration duration) {
		int servers = Integer.getInteger("distlock.history.servers", 3);
		boolean leadership = Boolean.parseBoolean(System.getProperty("distlock.history.leadership", "true"));
		return new CheckerRun.Settings(seed, duration, servers, 3, 2, 2, true, leadership);
	}

}
