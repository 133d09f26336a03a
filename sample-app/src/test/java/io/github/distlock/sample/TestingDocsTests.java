package io.github.distlock.sample;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every Java block of {@code docs/testing.md} is the source of a test of this repository,
 * so each compiles and passes as shown: a block that begins with {@code package} is a
 * whole test source of the sample or of the test kit, byte for byte; any other block is
 * an excerpt of one, its lines one after the other (indentation and blank lines aside).
 * Nothing is left out inside a block ({@code // ...} is refused), and the three tests a
 * new user writes are on the page as whole classes, imports included.
 */
class TestingDocsTests {

	private static final Path ROOT = Path.of("..");

	private static final String LEFT_OUT = "// ...";

	@Test
	void everyJavaBlockOnThePageIsARealTestSource() throws IOException {
		List<String> blocks = javaBlocks(ROOT.resolve("docs").resolve("testing.md"));
		assertThat(blocks).as("Java blocks of docs/testing.md").hasSizeGreaterThanOrEqualTo(6);
		Map<Path, String> sources = testSources();
		List<String> missing = new ArrayList<>();
		for (String block : blocks) {
			assertThat(block).as("a block of docs/testing.md").doesNotContain(LEFT_OUT);
			if (!isFound(block, sources.values())) {
				missing.add(block);
			}
		}
		assertThat(missing).as("blocks of docs/testing.md found in no test source").isEmpty();
	}

	@Test
	void theThreeTestsOfALockedServiceAreShownWhole() throws IOException {
		List<String> whole = javaBlocks(ROOT.resolve("docs").resolve("testing.md")).stream()
			.filter((block) -> block.startsWith("package "))
			.toList();
		assertThat(whole).anySatisfy((block) -> assertThat(block).contains("class InventoryAcrossInstancesTests")
			.contains("void twoInstancesNeverPurchaseTheSameSkuAtOnce(")
			.contains("void purchaseWhoseSessionExpiresMidCallIsRolledBack(")
			.contains("void purchaseWaitingWhenZooKeeperStopsGivesUpAtItsDeadlineWithoutRunning("));
		assertThat(whole).anySatisfy((block) -> assertThat(block).contains("LockAssertions.makeAllAssertsPass(true)"));
	}

	@Test
	void theCheckNoticesAChangedOrMissingLine() {
		List<String> source = List.of("package a;\n\n@Test\nvoid a() {\n\trun(1);\n}\n\nvoid b() {\n}\n");
		assertThat(isFound("@Test\nvoid a() {\n    run(1);\n}", source)).isTrue();
		assertThat(isFound("@Test\nvoid a() {\nrun(2);\n}", source)).isFalse();
		assertThat(isFound("@Test\nvoid a() {\n}", source)).isFalse();
		assertThat(isFound("package a;\n\n@Test\nvoid a() {\n\trun(1);\n}\n\nvoid b() {\n}\n", source)).isTrue();
		assertThat(isFound("package a;\n\n@Test\nvoid a() {\n\trun(1);\n}\n", source)).isFalse();
	}

	/** The Java blocks of the page, each as its text with a final line break. */
	private static List<String> javaBlocks(Path page) throws IOException {
		List<String> blocks = new ArrayList<>();
		StringBuilder block = null;
		for (String line : Files.readAllLines(page)) {
			if (block == null && line.equals("```java")) {
				block = new StringBuilder();
			}
			else if (block != null && line.equals("```")) {
				blocks.add(block.toString());
				block = null;
			}
			else if (block != null) {
				block.append(line).append('\n');
			}
		}
		return blocks;
	}

	private static Map<Path, String> testSources() throws IOException {
		Map<Path, String> sources = new TreeMap<>();
		for (Path tree : List.of(ROOT.resolve("sample-app/src/test/java"),
				ROOT.resolve("distlock-test/src/test/java"))) {
			try (Stream<Path> files = Files.walk(tree)) {
				for (Path file : files.filter((file) -> file.toString().endsWith(".java")).toList()) {
					sources.put(file, Files.readString(file));
				}
			}
		}
		return sources;
	}

	/**
	 * Whether a source is the block, whole (a block that begins with {@code package}), or
	 * holds its lines one after the other.
	 */
	private static boolean isFound(String block, Collection<String> sources) {
		if (block.startsWith("package ")) {
			return sources.contains(block);
		}
		List<String> lines = lines(block);
		return !lines.isEmpty()
				&& sources.stream().anyMatch((source) -> Collections.indexOfSubList(lines(source), lines) >= 0);
	}

	private static List<String> lines(String text) {
		return text.lines().filter((line) -> !line.isBlank()).map(String::strip).toList();
	}

}
