package io.github.distlock.history;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every defect of the planted catalogue still patches the engine as it is, in the normal
 * build: each original line is in its file exactly once, and the patched engine compiles
 * and loads from the patched classes. A change to an engine line that a defect plants
 * fails here at once, not only when the opt-in catalogue runs.
 */
class PlantedCatalogueCurrentTests {

	@ParameterizedTest
	@EnumSource(PlantedDefect.class)
	void eachDefectStillPatchesTheEngine(PlantedDefect defect) throws Exception {
		try (PatchedEngine engine = PatchedEngine.plant(defect)) {
			for (PlantedDefect.Patch patch : defect.patches()) {
				String className = "io.github.distlock.curator."
						+ patch.file().substring(0, patch.file().length() - ".java".length());
				try (java.net.URLClassLoader loader = engine.newLoader()) {
					assertThat(PatchedEngine.origin(loader, className)).as(className).contains("distlock-planted-");
				}
			}
		}
	}

}
