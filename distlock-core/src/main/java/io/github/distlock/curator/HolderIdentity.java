package io.github.distlock.curator;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;

/**
 * What a lock node says about who created it: application name, host name, process id,
 * thread and time, as a small JSON object. It replaces Curator's default node data, the
 * local IP address.
 */
final class HolderIdentity implements Identity {

	private final String prefix;

	private final String memberId;

	private volatile Second second = new Second(Long.MIN_VALUE, "");

	HolderIdentity(String applicationName) {
		this.memberId = memberId(applicationName);
		this.prefix = "{\"app\":" + quote(applicationName) + ",\"host\":" + quote(hostName()) + ",\"pid\":"
				+ ProcessHandle.current().pid();
	}

	/**
	 * The node data for a node created now for the given holder.
	 * @param holder the holder: a thread's name, or the name of an asynchronous scope
	 */
	@Override
	public byte[] nodeData(String holder) {
		StringBuilder json = new StringBuilder(this.prefix.length() + 96).append(this.prefix).append(",\"thread\":");
		quote(json, holder);
		json.append(",\"since\":\"");
		appendNow(json);
		return json.append("\"}").toString().getBytes(StandardCharsets.UTF_8);
	}

	@Override
	public String memberId() {
		return this.memberId;
	}

	/** The member id of the given application in this process: {@code app@host:pid}. */
	static String memberId(String applicationName) {
		return applicationName + "@" + hostName() + ":" + ProcessHandle.current().pid();
	}

	/** The current time as {@link #nodeData(String)} writes it. */
	String now() {
		return appendNow(new StringBuilder(24)).toString();
	}

	/**
	 * Append the current time as an ISO-8601 instant with milliseconds, such as
	 * {@code 2026-11-22T06:41:07.512Z}. The date and time of day are formatted once per
	 * second: {@link Instant#toString()} costs a few microseconds, a noticeable part of
	 * an uncontended lock cycle.
	 */
	private StringBuilder appendNow(StringBuilder out) {
		long millis = System.currentTimeMillis();
		long epochSecond = Math.floorDiv(millis, 1000);
		Second second = this.second;
		if (second.epochSecond() != epochSecond) {
			String formatted = Instant.ofEpochSecond(epochSecond).toString();
			second = new Second(epochSecond, formatted.substring(0, formatted.length() - 1));
			this.second = second;
		}
		int fraction = (int) Math.floorMod(millis, 1000);
		return out.append(second.text())
			.append('.')
			.append((char) ('0' + fraction / 100))
			.append((char) ('0' + fraction / 10 % 10))
			.append((char) ('0' + fraction % 10))
			.append('Z');
	}

	private static String hostName() {
		try {
			return InetAddress.getLocalHost().getHostName();
		}
		catch (UnknownHostException ex) {
			return "unknown";
		}
	}

	static String quote(String value) {
		return quote(new StringBuilder(value.length() + 2), value).toString();
	}

	private static StringBuilder quote(StringBuilder out, String value) {
		out.append('"');
		for (int i = 0; i < value.length(); i++) {
			char c = value.charAt(i);
			switch (c) {
				case '"' -> out.append("\\\"");
				case '\\' -> out.append("\\\\");
				default -> {
					if (c < 0x20) {
						out.append(String.format("\\u%04x", (int) c));
					}
					else {
						out.append(c);
					}
				}
			}
		}
		return out.append('"');
	}

	/** The formatted date and time of day of one second since the epoch, without zone. */
	private record Second(long epochSecond, String text) {
	}

}
