package io.github.distlock.autoconfigure;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import com.jayway.jsonpath.JsonPath;
import org.junit.jupiter.api.Test;

import org.springframework.beans.BeanWrapperImpl;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Checks the configuration metadata generated from {@link DistlockProperties} (and the
 * additional metadata): every {@code distlock.*} property has a description and a
 * default, and each default is the one the code applies.
 */
class ConfigurationMetadataTests {

	/** Properties whose absence has a meaning of its own, so they have no default. */
	private static final Set<String> WITHOUT_DEFAULT = Set.of("distlock.zookeeper.embedded.data-dir",
			// unset means "the session timeout, at most 15 s"
			"distlock.zookeeper.connection-timeout",
			// security: unset means "none" or "ZooKeeper's own default"
			"distlock.zookeeper.auth.username", "distlock.zookeeper.auth.password", "distlock.zookeeper.acl.entries",
			"distlock.zookeeper.ssl.bundle", "distlock.zookeeper.sasl.enabled", "distlock.zookeeper.sasl.login-context",
			"distlock.zookeeper.sasl.server-principal",
			// unset means "only the groups @LeaderOnly names"
			"distlock.leadership.groups",
			// unset means "no group observed"
			"distlock.leadership.observe",
			// unset means "no group but those of distlock.leadership.preferred"
			"distlock.leadership.preferred-groups",
			// unset means "spring.application.name@host:pid", known only at runtime
			"distlock.leadership.member-id");

	@Test
	void everyDistlockPropertyHasADescriptionAndADefault() throws IOException {
		List<Map<String, Object>> properties = properties(generatedMetadata());
		assertThat(properties).extracting((property) -> property.get("name"))
			.contains("distlock.enabled", "distlock.zookeeper.connect-string", "distlock.lock.wait-time",
					"management.health.distlock.enabled");
		assertThat(problems(properties)).isEmpty();
	}

	@Test
	void checkReportsAPropertyWithoutDescriptionOrDefault() {
		String json = """
				{"properties": [
				  {"name": "distlock.documented", "description": "Whether it works.", "defaultValue": true},
				  {"name": "distlock.undocumented", "defaultValue": 1},
				  {"name": "distlock.blank", "description": " ", "defaultValue": 1},
				  {"name": "distlock.no-default", "description": "Something."},
				  {"name": "other.undocumented"}
				]}""";
		assertThat(problems(properties(json))).containsExactly("distlock.undocumented has no description",
				"distlock.blank has no description", "distlock.no-default has no default");
	}

	@Test
	void metadataDefaultsAreTheDefaultsOfTheCode() throws IOException {
		Map<String, String> defaults = new LinkedHashMap<>();
		for (Map<String, Object> property : properties(generatedMetadata())) {
			String name = (String) property.get("name");
			if (name.startsWith("distlock.") && property.get("defaultValue") != null) {
				defaults.put(name, String.valueOf(property.get("defaultValue")));
			}
		}
		DistlockProperties bound = new Binder(new MapConfigurationPropertySource(defaults)).bindOrCreate("distlock",
				DistlockProperties.class);
		BeanWrapperImpl fromMetadata = new BeanWrapperImpl(bound);
		BeanWrapperImpl fromCode = new BeanWrapperImpl(new DistlockProperties());
		defaults.keySet().forEach((name) -> {
			String path = beanPath(name.substring("distlock.".length()));
			assertThat(fromMetadata.getPropertyValue(path)).as("default of %s", name)
				.isEqualTo(fromCode.getPropertyValue(path));
		});
	}

	static List<String> problems(List<Map<String, Object>> properties) {
		List<String> problems = new ArrayList<>();
		for (Map<String, Object> property : properties) {
			String name = (String) property.get("name");
			if (!name.startsWith("distlock.")) {
				continue;
			}
			Object description = property.get("description");
			if (!(description instanceof String text) || text.isBlank()) {
				problems.add(name + " has no description");
			}
			if (property.get("defaultValue") == null && !WITHOUT_DEFAULT.contains(name)) {
				problems.add(name + " has no default");
			}
		}
		return problems;
	}

	private static List<Map<String, Object>> properties(String json) {
		return JsonPath.read(json, "$.properties[*]");
	}

	private static String generatedMetadata() throws IOException {
		return GeneratedMetadata.json();
	}

	private static String beanPath(String kebab) {
		StringBuilder out = new StringBuilder();
		boolean upper = false;
		for (char c : kebab.toCharArray()) {
			if (c == '-') {
				upper = true;
			}
			else {
				out.append(upper ? Character.toUpperCase(c) : c);
				upper = false;
			}
		}
		return out.toString();
	}

}
