package io.github.distlock.autoconfigure;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import javax.sql.DataSource;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceInitializationAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.env.EnumerablePropertySource;
import org.springframework.core.env.PropertySource;
import org.springframework.core.io.ByteArrayResource;
import org.springframework.jdbc.core.JdbcTemplate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The settings {@code docs/failure-model.md} gives for creating the fence table with
 * Spring Boot's SQL initialization create it. A file-based H2 database stands for
 * PostgreSQL: Spring Boot does not count it as embedded either, so it runs no script for
 * it unless told to, which is what a new user met on PostgreSQL.
 */
class FenceTableDocsTests {

	private static final Path PAGE = MarkdownDocuments.ROOT.resolve("docs").resolve("failure-model.md");

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner().withConfiguration(
			AutoConfigurations.of(DataSourceAutoConfiguration.class, DataSourceInitializationAutoConfiguration.class));

	@TempDir
	Path databaseDir;

	@Test
	void settingsForADatabaseThatIsNotEmbeddedCreateTheTable() throws IOException {
		this.contextRunner.withPropertyValues(fileDatabase())
			.withPropertyValues(documentedSettings(0))
			.run((context) -> assertThat(fenceTableExists(context.getBean(DataSource.class))).isTrue());
	}

	@Test
	void withoutModeAlwaysNoScriptRunsForADatabaseThatIsNotEmbedded() throws IOException {
		String[] withoutMode = Arrays.stream(documentedSettings(0))
			.filter((setting) -> !setting.startsWith("spring.sql.init.mode="))
			.toArray(String[]::new);
		assertThat(withoutMode).hasSize(documentedSettings(0).length - 1);
		this.contextRunner.withPropertyValues(fileDatabase())
			.withPropertyValues(withoutMode)
			.run((context) -> assertThat(fenceTableExists(context.getBean(DataSource.class))).isFalse());
	}

	@Test
	void settingsForAnEmbeddedH2DatabaseCreateTheTable() throws IOException {
		this.contextRunner.withPropertyValues("spring.datasource.url=jdbc:h2:mem:fence-docs;DB_CLOSE_DELAY=-1")
			.withPropertyValues(documentedSettings(1))
			.run((context) -> assertThat(fenceTableExists(context.getBean(DataSource.class))).isTrue());
	}

	private String fileDatabase() {
		return "spring.datasource.url=jdbc:h2:file:" + this.databaseDir.resolve("fence").toAbsolutePath();
	}

	/**
	 * The settings of the given YAML block of the page's "The fence table" section, as
	 * {@code key=value} pairs.
	 */
	private static String[] documentedSettings(int block) throws IOException {
		String page = Files.readString(PAGE);
		String section = page.substring(page.indexOf("### The fence table"));
		section = section.substring(0, section.indexOf("\n### ", 1));
		List<String> blocks = new ArrayList<>();
		int start = section.indexOf("```yaml\n");
		while (start >= 0) {
			int end = section.indexOf("```", start + 8);
			blocks.add(section.substring(start + 8, end));
			start = section.indexOf("```yaml\n", end + 3);
		}
		assertThat(blocks).as("YAML blocks of the fence table section").hasSize(2);
		List<PropertySource<?>> sources = new YamlPropertySourceLoader().load("docs",
				new ByteArrayResource(blocks.get(block).getBytes(StandardCharsets.UTF_8)));
		EnumerablePropertySource<?> settings = (EnumerablePropertySource<?>) sources.get(0);
		List<String> pairs = new ArrayList<>();
		for (String name : settings.getPropertyNames()) {
			pairs.add(name + "=" + settings.getProperty(name));
		}
		return pairs.toArray(String[]::new);
	}

	private static boolean fenceTableExists(DataSource dataSource) {
		List<Map<String, Object>> tables = new JdbcTemplate(dataSource).queryForList(
				"select table_name from information_schema.tables where lower(table_name) = 'distlock_fence'");
		return !tables.isEmpty();
	}

}
