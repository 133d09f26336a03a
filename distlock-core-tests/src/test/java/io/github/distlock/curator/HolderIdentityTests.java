package io.github.distlock.curator;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The holder identity written into lock nodes.
 */
class HolderIdentityTests {

	@Test
	void sinceIsTheCurrentInstantInIsoFormatWithMilliseconds() {
		HolderIdentity identity = new HolderIdentity("shop");
		for (int i = 0; i < 2_000; i++) {
			Instant before = Instant.now().truncatedTo(ChronoUnit.MILLIS);
			String now = identity.now();
			Instant after = Instant.now();
			assertThat(now).matches("\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z");
			assertThat(Instant.parse(now)).isBetween(before, after);
		}
	}

	@Test
	void nodeDataNamesTheApplicationThreadAndTime() {
		String data = new String(new HolderIdentity("sh\"op").nodeData(Thread.currentThread().getName()),
				StandardCharsets.UTF_8);
		assertThat(data).startsWith("{\"app\":\"sh\\\"op\",\"host\":")
			.contains(",\"thread\":\"" + Thread.currentThread().getName() + "\",\"since\":\"")
			.matches(".*\"since\":\"[-0-9T:.]{23}Z\"}");
	}

}
