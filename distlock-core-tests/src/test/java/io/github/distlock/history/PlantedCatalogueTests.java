package io.github.distlock.history;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The history checker against the engine with each defect of the catalogue planted
 * ({@link PlantedDefect}, planted by {@link PatchedEngine}), opt-in: for each defect and
 * seed, a run of the short run's time ({@code -Ddistlock.history.seconds=}, 20 by
 * default); prints per defect and seed whether the checker found it and how long into the
 * run the first violation that shows it happened, and fails if a defect was found on
 * fewer than nine in ten of the seeds, unless a deterministic test that runs in the
 * normal build stands for it ({@link PlantedDefect#standIn()}):
 *
 * <pre>
 * ./mvnw -B -pl distlock-core-tests -am -Dsurefire.failIfNoSpecifiedTests=false test -Dtest=PlantedCatalogueTests \
 *     -Ddistlock.planted=all -Ddistlock.history.seeds=101-110
 * </pre>
 *
 * {@code -Ddistlock.planted=} takes {@code all} or a comma-separated list of the defects'
 * names ({@code hold-ignores-loss,lost-hold-reports-held,...}).
 */
class PlantedCatalogueTests {

	@Test
	@EnabledIfSystemProperty(named = "distlock.planted", matches = ".+")
	void theCheckerFindsEachPlantedDefect() throws Exception {
		String planted = System.getProperty("distlock.planted");
		List<PlantedDefect> defects = planted.equals("all") ? List.of(PlantedDefect.values())
				: Arrays.stream(planted.split(",")).map(String::trim).map(PlantedDefect::of).toList();
		List<String> failures = new ArrayList<>();
		for (PlantedDefect defect : defects) {
			Sweep sweep = sweep(defect, seeds("1-10"));
			if (sweep.found() * 10 >= sweep.seeds() * 9) {
				continue;
			}
			if (defect.standIn() != null) {
				System.out.println("[planted] " + defect.id() + " found on " + sweep.found() + " of " + sweep.seeds()
						+ " seeds; the deterministic " + defect.standIn() + " stands for it");
			}
			else {
				failures.add(defect.id() + " found on " + sweep.found() + " of " + sweep.seeds() + " seeds");
			}
		}
		assertThat(failures).as("defects found on fewer than 9 in 10 seeds").isEmpty();
	}

	/** The seeds of {@code -Ddistlock.history.seeds=FROM-TO}, or of the default range. */
	static long[] seeds(String otherwise) {
		String[] range = System.getProperty("distlock.history.seeds", otherwise).split("-");
		long from = Long.parseLong(range[0]);
		long to = Long.parseLong(range[range.length - 1]);
		long[] seeds = new long[(int) (to - from + 1)];
		for (int i = 0; i < seeds.length; i++) {
			seeds[i] = from + i;
		}
		return seeds;
	}

	/**
	 * Run the checker on each seed with the defect planted, printing what was found.
	 * @return on how many of the seeds the defect was found
	 */
	static Sweep sweep(PlantedDefect defect, long[] seeds) throws Exception {
		long seconds = Long.getLong("distlock.history.seconds", 20);
		List<String> lines = new ArrayList<>();
		int found = 0;
		try (PatchedEngine engine = PatchedEngine.plant(defect)) {
			for (long seed : seeds) {
				String[] outcome = (String[]) engine.call(PlantedRun.class.getName(), "run", defect.id(), seed,
						seconds);
				long millis = Long.parseLong(outcome[0]);
				String line = defect.id() + ", seed " + seed + ": "
						+ ((millis >= 0) ? "found after " + millis + " ms" : "NOT FOUND") + ", " + outcome[1];
				System.out.println("[planted] " + line);
				if (millis >= 0) {
					System.out.println("[planted] first: " + outcome[2].lines().limit(3).toList());
				}
				else {
					System.out.println("[planted] report: " + outcome[2].lines().limit(4).toList());
				}
				lines.add(line);
				found += (millis >= 0) ? 1 : 0;
			}
		}
		System.out.println("[measure] planted " + defect.id() + ", " + seconds + " s each, found on " + found + " of "
				+ seeds.length + " seeds:\n" + String.join("\n", lines));
		return new Sweep(defect, seeds.length, found, lines);
	}

	/** What a sweep over seeds found. */
	record Sweep(PlantedDefect defect, int seeds, int found, List<String> lines) {
	}

}
