package io.github.distlock.history;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

import io.github.distlock.curator.PlantedDefectSwitch;
import io.github.distlock.curator.PlantedDefectSwitch.Defect;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The history checker against the engine with a fixed leadership defect planted back
 * (opt-in): {@code resume-old-session-node}, a waiting member that resumes with its node
 * of a session its client replaced (it drops out of the election silently), or
 * {@code lost-keeps-old-node}, a member that forgets its node on a lost session without
 * deleting it (its new node queues behind its own stale one). Runs the seeds given (1 to
 * 10 by default), each for the short run's time, prints on which seeds which violations
 * were found and how long into the run, and fails if no seed found any:
 *
 * <pre>
 * ./mvnw -pl distlock-core-tests -am -Dsurefire.failIfNoSpecifiedTests=false test -Dtest=PlantedLeadershipDefectsCheckerTests \
 *     -Ddistlock.history.planted=resume-old-session-node [-Ddistlock.history.seeds=1-10]
 * </pre>
 */
class PlantedLeadershipDefectsCheckerTests {

	@AfterEach
	void removeThePlantedDefect() {
		PlantedDefectSwitch.clear();
	}

	@Test
	@EnabledIfSystemProperty(named = "distlock.history.planted", matches = "[a-z-]+")
	void theCheckerFindsThePlantedDefect() throws Exception {
		String defect = System.getProperty("distlock.history.planted");
		String[] range = System.getProperty("distlock.history.seeds", "1-10").split("-");
		Duration duration = Duration.ofSeconds(Long.getLong("distlock.history.seconds", 20));
		PlantedDefectSwitch.plant(Set.of(leadershipDefect(defect)));
		List<String> lines = new ArrayList<>();
		int found = 0;
		for (long seed = Long.parseLong(range[0]); seed <= Long.parseLong(range[1]); seed++) {
			CheckerRun run = new CheckerRun(new CheckerRun.Settings(seed, duration, 3, 3, 2, 2, true, true));
			CheckerRun.Result result = run.execute();
			HistoryCheckerTests.dump(run, seed);
			System.out.println("[measure] " + result.report());
			String line = "seed " + seed + ": " + result.violations().size() + " violation(s) " + result.byCategory();
			System.out.println("[planted] " + defect + ", " + line);
			lines.add(line);
			found += result.violations().isEmpty() ? 0 : 1;
		}
		System.out.println("[measure] planted " + defect + ", seeds " + range[0] + "-" + range[1] + ", "
				+ duration.toSeconds() + " s each:\n" + String.join("\n", lines));
		assertThat(found).as(String.join("\n", lines)).isPositive();
	}

	private static Defect leadershipDefect(String name) {
		return switch (name) {
			case "resume-old-session-node" -> Defect.RESUME_WITH_OLD_SESSION_NODE;
			case "lost-keeps-old-node" -> Defect.LOST_KEEPS_OLD_NODE;
			default -> throw new IllegalArgumentException("No such planted defect: " + name);
		};
	}

}
