package io.github.distlock.autoconfigure;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import com.jayway.jsonpath.JsonPath;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every {@code distlock.*} property the Markdown documentation mentions, in text or in an
 * {@code application.yml} block, is one the configuration metadata knows (or a prefix of
 * some, such as {@code distlock.zookeeper.auth.*}). Names of meters, which share the
 * prefix, are told apart by the metrics table of {@code docs/operations.md}.
 */
class DocumentedPropertiesTests {

	private static final Path ROOT = MarkdownDocuments.ROOT;

	private static final Pattern MENTION = Pattern.compile("(?<![\\w.$/-])distlock\\.[a-z0-9-]+(?:\\.[a-z0-9-]+)*");

	private static final Pattern METER_ROW = Pattern.compile("^\\| `(distlock\\.[a-z.]+)` \\|", Pattern.MULTILINE);

	private static final Pattern YAML_KEY = Pattern.compile("^( *)([a-z0-9-]+):(.*)$");

	@Test
	void everyMentionedDistlockPropertyExists() throws IOException {
		Set<String> properties = metadataProperties();
		Set<String> meters = meters();
		Set<String> unknown = new TreeSet<>();
		for (Path document : MarkdownDocuments.all()) {
			for (String mention : mentions(document)) {
				if (!meters.contains(mention) && !known(mention, properties)) {
					unknown.add(document + ": " + mention);
				}
			}
		}
		assertThat(unknown).isEmpty();
	}

	private static boolean known(String name, Set<String> properties) {
		return properties.contains(name) || properties.stream().anyMatch((property) -> property.startsWith(name + "."));
	}

	private static List<String> mentions(Path document) throws IOException {
		List<String> mentions = new ArrayList<>();
		String language = null;
		Deque<String[]> yamlPath = new ArrayDeque<>();
		for (String line : Files.readAllLines(document)) {
			if (line.startsWith("```")) {
				language = (language == null) ? line.substring(3).trim() : null;
				yamlPath.clear();
				continue;
			}
			if ("yaml".equals(language)) {
				yamlKey(line, yamlPath).ifPresent(mentions::add);
				continue;
			}
			Matcher mention = MENTION.matcher(line);
			while (mention.find()) {
				mentions.add(mention.group());
			}
		}
		return mentions;
	}

	/**
	 * The dotted name of a YAML line's key under {@code distlock:}, tracking the keys
	 * above it by indentation.
	 */
	private static Optional<String> yamlKey(String line, Deque<String[]> path) {
		String content = line.replaceAll("\\s+#.*$", "");
		Matcher key = YAML_KEY.matcher(content);
		if (!key.matches()) {
			return Optional.empty();
		}
		int indent = key.group(1).length();
		while (!path.isEmpty() && Integer.parseInt(path.peekLast()[0]) >= indent) {
			path.removeLast();
		}
		path.addLast(new String[] { Integer.toString(indent), key.group(2) });
		String name = path.stream().map((entry) -> entry[1]).collect(Collectors.joining("."));
		return name.startsWith("distlock.") ? Optional.of(name) : Optional.empty();
	}

	private static Set<String> meters() throws IOException {
		Matcher row = METER_ROW.matcher(Files.readString(ROOT.resolve("docs").resolve("operations.md")));
		Set<String> meters = new TreeSet<>();
		while (row.find()) {
			meters.add(row.group(1));
		}
		assertThat(meters).isNotEmpty();
		return meters;
	}

	/**
	 * The metadata this module's build generated (not another jar's on the class path).
	 */
	private static Set<String> metadataProperties() throws IOException {
		Path metadata = Path.of("target", "classes", "META-INF", "spring-configuration-metadata.json");
		List<String> names = JsonPath.read(Files.readString(metadata), "$.properties[*].name");
		assertThat(names).isNotEmpty();
		return new TreeSet<>(names);
	}

}
