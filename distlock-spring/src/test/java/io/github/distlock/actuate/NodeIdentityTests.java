package io.github.distlock.actuate;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Reading the identity distlock writes into lock nodes.
 */
class NodeIdentityTests {

	@Test
	void readsDistlockNodeData() {
		NodeIdentity identity = NodeIdentity.parse(bytes(
				"{\"app\":\"shop\",\"host\":\"h\\\"1\",\"pid\":42,\"thread\":\"exec-\\u0031\",\"since\":\"2026-01-01T00:00:00Z\"}"));
		assertThat(identity).isEqualTo(new NodeIdentity("shop", "h\"1", 42L, "exec-1", "2026-01-01T00:00:00Z"));
	}

	@Test
	void readsProcessOnlyNodeData() {
		assertThat(NodeIdentity.parse(bytes("{\"app\":\"shop\",\"host\":\"h\",\"pid\":7}")))
			.isEqualTo(new NodeIdentity("shop", "h", 7L, null, null));
	}

	@Test
	void ignoresForeignOrBrokenData() {
		assertThat(NodeIdentity.parse(null)).isNull();
		assertThat(NodeIdentity.parse(bytes("10.0.0.1"))).isNull();
		assertThat(NodeIdentity.parse(bytes("{\"app\":\"shop\""))).isNull();
		assertThat(NodeIdentity.parse(bytes("{\"app\":{\"nested\":1}}"))).isNull();
		assertThat(NodeIdentity.parse(bytes("{\"user\":\"x\",\"password\":\"secret\"}"))).isNull();
	}

	private static byte[] bytes(String text) {
		return text.getBytes(StandardCharsets.UTF_8);
	}

}
