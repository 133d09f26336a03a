package io.github.distlock.history;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The history checker against the engine with a fixed leadership defect planted back
 * (opt-in, by {@link PatchedEngine}, see {@link PlantedDefect}):
 * {@code resume-old-session-node}, a waiting member that resumes with its node of a
 * session its client replaced (it drops out of the election silently), or
 * {@code lost-keeps-old-node}, a member that forgets its node on a lost session without
 * deleting it (its new node queues behind its own stale one). Runs the seeds given (1 to
 * 10 by default), each for the short run's time, prints on which seeds which violations
 * were found and how long into the run, and fails if no seed found any:
 *
 * <pre>
 * ./mvnw -pl distlock-core-tests -am -Dsurefire.failIfNoSpecifiedTests=false test -Dtest=PlantedLeadershipDefectsCheckerTests \\
 *     -Ddistlock.history.planted=resume-old-session-node [-Ddistlock.history.seeds=1-10]
 * </pre>
 */
class PlantedLeadershipDefectsCheckerTests {

	@Test
	@EnabledIfSystemProperty(named = "distlock.history.planted",
			matches = "resume-old-session-node|lost-keeps-old-node")
	void theCheckerFindsThePlantedDefect() throws Exception {
		PlantedDefect defect = PlantedDefect.of(System.getProperty("distlock.history.planted"));
		PlantedCatalogueTests.Sweep sweep = PlantedCatalogueTests.sweep(defect, PlantedCatalogueTests.seeds("1-10"));
		assertThat(sweep.found()).as(String.join("\n", sweep.lines())).isPositive();
	}

}
