package io.github.distlock.autoconfigure;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The formatter wraps a line comment that runs past its width by moving the last words to
 * a line of their own; wrapped again later, a comment can end up with lines of one word
 * ({@code // so}, {@code // it.}). Every Java source of the repository is checked: a line
 * comment of one word that continues the comment line above it is such an orphan (a
 * comment of one word on its own, such as {@code // closed}, is not). Rewrap the comment
 * so that no line is one word.
 */
class CommentWrappingTests {

	private static final Pattern LINE_COMMENT = Pattern.compile("^(\\s*)//(.*)$");

	@Test
	void noLineCommentContinuesWithALineOfOneWord() throws IOException {
		List<String> orphans = new ArrayList<>();
		try (Stream<Path> files = Files.walk(MarkdownDocuments.ROOT)) {
			for (Path file : files.filter((path) -> path.toString().endsWith(".java"))
				.filter((path) -> !path.toString().contains("/target/"))
				.toList()) {
				List<String> lines = Files.readAllLines(file);
				for (int i = 1; i < lines.size(); i++) {
					Matcher line = LINE_COMMENT.matcher(lines.get(i));
					Matcher above = LINE_COMMENT.matcher(lines.get(i - 1));
					if (line.matches() && above.matches() && line.group(1).equals(above.group(1))
							&& !above.group(2).isBlank() && line.group(2).trim().split("\\s+").length == 1
							&& !line.group(2).isBlank()) {
						orphans.add(file.normalize() + ":" + (i + 1) + ": " + lines.get(i).trim());
					}
				}
			}
		}
		assertThat(orphans).as("line comments that continue with a line of one word").isEmpty();
	}

}
