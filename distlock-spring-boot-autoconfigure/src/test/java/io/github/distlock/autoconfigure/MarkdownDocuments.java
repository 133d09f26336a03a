package io.github.distlock.autoconfigure;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The Markdown documentation the docs checks read: the READMEs, the changelog and every
 * page of {@code docs/}.
 */
final class MarkdownDocuments {

	/** The repository's root, seen from the module's directory where tests run. */
	static final Path ROOT = Path.of("..");

	private MarkdownDocuments() {
	}

	static List<Path> all() throws IOException {
		List<Path> documents = new ArrayList<>(List.of(ROOT.resolve("README.md"), ROOT.resolve("CHANGELOG.md"),
				ROOT.resolve("sample-app").resolve("README.md")));
		try (Stream<Path> docs = Files.list(ROOT.resolve("docs"))) {
			docs.filter((path) -> path.toString().endsWith(".md")).sorted().forEach(documents::add);
		}
		return documents;
	}

}
