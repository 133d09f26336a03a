package io.github.distlock.history;

import java.util.ArrayList;
import java.util.List;

import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.data.Stat;

import io.github.distlock.testsupport.Faults;

/**
 * The leadership hand-offs of the workload ({@code transferTo}) that succeeded, and their
 * judgement: the returned epoch is above the leader's, the latch node that epoch names
 * (its creating zxid) is the target's while it exists, and the target is told that it
 * leads with that epoch, unless it was not live and ready from the transfer's start on: a
 * fault struck its client, its client's connection changed, it left, relinquished,
 * drained or otherwise changed its membership of the group, or another client deleted its
 * latch node ({@link LatchDeletes}). No time bound on the telling: a starved machine
 * delays it, it cannot make a correct engine fail the rule.
 */
final class Transfers {

	private final CheckerRun run;

	private final List<Transfer> done = new ArrayList<>();

	Transfers(CheckerRun run) {
		this.run = run;
	}

	/**
	 * A transfer succeeded: check now that the node its epoch names is the target's, if
	 * it is still there (read through the given client), and keep it for the judgement at
	 * the end.
	 */
	void succeeded(Transfer transfer, CuratorFramework client, int op) {
		synchronized (this.done) {
			this.done.add(transfer);
		}
		if (transfer.epoch() <= transfer.from()) {
			this.run.violation(transfer.leader(), op, Leads.key(transfer.group()),
					"transfer: " + transfer.leader() + " handed " + transfer.group() + " (epoch " + transfer.from()
							+ ") to " + transfer.target().name() + ", whose epoch " + transfer.epoch()
							+ " is not larger");
		}
		String parent = "/leader/" + transfer.group();
		try {
			for (String child : Faults.children(client, parent)) {
				Stat stat = new Stat();
				byte[] data = client.getData().storingStatIn(stat).forPath(parent + "/" + child);
				if (stat.getCzxid() != transfer.epoch()) {
					continue;
				}
				String owner = new String(data, java.nio.charset.StandardCharsets.UTF_8);
				if (!owner.equals(transfer.target().memberId())) {
					this.run.violation(transfer.leader(), op, Leads.key(transfer.group()),
							"transfer: " + transfer.leader() + " handed " + transfer.group() + " to "
									+ transfer.target().name() + " with epoch " + transfer.epoch()
									+ ", but the latch node of that epoch, " + child + ", is " + owner + "'s");
				}
			}
		}
		catch (Exception ex) {
			// The client lost its connection: the check is left to the judgement.
			this.run.history()
				.record(History.Type.FAULT, transfer.leader(), op, Leads.key(transfer.group()), 0,
						"could not read the group after the transfer: " + ex);
		}
	}

	/**
	 * The transfers that succeeded whose target was never told it leads with the epoch.
	 */
	List<CheckerRun.Violation> judge(History history, Leads leads, List<FaultInjector.Window> windows,
			List<LatchDeletes.Deletion> deletions) {
		List<Transfer> all;
		synchronized (this.done) {
			all = List.copyOf(this.done);
		}
		List<CheckerRun.Violation> violations = new ArrayList<>();
		for (Transfer transfer : all) {
			LeaderMember target = transfer.target();
			boolean told = leads.leads()
				.stream()
				.anyMatch((lead) -> lead.member == target && lead.group.equals(transfer.group())
						&& lead.epoch == transfer.epoch());
			if (told || !ready(history, transfer, windows, deletions)) {
				continue;
			}
			History.Event event = history.record(History.Type.VIOLATION, transfer.leader(), 0,
					Leads.key(transfer.group()), transfer.epoch(),
					"transfer never led: " + transfer.leader() + " handed " + transfer.group() + " to " + target.name()
							+ " with epoch " + transfer.epoch() + " at " + history.millis(transfer.completed())
							+ " ms, and " + target.name()
							+ ", live and ready from the transfer's start on (no fault of its client, no"
							+ " connection change, no membership change of the group, its node not deleted by"
							+ " another client), was never told that it leads with that epoch");
			violations.add(new CheckerRun.Violation(transfer.completed(),
					"op 0 (" + transfer.leader() + "), event #" + event.seq() + ": " + event.text() + "\n"
							+ history.excerpt(event.seq(), Leads.key(transfer.group()), 12)));
		}
		return violations;
	}

	/** Whether the target stayed live and ready from the transfer's start on. */
	private static boolean ready(History history, Transfer transfer, List<FaultInjector.Window> windows,
			List<LatchDeletes.Deletion> deletions) {
		LeaderMember target = transfer.target();
		long from = transfer.started();
		if (windows.stream().anyMatch((fault) -> fault.nodes().contains(target.node().index) && fault.to() >= from)) {
			return false;
		}
		if (target.node().changes().stream().anyMatch((change) -> change.nanos() >= from)) {
			return false;
		}
		if (deletions.stream()
			.anyMatch((deletion) -> deletion.member().equals(target.name()) && deletion.group().equals(transfer.group())
					&& deletion.nanos() >= from)) {
			return false;
		}
		return history.events()
			.stream()
			.noneMatch((event) -> event.type() == History.Type.MEMBERSHIP && event.actor().equals(target.name())
					&& Leads.key(transfer.group()).equals(event.lock()) && event.nanos() >= from);
	}

	/** How many transfers succeeded, for the run's summary. */
	int succeeded() {
		synchronized (this.done) {
			return this.done.size();
		}
	}

	/**
	 * A transfer that succeeded.
	 *
	 * @param leader the member that handed its tenure
	 * @param target the member it named
	 * @param group the group
	 * @param from the leader's epoch
	 * @param epoch the target's epoch, as the transfer returned it
	 * @param started when the transfer was asked for
	 * @param completed when it completed
	 */
	record Transfer(String leader, LeaderMember target, String group, long from, long epoch, long started,
			long completed) {
	}

}
