package io.github.distlock.autoconfigure;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every relative link of the Markdown documentation (READMEs, changelog, {@code docs/})
 * leads to a file that exists and, with a {@code #fragment}, to a heading of that file
 * (anchors as GitHub makes them).
 */
class DocsLinksTests {

	private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)\\)");

	private static final Pattern HEADING = Pattern.compile("^#{1,6} (.+)$");

	@Test
	void relativeLinksLeadToExistingFilesAndHeadings() throws IOException {
		List<String> broken = new ArrayList<>();
		for (Path document : MarkdownDocuments.all()) {
			for (String target : links(document)) {
				if (target.matches("^[a-z]+:.*")) {
					continue;
				}
				int hash = target.indexOf('#');
				String file = (hash >= 0) ? target.substring(0, hash) : target;
				Path linked = file.isEmpty() ? document : document.getParent().resolve(file).normalize();
				if (!Files.exists(linked)) {
					broken.add(document + ": " + target + " (no such file)");
				}
				else if (hash >= 0 && linked.toString().endsWith(".md")
						&& !anchors(linked).contains(target.substring(hash + 1))) {
					broken.add(document + ": " + target + " (no such heading)");
				}
			}
		}
		assertThat(broken).isEmpty();
	}

	/** The link targets outside fenced code blocks. */
	private static List<String> links(Path document) throws IOException {
		List<String> targets = new ArrayList<>();
		boolean code = false;
		for (String line : Files.readAllLines(document)) {
			if (line.startsWith("```")) {
				code = !code;
				continue;
			}
			if (!code) {
				Matcher link = LINK.matcher(line.replaceAll("`[^`]*`", ""));
				while (link.find()) {
					targets.add(link.group(1));
				}
			}
		}
		return targets;
	}

	/** The anchors GitHub gives the headings of a document. */
	private static Set<String> anchors(Path document) throws IOException {
		Set<String> anchors = new HashSet<>();
		Map<String, Integer> seen = new HashMap<>();
		boolean code = false;
		for (String line : Files.readAllLines(document)) {
			if (line.startsWith("```")) {
				code = !code;
				continue;
			}
			Matcher heading = HEADING.matcher(line);
			if (!code && heading.matches()) {
				String slug = heading.group(1)
					.toLowerCase(Locale.ROOT)
					.replaceAll("[^\\p{L}\\p{N} _-]", "")
					.replace(' ', '-');
				int count = seen.merge(slug, 1, Integer::sum);
				anchors.add((count == 1) ? slug : slug + "-" + (count - 1));
			}
		}
		return anchors;
	}

}
