package io.github.distlock.sample;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every test that {@code docs/testing.md} shows is a test of this repository, as shown:
 * each Java block with a {@code @Test} is found, line for line (indentation aside, and
 * {@code // ...} standing for lines left out), in one test source of the sample or of the
 * test kit. So each compiles and passes.
 */
class TestingDocsTests {

	private static final Path ROOT = Path.of("..");

	private static final String LEFT_OUT = "// ...";

	@Test
	void everyTestOnThePageIsARealTest() throws IOException {
		List<List<String>> blocks = javaBlocksWithTests(ROOT.resolve("docs").resolve("testing.md"));
		assertThat(blocks).as("tests on docs/testing.md").hasSizeGreaterThanOrEqualTo(4);
		List<Path> sources = testSources();
		List<String> missing = new ArrayList<>();
		for (List<String> block : blocks) {
			if (sources.stream().noneMatch((source) -> contains(read(source), block))) {
				missing.add(String.join("\n", block));
			}
		}
		assertThat(missing).as("blocks of docs/testing.md found in no test source").isEmpty();
	}

	@Test
	void theCheckNoticesAChangedLine() {
		List<String> source = List.of("@Test", "void a() {", "run(1);", "}", "", "void b() {", "}");
		assertThat(contains(source, List.of("@Test", "void a() {", LEFT_OUT, "}"))).isTrue();
		assertThat(contains(source, List.of("@Test", "void a() {", "run(2);", "}"))).isFalse();
		assertThat(contains(source, List.of("void b() {", LEFT_OUT, "@Test"))).isFalse();
	}

	/** The Java blocks that contain a test, each as its lines without indentation. */
	private static List<List<String>> javaBlocksWithTests(Path page) throws IOException {
		List<List<String>> blocks = new ArrayList<>();
		List<String> block = null;
		for (String line : Files.readAllLines(page)) {
			if (block == null && line.equals("```java")) {
				block = new ArrayList<>();
			}
			else if (block != null && line.equals("```")) {
				if (block.contains("@Test")) {
					blocks.add(block);
				}
				block = null;
			}
			else if (block != null && !line.isBlank()) {
				block.add(line.strip());
			}
		}
		return blocks;
	}

	private static List<Path> testSources() throws IOException {
		List<Path> sources = new ArrayList<>();
		for (Path tree : List.of(ROOT.resolve("sample-app/src/test/java"),
				ROOT.resolve("distlock-test/src/test/java"))) {
			try (Stream<Path> files = Files.walk(tree)) {
				files.filter((file) -> file.toString().endsWith(".java")).sorted().forEach(sources::add);
			}
		}
		return sources;
	}

	private static List<String> read(Path source) {
		try {
			return Files.readAllLines(source).stream().filter((line) -> !line.isBlank()).map(String::strip).toList();
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
	}

	/**
	 * Whether the source holds the block's parts, in order, each part's lines one after
	 * the other.
	 */
	private static boolean contains(List<String> source, List<String> block) {
		List<String> lines = source.stream().filter((line) -> !line.isBlank()).toList();
		int from = 0;
		for (List<String> part : parts(block)) {
			int at = Collections.indexOfSubList(lines.subList(from, lines.size()), part);
			if (at < 0) {
				return false;
			}
			from += at + part.size();
		}
		return true;
	}

	private static List<List<String>> parts(List<String> block) {
		List<List<String>> parts = new ArrayList<>();
		List<String> part = new ArrayList<>();
		for (String line : block) {
			if (line.equals(LEFT_OUT)) {
				parts.add(part);
				part = new ArrayList<>();
			}
			else {
				part.add(line);
			}
		}
		parts.add(part);
		parts.removeIf(List::isEmpty);
		return parts;
	}

}
