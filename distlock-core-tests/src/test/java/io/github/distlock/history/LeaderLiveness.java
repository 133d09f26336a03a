package io.github.distlock.history;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Watches, during the run, that a group with members does not stay leaderless: whenever
 * every member that has joined a group is connected, some member must lead it within the
 * deadline. The clock starts again whenever a member that has joined is not connected
 * (its node may lead the queue, with a session that outlives the outage) or somebody
 * leads. Sampled every 100 ms.
 */
final class LeaderLiveness implements Runnable {

	private final CheckerRun run;

	private final List<LeaderMember> members;

	private final Duration deadline;

	private final Map<String, Long> leaderless = new HashMap<>();

	LeaderLiveness(CheckerRun run, List<LeaderMember> members, Duration deadline) {
		this.run = run;
		this.members = members;
		this.deadline = deadline;
	}

	@Override
	public void run() {
		while (!this.run.stopping()) {
			for (int g = 0; g < CheckerRun.GROUPS; g++) {
				sample(CheckerRun.group(g));
			}
			DistlockActor.park(100);
		}
	}

	private void sample(String group) {
		long now = System.nanoTime();
		List<LeaderMember> joined = this.members.stream().filter((member) -> member.joined(group)).toList();
		boolean connected = !joined.isEmpty()
				&& joined.stream().allMatch((member) -> member.node().client.getZookeeperClient().isConnected());
		boolean led = this.members.stream().anyMatch((member) -> member.leads(group));
		if (!connected || led) {
			this.leaderless.remove(group);
			return;
		}
		long since = this.leaderless.computeIfAbsent(group, (key) -> now);
		if (since != Long.MIN_VALUE && now - since > this.deadline.toNanos()) {
			this.leaderless.put(group, Long.MIN_VALUE);
			this.run.violation("liveness", 0, Leads.key(group),
					"liveness: nobody led " + group + " for " + this.deadline.toMillis()
							+ " ms while every member that had joined it was connected ("
							+ joined.stream().map(LeaderMember::name).collect(Collectors.joining(", ")) + ")");
		}
	}

}
