package io.github.distlock.core;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import org.apache.zookeeper.common.PathUtils;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

class LockPathTests {

	@Test
	void plainValuesStandForThemselves() {
		assertThat(LockPath.escapeSegment("order-42_A.b~c")).isEqualTo("order-42_A.b~c");
	}

	@Test
	void valuesThatAreZooKeeperNodeNamesStandForThemselves() {
		for (String name : List.of("orders:42", "report:daily", "a b", "user@example.com", "a+b", "lock4j:orders#42",
				"Z\u00fcrich", "\u4e00\u4e8c", "\u00a0", "\ufeff", "\uf900", "\uffef", "*?&=;,'\"\\<>|[]{}()!$^`",
				"...", ".a", "a.", "zookeeper")) {
			assertThat(LockPath.escapeSegment(name)).as(name).isSameAs(name);
			assertThat(LockPath.of("orders", name).value()).isEqualTo("orders/" + name);
		}
	}

	@Test
	void separatorsAndDotSegmentsStayInsideOneSegment() {
		assertThat(LockPath.escapeSegment("a/../b")).isEqualTo("a%2F..%2Fb");
		assertThat(LockPath.escapeSegment("/")).isEqualTo("%2F");
		assertThat(LockPath.escapeSegment("..")).isEqualTo("%2E%2E");
		assertThat(LockPath.escapeSegment(".")).isEqualTo("%2E");
		assertThat(LockPath.escapeSegment("...")).isEqualTo("...");
		assertThat(LockPath.of("orders", "a/../b").segments()).containsExactly("orders", "a%2F..%2Fb");
	}

	@Test
	void charactersZooKeeperRefusesAndPercentAreEscapedAsUtf8() {
		assertThat(LockPath.escapeSegment("\u0000")).isEqualTo("%00");
		assertThat(LockPath.escapeSegment("a\u001fb")).isEqualTo("a%1Fb");
		assertThat(LockPath.escapeSegment("\u007f\u0085\u009f")).isEqualTo("%7F%C2%85%C2%9F");
		assertThat(LockPath.escapeSegment("\ue000\uf8ff")).isEqualTo("%EE%80%80%EF%A3%BF");
		assertThat(LockPath.escapeSegment("\ufff0\uffff")).isEqualTo("%EF%BF%B0%EF%BF%BF");
		assertThat(LockPath.escapeSegment("\uD83D\uDE00")).isEqualTo("%F0%9F%98%80");
		assertThat(LockPath.escapeSegment("%2F")).isEqualTo("%252F");
		assertThat(LockPath.escapeSegment("100%")).isEqualTo("100%25");
	}

	@Test
	void everyEscapedSegmentIsANodeNameZooKeeperAccepts() {
		for (int c = 0; c <= 0xFFFF; c++) {
			if (Character.isSurrogate((char) c)) {
				continue;
			}
			String value = "a" + (char) c;
			String segment = LockPath.escapeSegment(value);
			assertThatCode(() -> PathUtils.validatePath("/distlock/mutex/" + segment)).as("U+%04X", c)
				.doesNotThrowAnyException();
			boolean zooKeeperAcceptsIt = isValidZooKeeperPath("/distlock/mutex/" + value);
			assertThat(segment.equals(value)).as("U+%04X stands for itself", c)
				.isEqualTo(zooKeeperAcceptsIt && c != '/' && c != '%');
		}
	}

	private static boolean isValidZooKeeperPath(String path) {
		try {
			PathUtils.validatePath(path);
			return true;
		}
		catch (IllegalArgumentException ex) {
			return false;
		}
	}

	@Test
	void nullEmptyOverLongAndUnpairedSurrogatesAreRejected() {
		assertThatExceptionOfType(InvalidLockPathException.class).isThrownBy(() -> LockPath.escapeSegment(null))
			.withMessageContaining("null");
		assertThatExceptionOfType(InvalidLockPathException.class).isThrownBy(() -> LockPath.escapeSegment(""))
			.withMessageContaining("empty");
		assertThatExceptionOfType(InvalidLockPathException.class)
			.isThrownBy(() -> LockPath.escapeSegment("x".repeat(10_000)))
			.withMessageContaining("at most 255")
			.withMessageContaining("10000 characters");
		// 100 characters that each escape to 9: over the limit once escaped.
		assertThatExceptionOfType(InvalidLockPathException.class)
			.isThrownBy(() -> LockPath.escapeSegment("\ue000".repeat(100)))
			.withMessageContaining("once escaped");
		assertThatExceptionOfType(InvalidLockPathException.class).isThrownBy(() -> LockPath.escapeSegment("a\uD800b"))
			.withMessageContaining("unpaired surrogate");
	}

	@Test
	void escapingIsInjectiveAndDecodesBack() {
		Random random = new Random(42);
		String alphabet = "aA0/.%~-_ :+\u0000\u001f\u0085\u00e9\u4e00\ue000\ufff0\uD83D\uDE00";
		Map<String, String> seen = new HashMap<>();
		for (int i = 0; i < 50_000; i++) {
			StringBuilder value = new StringBuilder();
			int length = 1 + random.nextInt(6);
			for (int j = 0; j < length; j++) {
				int k = random.nextInt(alphabet.length() - 1);
				char c = alphabet.charAt(k);
				value.append(c);
				if (Character.isHighSurrogate(c)) {
					value.append(alphabet.charAt(k + 1));
				}
			}
			String raw = value.toString();
			if (hasUnpairedSurrogate(raw)) {
				continue;
			}
			String escaped = LockPath.escapeSegment(raw);
			assertThat(escaped).doesNotContain("/").isNotIn(".", "..");
			assertThat(isValidZooKeeperPath("/distlock/mutex/" + escaped)).as(escaped).isTrue();
			assertThat(URLDecoder.decode(escaped.replace("+", "%2B"), StandardCharsets.UTF_8)).isEqualTo(raw);
			assertThat(LockPath.unescapeSegment(escaped)).isEqualTo(raw);
			String previous = seen.put(escaped, raw);
			assertThat(previous).as("collision for %s", escaped).isIn(null, raw);
		}
	}

	@Test
	void unescapingRefusesAPercentWithoutTwoHexadecimalDigits() {
		assertThat(LockPath.unescapeSegment("orders:42")).isEqualTo("orders:42");
		assertThat(LockPath.unescapeSegment("a%2Fb%25")).isEqualTo("a/b%");
		for (String bad : List.of("a%", "a%2", "a%G0", "%%41")) {
			assertThatExceptionOfType(InvalidLockPathException.class).isThrownBy(() -> LockPath.unescapeSegment(bad))
				.withMessageContaining("'" + bad + "' is not an escaped segment");
		}
	}

	private static boolean hasUnpairedSurrogate(String value) {
		for (int i = 0; i < value.length(); i++) {
			char c = value.charAt(i);
			if (Character.isHighSurrogate(c) && i + 1 < value.length()
					&& Character.isLowSurrogate(value.charAt(i + 1))) {
				i++;
			}
			else if (Character.isSurrogate(c)) {
				return true;
			}
		}
		return false;
	}

	@Test
	void literalPathsMustBeWellFormed() {
		assertThat(LockPath.parse("orders/archive").segments()).containsExactly("orders", "archive");
		assertThatExceptionOfType(InvalidLockPathException.class).isThrownBy(() -> LockPath.parse("/orders"))
			.withMessageContaining("cannot start with '/'");
		assertThatExceptionOfType(InvalidLockPathException.class).isThrownBy(() -> LockPath.parse("orders/"))
			.withMessageContaining("cannot end with '/'");
		assertThatExceptionOfType(InvalidLockPathException.class).isThrownBy(() -> LockPath.parse("a//b"))
			.withMessageContaining("empty segment");
		assertThatExceptionOfType(InvalidLockPathException.class).isThrownBy(() -> LockPath.parse("a/../b"))
			.withMessageContaining("'.' and '..'");
		assertThatExceptionOfType(InvalidLockPathException.class).isThrownBy(() -> LockPath.parse("a\u0001b"))
			.withMessageContaining("U+0001");
		assertThatExceptionOfType(InvalidLockPathException.class).isThrownBy(() -> LockPath.parse(""))
			.withMessageContaining("empty");
		for (String dots : List.of(".", "..", "./a", "a/.", "a/./b", "a/..")) {
			assertThatExceptionOfType(InvalidLockPathException.class).as(dots)
				.isThrownBy(() -> LockPath.parse(dots))
				.withMessageContaining("'.' and '..'");
		}
		assertThat(LockPath.parse(".a/.../..b/a.").segments()).containsExactly(".a", "...", "..b", "a.");
		assertThat(LockPath.parse("x".repeat(255) + "/y").segments()).hasSize(2);
		assertThatExceptionOfType(InvalidLockPathException.class)
			.isThrownBy(() -> LockPath.parse("y/" + "x".repeat(256)))
			.withMessageContaining("a segment is 256 characters long");
	}

}
