package io.github.distlock.integration;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import org.springframework.integration.support.locks.LockRegistry;
import org.springframework.integration.zookeeper.lock.ZookeeperLockRegistry;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * docs/compatibility.md names the Spring Integration versions these tests run with.
 */
class CompatibilityDocsTests {

	private static final Path PAGE = Path.of("../docs/compatibility.md");

	@Test
	void compatibilityPageNamesTheSpringIntegrationVersionsTheTestsUse() throws IOException {
		String row = row(Files.readString(PAGE), "Spring Integration");
		assertThat(LockRegistry.class.getPackage().getImplementationVersion()).isNotNull()
			.satisfies((core) -> assertThat(row).contains("| `" + core + "` (`spring-integration-core`"));
		assertThat(ZookeeperLockRegistry.class.getPackage().getImplementationVersion()).isNotNull()
			.satisfies((zookeeper) -> assertThat(row).contains("spring-integration-zookeeper `" + zookeeper + "`"));
	}

	private static String row(String page, String what) {
		Matcher row = Pattern.compile("^\\| " + Pattern.quote(what) + " \\|.*$", Pattern.MULTILINE).matcher(page);
		assertThat(row.find()).as("row '%s' of %s", what, PAGE).isTrue();
		return row.group();
	}

}
