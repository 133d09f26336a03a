package io.github.distlock.faults;

import java.util.Arrays;
import java.util.List;

import org.apache.zookeeper.client.FourLetterWordMain;
import org.apache.zookeeper.server.command.FourLetterCommands;

/**
 * Reads the watches a ZooKeeper server holds, by path, with the {@code wchp} four-letter
 * word (enabled for the servers this JVM starts afterwards).
 */
final class ServerWatches {

	private ServerWatches() {
	}

	/** Enable the four-letter words for servers started from now on in this JVM. */
	static void enable() {
		System.setProperty("zookeeper.4lw.commands.whitelist", "*");
		FourLetterCommands.resetWhiteList();
	}

	/**
	 * Return the watched paths under the fault tests' namespace on one server.
	 * @param port the server's client port
	 */
	static List<String> watchedLockPaths(int port) throws Exception {
		String report = FourLetterWordMain.send4LetterWord("localhost", port, "wchp");
		if (report.contains("not executed") || report.contains("not in the whitelist")) {
			throw new IllegalStateException("wchp refused: " + report);
		}
		return Arrays.stream(report.split("\n"))
			.map(String::trim)
			.filter((line) -> line.startsWith("/" + FaultClients.NAMESPACE))
			.toList();
	}

}
