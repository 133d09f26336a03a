package io.github.distlock.core;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * A validated lock path relative to the lock root, such as {@code orders/42}. Segments
 * are separated by {@code /}; none is empty, {@code .} or {@code ..}, and each holds only
 * characters that ZooKeeper accepts in a node name.
 * <p>
 * Literal paths written by the developer are checked with {@link #parse(String)}. A value
 * that comes from outside (a method argument, a request parameter) must go through
 * {@link #child(String)} or {@link #escapeSegment(String)}: it then becomes exactly one
 * segment, whatever it contains, and two different values always give two different
 * segments. A value that is a valid ZooKeeper node name (no {@code /}, no {@code %}, not
 * {@code .} or {@code ..}, no character ZooKeeper refuses) is its own segment, so
 * {@code LockPath.of("orders", "eu:42")} is the node {@code orders/eu:42} that other
 * ZooKeeper clients name the same way.
 * <p>
 * Every path also knows its {@linkplain #template() template}: the shape it was built
 * from, with the values left out, such as {@code orders/{}} for
 * {@code LockPath.of("orders", id)}. Metrics and traces name a lock by its template, so
 * that the number of distinct names stays bounded. A literal path is its own template:
 * keep literal paths bounded, and build paths from keys with
 * {@link #of(String, String...)} or {@link #child(String)}.
 */
public final class LockPath implements Comparable<LockPath> {

	/** Longest segment, after escaping. */
	public static final int MAX_SEGMENT_LENGTH = 255;

	/** Longest path, after escaping, relative to the lock root. */
	public static final int MAX_PATH_LENGTH = 1024;

	private static final char[] HEX = "0123456789ABCDEF".toCharArray();

	private final String value;

	// Literal prefix of the template, and how many escaped children follow it: the
	// template string is built only when asked for.
	private final String literal;

	private final int children;

	private @Nullable String template;

	private LockPath(String value) {
		this(value, value, 0, value);
	}

	private LockPath(String value, String literal, int children, @Nullable String template) {
		this.value = value;
		this.literal = literal;
		this.children = children;
		this.template = template;
	}

	/**
	 * Parse a literal relative path such as {@code orders/archive}.
	 * @param path the path, without a leading or trailing {@code /}
	 * @return the validated path
	 * @throws InvalidLockPathException if the path is not well formed
	 */
	public static LockPath parse(String path) {
		String problem = problemWith(path);
		if (problem != null) {
			throw new InvalidLockPathException("Invalid lock path '" + printable(path) + "': " + problem);
		}
		return new LockPath(path);
	}

	/**
	 * Return a path made of the given literal path followed by one escaped segment per
	 * value.
	 * @param path literal prefix, validated as by {@link #parse(String)}
	 * @param values values that each become exactly one segment
	 * @return the path
	 */
	public static LockPath of(String path, String... values) {
		LockPath result = parse(path);
		for (String value : values) {
			result = result.child(value);
		}
		return result;
	}

	/**
	 * Return this path with one more segment holding the given value, escaped.
	 * @param value any non-empty string
	 * @return the longer path
	 * @throws InvalidLockPathException if the value is null, empty, not valid Unicode or
	 * too long
	 */
	public LockPath child(String value) {
		String joined = this.value + "/" + escapeSegment(value);
		if (joined.length() > MAX_PATH_LENGTH) {
			throw new InvalidLockPathException("Lock path '" + joined.substring(0, 64) + "...' is " + joined.length()
					+ " characters long; at most " + MAX_PATH_LENGTH + " are allowed");
		}
		return new LockPath(joined, this.literal, this.children + 1, null);
	}

	/**
	 * Return the same path, named by the given template in metrics and traces (the lock
	 * annotations pass their path template, such as {@code orders/#{#id}}). The template
	 * takes no part in equality.
	 * @param template a template with as few distinct values as the code has call sites
	 * @return the path with that template
	 */
	public LockPath withTemplate(String template) {
		return new LockPath(this.value, this.literal, this.children, template);
	}

	/**
	 * The shape this path was built from, naming it in metrics and traces: the template
	 * given to {@link #withTemplate(String)}, or else the literal part followed by
	 * {@code /{}} for each value added with {@link #child(String)} (so
	 * {@code LockPath.of("orders", id)} gives {@code orders/{}}), or else, for a literal
	 * path, the path itself.
	 * @return the template
	 */
	public String template() {
		String result = this.template;
		if (result == null) {
			StringBuilder builder = new StringBuilder(this.literal.length() + 3 * this.children).append(this.literal);
			for (int i = 0; i < this.children; i++) {
				builder.append("/{}");
			}
			result = builder.toString();
			this.template = result;
		}
		return result;
	}

	/**
	 * Escape a value so that it forms exactly one path segment. A value that is a valid
	 * ZooKeeper node name stands for itself ({@code orders:42}, {@code a b},
	 * {@code user@example.com}, letters of any script); only what would leave the segment
	 * or what ZooKeeper refuses is written as {@code %XX} for each byte of its UTF-8
	 * encoding:
	 * <ul>
	 * <li>{@code /}, and the dots of a value that is only {@code .} or {@code ..};</li>
	 * <li>{@code %}, the escape character itself, so that {@code a/b} ({@code a%2Fb}) and
	 * {@code a%2Fb} ({@code a%252Fb}) stay two segments;</li>
	 * <li>the characters ZooKeeper's {@code PathUtils} rejects in a node name: U+0000 to
	 * U+001F, U+007F to U+009F, U+D800 to U+F8FF (so every character outside the Basic
	 * Multilingual Plane, written as a surrogate pair, and the private use area) and
	 * U+FFF0 to U+FFFF.</li>
	 * </ul>
	 * The mapping is injective: decoding each {@code %XX} of the result gives the value
	 * back.
	 * @param value the value; {@code null} is rejected
	 * @return the escaped segment
	 * @throws InvalidLockPathException if the value is null, empty, holds an unpaired
	 * surrogate, or is longer than {@value #MAX_SEGMENT_LENGTH} characters once escaped
	 */
	public static String escapeSegment(String value) {
		if (value == null) {
			throw new InvalidLockPathException("A lock path segment cannot be null");
		}
		if (value.isEmpty()) {
			throw new InvalidLockPathException("A lock path segment cannot be empty");
		}
		if (value.length() > MAX_SEGMENT_LENGTH) {
			throw tooLong(value);
		}
		boolean onlyDots = value.equals(".") || value.equals("..");
		int first = onlyDots ? 0 : firstToEscape(value);
		if (first == value.length()) {
			return value;
		}
		StringBuilder escaped = new StringBuilder(value.length() + 8).append(value, 0, first);
		for (int i = first; i < value.length(); i++) {
			char c = value.charAt(i);
			if (!onlyDots && standsForItself(c)) {
				escaped.append(c);
				continue;
			}
			int end = i + 1;
			if (Character.isHighSurrogate(c) && end < value.length() && Character.isLowSurrogate(value.charAt(end))) {
				end++;
			}
			else if (Character.isSurrogate(c)) {
				throw new InvalidLockPathException("A lock path segment must be valid Unicode, but '" + printable(value)
						+ "' has an unpaired surrogate at index " + i);
			}
			for (byte b : value.substring(i, end).getBytes(StandardCharsets.UTF_8)) {
				escaped.append('%').append(HEX[(b >> 4) & 0xF]).append(HEX[b & 0xF]);
			}
			i = end - 1;
		}
		if (escaped.length() > MAX_SEGMENT_LENGTH) {
			throw tooLong(value);
		}
		return escaped.toString();
	}

	/**
	 * Give back the value an escaped segment stands for: the inverse of
	 * {@link #escapeSegment(String)}, decoding each {@code %XX} as a byte of UTF-8.
	 * @param segment a segment as {@link #escapeSegment(String)} writes it, such as the
	 * name of a node
	 * @return the value
	 * @throws InvalidLockPathException if a {@code %} is not followed by two hexadecimal
	 * digits
	 */
	public static String unescapeSegment(String segment) {
		int first = segment.indexOf('%');
		if (first < 0) {
			return segment;
		}
		StringBuilder value = new StringBuilder(segment.length()).append(segment, 0, first);
		ByteArrayOutputStream bytes = new ByteArrayOutputStream();
		int i = first;
		while (i < segment.length()) {
			char c = segment.charAt(i);
			if (c != '%') {
				value.append(c);
				i++;
				continue;
			}
			bytes.reset();
			while (i < segment.length() && segment.charAt(i) == '%') {
				int high = (i + 2 < segment.length()) ? Character.digit(segment.charAt(i + 1), 16) : -1;
				int low = (high >= 0) ? Character.digit(segment.charAt(i + 2), 16) : -1;
				if (low < 0) {
					throw new InvalidLockPathException("'" + printable(segment)
							+ "' is not an escaped segment: no two hexadecimal digits after" + " the % at index " + i);
				}
				bytes.write((high << 4) | low);
				i += 3;
			}
			value.append(new String(bytes.toByteArray(), StandardCharsets.UTF_8));
		}
		return value.toString();
	}

	private static int firstToEscape(String value) {
		for (int i = 0; i < value.length(); i++) {
			if (!standsForItself(value.charAt(i))) {
				return i;
			}
		}
		return value.length();
	}

	private static boolean standsForItself(char c) {
		return c != '/' && c != '%' && isAllowedByZooKeeper(c);
	}

	private static InvalidLockPathException tooLong(String value) {
		return new InvalidLockPathException("A lock path segment can hold at most " + MAX_SEGMENT_LENGTH
				+ " characters once escaped, but a value of " + value.length() + " characters ('"
				+ printable(value.substring(0, Math.min(32, value.length()))) + "...') was given");
	}

	/**
	 * Describe what is wrong with a literal path, or return {@code null} if it is well
	 * formed.
	 * @param path the path to check
	 * @return the problem, or {@code null}
	 */
	static String problemWith(String path) {
		if (path == null || path.isEmpty()) {
			return "it is empty";
		}
		if (path.startsWith("/")) {
			return "it must be relative to the lock root, so it cannot start with '/'";
		}
		if (path.endsWith("/")) {
			return "it cannot end with '/'";
		}
		if (path.length() > MAX_PATH_LENGTH) {
			return "it is " + path.length() + " characters long; at most " + MAX_PATH_LENGTH + " are allowed";
		}
		// One pass, without splitting: paths are checked on every locked call.
		int start = 0;
		for (int i = 0; i <= path.length(); i++) {
			if (i == path.length() || path.charAt(i) == '/') {
				int length = i - start;
				if (length == 0) {
					return "it has an empty segment ('//')";
				}
				if (path.charAt(start) == '.' && (length == 1 || (length == 2 && path.charAt(start + 1) == '.'))) {
					return "'.' and '..' cannot be segments";
				}
				if (length > MAX_SEGMENT_LENGTH) {
					return "a segment is " + length + " characters long; at most " + MAX_SEGMENT_LENGTH
							+ " are allowed";
				}
				start = i + 1;
				continue;
			}
			char c = path.charAt(i);
			if (!isAllowedByZooKeeper(c)) {
				return "character U+" + String.format("%04X", (int) c) + " at index " + i
						+ " is not allowed in a ZooKeeper path";
			}
		}
		return null;
	}

	// The ranges ZooKeeper's PathUtils.validatePath rejects in node names (the name
	// "zookeeper" is reserved only at the root, which no lock path is).
	private static boolean isAllowedByZooKeeper(char c) {
		return !(c <= '\u001f' || (c >= '\u007f' && c <= '\u009f') || (c >= '\ud800' && c <= '\uf8ff')
				|| c >= '\ufff0');
	}

	static String printable(String value) {
		if (value == null) {
			return "null";
		}
		StringBuilder out = new StringBuilder(Math.min(value.length(), 80));
		for (int i = 0; i < value.length() && out.length() < 80; i++) {
			char c = value.charAt(i);
			if (c < 0x20 || c == 0x7f || Character.isSurrogate(c)) {
				out.append(String.format("\\u%04x", (int) c));
			}
			else {
				out.append(c);
			}
		}
		if (out.length() >= 80) {
			out.append("...");
		}
		return out.toString();
	}

	/** The segments of this path, in order. */
	public List<String> segments() {
		return Arrays.asList(this.value.split("/"));
	}

	/** The path as a string relative to the lock root, such as {@code orders/42}. */
	public String value() {
		return this.value;
	}

	@Override
	public int compareTo(LockPath other) {
		return this.value.compareTo(other.value);
	}

	@Override
	public boolean equals(Object other) {
		return (this == other) || (other instanceof LockPath that && this.value.equals(that.value));
	}

	@Override
	public int hashCode() {
		return this.value.hashCode();
	}

	@Override
	public String toString() {
		return this.value;
	}

}
