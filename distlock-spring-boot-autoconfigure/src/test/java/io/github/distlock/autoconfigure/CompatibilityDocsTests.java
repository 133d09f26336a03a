package io.github.distlock.autoconfigure;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.ZooKeeper;
import org.junit.jupiter.api.Test;

import org.springframework.boot.SpringBootVersion;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Keeps the "built and tested with" column of {@code docs/compatibility.md} in step with
 * the versions on the build's class path.
 */
class CompatibilityDocsTests {

	private static final Path DOCS = Path.of("..", "docs", "compatibility.md");

	@Test
	void compatibilityPageNamesTheVersionsTheBuildUses() throws IOException {
		String page = Files.readString(DOCS);
		assertThat(builtWith(page, "Spring Boot")).isEqualTo(SpringBootVersion.getVersion());
		assertThat(builtWith(page, "Apache Curator"))
			.isEqualTo(CuratorFramework.class.getPackage().getImplementationVersion());
		assertThat(builtWith(page, "ZooKeeper client"))
			.isEqualTo(ZooKeeper.class.getPackage().getImplementationVersion());
	}

	/** The third cell of the row named {@code what}: {@code `x.y.z`}. */
	private static String builtWith(String page, String what) {
		Matcher row = Pattern.compile("^\\| " + Pattern.quote(what) + " \\|[^|]*\\| `([^`]+)` \\|", Pattern.MULTILINE)
			.matcher(page);
		assertThat(row.find()).as("row '%s' of %s with one version in its third cell", what, DOCS).isTrue();
		return row.group(1);
	}

}
