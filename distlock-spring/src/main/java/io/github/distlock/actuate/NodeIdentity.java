package io.github.distlock.actuate;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * Who created a lock node, as its data says: the small flat JSON object distlock writes
 * ({@code {"app":..,"host":..,"pid":..,"thread":..,"since":..}}). Only these keys are
 * read; data in any other shape (a node of another library) gives no identity.
 *
 * @param app application name
 * @param host host name
 * @param pid process id
 * @param thread thread that created the node, if recorded
 * @param since when the node was created, if recorded
 */
public record NodeIdentity(@Nullable String app, @Nullable String host, @Nullable Long pid, @Nullable String thread,
		@Nullable String since) {

	private static final int MAX_LENGTH = 4096;

	/**
	 * Read the identity in a lock node's data.
	 * @param data the node data, possibly {@code null}
	 * @return the identity, or {@code null} if the data is not distlock's
	 */
	static @Nullable NodeIdentity parse(byte @Nullable [] data) {
		if (data == null || data.length == 0 || data.length > MAX_LENGTH) {
			return null;
		}
		Map<String, Object> fields = new FlatJson(new String(data, StandardCharsets.UTF_8)).object();
		if (fields == null || !(fields.get("app") instanceof String)) {
			return null;
		}
		return new NodeIdentity(string(fields, "app"), string(fields, "host"),
				(fields.get("pid") instanceof Long pid) ? pid : null, string(fields, "thread"),
				string(fields, "since"));
	}

	private static @Nullable String string(Map<String, Object> fields, String key) {
		return (fields.get(key) instanceof String value) ? value : null;
	}

	/** Reads one JSON object whose values are strings or integers, nothing else. */
	private static final class FlatJson {

		private final String text;

		private int index;

		FlatJson(String text) {
			this.text = text;
		}

		@Nullable Map<String, Object> object() {
			Map<String, Object> fields = new HashMap<>();
			try {
				skipSpace();
				expect('{');
				skipSpace();
				if (peek() == '}') {
					this.index++;
				}
				else {
					while (true) {
						skipSpace();
						String key = string();
						skipSpace();
						expect(':');
						skipSpace();
						fields.put(key, (peek() == '"') ? string() : number());
						skipSpace();
						char next = this.text.charAt(this.index++);
						if (next == '}') {
							break;
						}
						if (next != ',') {
							return null;
						}
					}
				}
				skipSpace();
				return (this.index == this.text.length()) ? fields : null;
			}
			catch (IllegalArgumentException | IndexOutOfBoundsException ex) {
				return null;
			}
		}

		private String string() {
			expect('"');
			StringBuilder out = new StringBuilder();
			while (true) {
				char c = this.text.charAt(this.index++);
				if (c == '"') {
					return out.toString();
				}
				if (c != '\\') {
					out.append(c);
					continue;
				}
				char escaped = this.text.charAt(this.index++);
				switch (escaped) {
					case '"', '\\', '/' -> out.append(escaped);
					case 'n' -> out.append('\n');
					case 't' -> out.append('\t');
					case 'r' -> out.append('\r');
					case 'b' -> out.append('\b');
					case 'f' -> out.append('\f');
					case 'u' -> {
						out.append((char) Integer.parseInt(this.text.substring(this.index, this.index + 4), 16));
						this.index += 4;
					}
					default -> throw new IllegalArgumentException("Bad escape");
				}
			}
		}

		private Long number() {
			int start = this.index;
			if (peek() == '-') {
				this.index++;
			}
			while (this.index < this.text.length() && Character.isDigit(this.text.charAt(this.index))) {
				this.index++;
			}
			return Long.parseLong(this.text.substring(start, this.index));
		}

		private char peek() {
			return this.text.charAt(this.index);
		}

		private void expect(char c) {
			if (this.text.charAt(this.index++) != c) {
				throw new IllegalArgumentException("Expected " + c);
			}
		}

		private void skipSpace() {
			while (this.index < this.text.length() && Character.isWhitespace(this.text.charAt(this.index))) {
				this.index++;
			}
		}

	}

}
