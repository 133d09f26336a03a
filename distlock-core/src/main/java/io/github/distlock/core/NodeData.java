package io.github.distlock.core;

import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * Reads the data distlock writes into its lock nodes: one flat JSON object of strings and
 * numbers ({@code app}, {@code host}, {@code pid}, {@code thread}, {@code since}). Data
 * of another shape (a raw Curator node's IP address) reads as no fields.
 */
final class NodeData {

	private NodeData() {
	}

	static Map<String, String> fields(byte[] data) {
		String json = new String(data, StandardCharsets.UTF_8).strip();
		if (json.length() < 2 || json.charAt(0) != '{' || json.charAt(json.length() - 1) != '}') {
			return Map.of();
		}
		Map<String, String> fields = new LinkedHashMap<>();
		int[] at = { 1 };
		while (true) {
			skipBlanks(json, at);
			if (at[0] >= json.length() - 1) {
				return Collections.unmodifiableMap(fields);
			}
			String name = string(json, at);
			skipBlanks(json, at);
			if (name == null || !expect(json, at, ':')) {
				return Map.of();
			}
			skipBlanks(json, at);
			String value = (at[0] < json.length() && json.charAt(at[0]) == '"') ? string(json, at) : number(json, at);
			if (value == null) {
				return Map.of();
			}
			fields.put(name, value);
			skipBlanks(json, at);
			if (!expect(json, at, ',') && at[0] != json.length() - 1) {
				return Map.of();
			}
		}
	}

	private static void skipBlanks(String json, int[] at) {
		while (at[0] < json.length() && Character.isWhitespace(json.charAt(at[0]))) {
			at[0]++;
		}
	}

	private static boolean expect(String json, int[] at, char c) {
		if (at[0] < json.length() && json.charAt(at[0]) == c) {
			at[0]++;
			return true;
		}
		return false;
	}

	private static @Nullable String string(String json, int[] at) {
		if (!expect(json, at, '"')) {
			return null;
		}
		StringBuilder out = new StringBuilder();
		while (at[0] < json.length()) {
			char c = json.charAt(at[0]++);
			if (c == '"') {
				return out.toString();
			}
			if (c != '\\') {
				out.append(c);
			}
			else if (at[0] < json.length()) {
				char escaped = json.charAt(at[0]++);
				switch (escaped) {
					case 'u' -> {
						if (at[0] + 4 > json.length()) {
							return null;
						}
						out.append((char) Integer.parseInt(json.substring(at[0], at[0] + 4), 16));
						at[0] += 4;
					}
					case 'n' -> out.append('\n');
					case 't' -> out.append('\t');
					case 'r' -> out.append('\r');
					case 'b' -> out.append('\b');
					case 'f' -> out.append('\f');
					default -> out.append(escaped);
				}
			}
		}
		return null;
	}

	private static @Nullable String number(String json, int[] at) {
		int start = at[0];
		while (at[0] < json.length() && "+-0123456789.eE".indexOf(json.charAt(at[0])) >= 0) {
			at[0]++;
		}
		return (at[0] > start) ? json.substring(start, at[0]) : null;
	}

}
