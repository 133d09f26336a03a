package io.github.distlock.autoconfigure;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.jayway.jsonpath.JsonPath;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Keeps {@code docs/configuration.md} in step with the configuration metadata generated
 * from {@link DistlockProperties}.
 */
class ConfigurationDocsTests {

	private static final Path DOCS = Path.of("..", "docs", "configuration.md");

	private static final Pattern ROW = Pattern.compile("^\\| `(distlock\\.[a-z.-]+)` \\| ([^|]*) \\|",
			Pattern.MULTILINE);

	@Test
	void docsListExactlyTheMetadataPropertiesWithTheirDefaults() throws IOException {
		Map<String, Object> metadata = metadataDefaults();
		Map<String, String> documented = documentedDefaults();
		assertThat(documented.keySet()).containsExactlyInAnyOrderElementsOf(metadata.keySet());
		metadata.forEach((name, defaultValue) -> {
			if (defaultValue != null) {
				assertThat(documented.get(name)).as("documented default of %s", name)
					.startsWith("`" + defaultValue + "`");
			}
		});
		assertThat(documented.get("distlock.lock.order"))
			.contains(Integer.toString(new DistlockProperties().getLock().getOrder()));
	}

	private Map<String, Object> metadataDefaults() throws IOException {
		List<Map<String, Object>> properties = JsonPath.read(GeneratedMetadata.json(), "$.properties[*]");
		Map<String, Object> defaults = new LinkedHashMap<>();
		// Only distlock's own properties: management.* ones are documented
		// in docs/operations.md.
		properties.stream()
			.filter((property) -> ((String) property.get("name")).startsWith("distlock."))
			.forEach((property) -> defaults.put((String) property.get("name"), property.get("defaultValue")));
		assertThat(defaults).isNotEmpty();
		return defaults;
	}

	private Map<String, String> documentedDefaults() throws IOException {
		Matcher matcher = ROW.matcher(Files.readString(DOCS));
		Map<String, String> documented = new LinkedHashMap<>();
		while (matcher.find()) {
			assertThat(documented.put(matcher.group(1), matcher.group(2).trim()))
				.as("listed once: %s", matcher.group(1))
				.isNull();
		}
		return documented;
	}

}
