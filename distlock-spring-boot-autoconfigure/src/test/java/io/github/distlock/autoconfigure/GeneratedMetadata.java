package io.github.distlock.autoconfigure;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The configuration metadata that the build generated for this module, read from this
 * module's own output: every Spring Boot jar on the test class path has a
 * {@code META-INF/spring-configuration-metadata.json} too, and the first one found by
 * name is not necessarily distlock's.
 */
final class GeneratedMetadata {

	private GeneratedMetadata() {
	}

	static String json() throws IOException {
		Path file = moduleOutput().resolve("META-INF").resolve("spring-configuration-metadata.json");
		assertThat(file)
			.as("configuration metadata of distlock (is spring-boot-configuration-processor run by the " + "compiler?)")
			.isRegularFile();
		return Files.readString(file, StandardCharsets.UTF_8);
	}

	private static Path moduleOutput() {
		try {
			return Path.of(DistlockProperties.class.getProtectionDomain().getCodeSource().getLocation().toURI());
		}
		catch (URISyntaxException ex) {
			throw new IllegalStateException(ex);
		}
	}

}
