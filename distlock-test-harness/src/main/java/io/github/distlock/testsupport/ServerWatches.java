package io.github.distlock.testsupport;

import java.util.Arrays;
import java.util.List;

import org.apache.zookeeper.client.FourLetterWordMain;
import org.apache.zookeeper.server.command.FourLetterCommands;

/**
 * Reads the watches a ZooKeeper server holds, by path, with the {@code wchp} four-letter
 * word (enabled for the servers this JVM starts afterwards): a test checks with it that
 * no watch is left behind.
 */
public final class ServerWatches {

	private ServerWatches() {
	}

	/** Enable the four-letter words for servers started from now on in this JVM. */
	public static void enable() {
		System.setProperty("zookeeper.4lw.commands.whitelist", "*");
		FourLetterCommands.resetWhiteList();
	}

	/**
	 * Return the watched paths under a namespace on one server, but for the notice node
	 * of forced releases ({@code /forced-releases}), which every distlock client keeps
	 * one watch on for as long as it lives.
	 * @param port the server's client port
	 * @param namespace the namespace of the nodes whose watches count
	 */
	public static List<String> watchedPaths(int port, String namespace) throws Exception {
		String report = FourLetterWordMain.send4LetterWord("localhost", port, "wchp");
		if (report.contains("not executed") || report.contains("not in the whitelist")) {
			throw new IllegalStateException("wchp refused: " + report);
		}
		return Arrays.stream(report.split("\n"))
			.map(String::trim)
			.filter((line) -> line.startsWith("/" + namespace))
			.filter((line) -> !line.equals("/" + namespace + "/forced-releases"))
			.toList();
	}

	/**
	 * Return the watched paths under the fault tests' namespace
	 * ({@link Faults#NAMESPACE}) on one server.
	 * @param port the server's client port
	 */
	public static List<String> watchedLockPaths(int port) throws Exception {
		return watchedPaths(port, Faults.NAMESPACE);
	}

}
