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
final class HolderIdentity {

	private final String prefix;

	HolderIdentity(String applicationName) {
		this.prefix = "{\"app\":" + quote(applicationName) + ",\"host\":" + quote(hostName()) + ",\"pid\":"
				+ ProcessHandle.current().pid();
	}

	/**
	 * The node data for recipes whose node data is fixed when they are created
	 * (read/write locks and semaphores): the process, without thread and time.
	 */
	byte[] processNodeData() {
		return (this.prefix + "}").getBytes(StandardCharsets.UTF_8);
	}

	/** The node data for a node created now by the current thread. */
	byte[] currentNodeData() {
		String json = this.prefix + ",\"thread\":" + quote(Thread.currentThread().getName()) + ",\"since\":"
				+ quote(Instant.now().toString()) + "}";
		return json.getBytes(StandardCharsets.UTF_8);
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
		StringBuilder out = new StringBuilder(value.length() + 2).append('"');
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
		return out.append('"').toString();
	}

}
