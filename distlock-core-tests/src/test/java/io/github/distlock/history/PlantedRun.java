package io.github.distlock.history;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * One checker run against the engine with a defect planted: the entry that
 * {@link PatchedEngine#call} starts inside the patched class loader. It takes and returns
 * JDK types only.
 */
final class PlantedRun {

	private PlantedRun() {
	}

	/**
	 * Run the checker as the defect's setup says.
	 * @param defect the defect's name
	 * @param seed the seed
	 * @param seconds how long the actors run
	 * @return when the first violation that shows the defect happened, in milliseconds
	 * into the run ({@code -1} if none did), then a line of what was found, then the
	 * run's report
	 */
	static String[] run(String defect, long seed, long seconds) throws Exception {
		PlantedDefect planted = PlantedDefect.of(defect);
		CheckerRun run = planted.checkerRun(seed, Duration.ofSeconds(seconds));
		CheckerRun.Result result = run.execute();
		HistoryCheckerTests.dump(run, seed);
		Optional<CheckerRun.Violation> found = result.violations()
			.stream()
			.filter((violation) -> planted.foundBy(violation.category()))
			.findFirst();
		long millis = found.map((violation) -> TimeUnit.NANOSECONDS.toMillis(violation.nanos() - result.runStart()))
			.orElse(-1L);
		String line = result.violations().size() + " violation(s) " + result.byCategory() + ", " + result.holds()
				+ " holds, " + result.faults() + " faults";
		return new String[] { Long.toString(millis), line,
				found.map(CheckerRun.Violation::text).orElse("") + "\n" + result.report() };
	}

}
