package io.github.distlock.history;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.zookeeper.data.Stat;

import io.github.distlock.testsupport.Faults;

/**
 * Every connected member stays in the election: an observer client that no fault is aimed
 * at lists each group's latch nodes every 100 ms (after a {@code sync}, so that it reads
 * what the ensemble has committed) with the session that owns each, and records, before
 * and after the listing, each distlock member's session, whether its client is connected
 * and whether it has joined the group. Once the run is over, each sample is judged
 * against the history's events:
 * <ul>
 * <li><b>Presence.</b> A member that had joined the group, with no join, leave or
 * relinquish of it in the window, whose client reported its last connection
 * ({@code CONNECTED} or {@code RECONNECTED}, with no change since) at least the window
 * before the sample, and no fault overlapping the window, has a latch node of its current
 * session. A fault counts if it affects the member's client (every fault of the leader or
 * the quorum does); the window is one session timeout (a session ended on the server is
 * learned by its client at its next ping, within it) plus ZooKeeper's read timeout, two
 * thirds of the session timeout (a connected client's request is answered within it, or
 * the client drops the connection, which the history records): the member's new node is
 * made in a few such requests.</li>
 * <li><b>No stale node.</b> A latch node owned by an earlier session of a member's
 * client, listed while that client is connected in a later session (the same one before
 * and after the listing, its last connection reported before the listing began) and after
 * the client reported that earlier session {@code LOST}, is one the member deletes: its
 * client is answered, at some time in the run, for a delete of that node sent in the
 * background (the engine deletes its node of a lost session when it learns of the loss,
 * or when it finds its waiting node was made in a replaced session, and Curator retries
 * such a guaranteed delete until answered; the server may keep that session, and the
 * node, one more session timeout). A leave or relinquish of the group between the last
 * listing that saw the client connected in the earlier session and its new connection
 * excuses it too (the engine deletes the node it led with then, answered to a callback of
 * its own). No time bound: a slow machine delays the answer, it does not lose it.</li>
 * </ul>
 * Only distlock's members are judged (the raw {@code LeaderLatch} takes part, but its
 * behaviour is Curator's). A sample is skipped when the observer itself is not connected
 * or its sync is not answered.
 */
final class LatchPresence implements Runnable {

	private final CheckerRun run;

	private final List<LeaderMember> members;

	private final CuratorFramework observer;

	private final List<Sample> samples = new ArrayList<>();

	/**
	 * Per member, each session of its client seen: when first seen, and when last seen
	 * connected.
	 */
	private final Map<String, Map<Long, long[]>> sessions = new HashMap<>();

	private int judged;

	private int judgedStale;

	LatchPresence(CheckerRun run, List<LeaderMember> members, CuratorFramework observer) {
		this.run = run;
		this.members = members.stream().filter(LeaderMember::distlock).toList();
		this.observer = observer;
	}

	/** How long after a fault and a connection a member's latch node must be there. */
	static Duration window(Duration session) {
		return session.plus(readTimeout(session));
	}

	/**
	 * ZooKeeper's client read timeout: a connected client hears from the server within
	 * it, or drops the connection.
	 */
	static Duration readTimeout(Duration session) {
		return session.multipliedBy(2).dividedBy(3);
	}

	@Override
	public void run() {
		while (!this.run.stopping()) {
			for (int g = 0; g < CheckerRun.GROUPS; g++) {
				try {
					sample(CheckerRun.group(g));
				}
				catch (Exception ex) {
					// Skipped: the observer could not read the group now.
				}
			}
			DistlockActor.park(100);
		}
	}

	private void sample(String group) throws Exception {
		if (!this.observer.getZookeeperClient().isConnected()) {
			return;
		}
		long start = System.nanoTime();
		Map<String, Seen> before = seen(group);
		String parent = "/leader/" + group;
		CountDownLatch synced = new CountDownLatch(1);
		this.observer.sync().inBackground((client, event) -> synced.countDown()).forPath(parent);
		if (!synced.await(2, TimeUnit.SECONDS)) {
			return;
		}
		Map<String, Long> owners = new LinkedHashMap<>();
		for (String child : Faults.children(this.observer, parent)) {
			Stat stat = this.observer.checkExists().forPath(parent + "/" + child);
			if (stat != null) {
				owners.put(child, stat.getEphemeralOwner());
			}
		}
		Map<String, Seen> after = seen(group);
		long end = System.nanoTime();
		if (!this.observer.getZookeeperClient().isConnected()) {
			return;
		}
		synchronized (this.samples) {
			this.samples.add(new Sample(group, start, end, before, after, owners));
		}
	}

	private Map<String, Seen> seen(String group) {
		Map<String, Seen> seen = new HashMap<>();
		for (LeaderMember member : this.members) {
			long session;
			try {
				session = member.node().client.getZookeeperClient().getZooKeeper().getSessionId();
			}
			catch (Exception ex) {
				session = 0;
			}
			boolean connected = member.node().client.getZookeeperClient().isConnected();
			seen.put(member.name(), new Seen(session, connected, member.joined(group)));
			if (session != 0) {
				long now = System.nanoTime();
				synchronized (this.sessions) {
					long[] times = this.sessions.computeIfAbsent(member.name(), (key) -> new HashMap<>())
						.computeIfAbsent(session, (key) -> new long[] { now, Long.MIN_VALUE });
					if (connected) {
						times[1] = now;
					}
				}
			}
		}
		return seen;
	}

	/**
	 * Judge the samples.
	 * @param history the run's history (membership changes)
	 * @param windows the faults
	 * @param session the session timeout
	 * @return what was broken, once per member, group and kind
	 */
	List<CheckerRun.Violation> judge(History history, List<FaultInjector.Window> windows, Duration session) {
		long window = window(session).toNanos();
		List<History.Event> membership = history.events()
			.stream()
			.filter((event) -> event.type() == History.Type.MEMBERSHIP)
			.toList();
		List<Transfer> transfers = transfers(history);
		List<CheckerRun.Violation> violations = new ArrayList<>();
		Set<String> reported = new HashSet<>();
		List<Sample> all;
		synchronized (this.samples) {
			all = List.copyOf(this.samples);
		}
		Map<String, List<Map.Entry<Long, Set<String>>>> listings = new HashMap<>();
		for (Sample sample : all) {
			listings.computeIfAbsent(sample.group(), (key) -> new ArrayList<>())
				.add(Map.entry(sample.start(), Set.copyOf(sample.owners().keySet())));
		}
		for (Sample sample : all) {
			for (LeaderMember member : this.members) {
				Seen before = sample.before().get(member.name());
				Seen after = sample.after().get(member.name());
				if (before.session() == 0 || before.session() != after.session() || !before.connected()
						|| !after.connected()) {
					continue;
				}
				long connectedSince = connectedSince(member.node(), sample.end());
				if (connectedSince == Long.MAX_VALUE) {
					continue;
				}
				if (connectedSince <= sample.start()) {
					stale(history, sample, member, connectedSince, membership, violations, reported);
				}
				if (!before.joined() || !after.joined() || connectedSince > sample.start() - window
						|| faultWithin(windows, member, sample.start() - window, sample.end())
						|| membershipWithin(membership, member.name(), sample.group(), sample.start() - window,
								sample.end())
						|| transferWithin(transfers, sample.group(), sample.start() - window, sample.end())) {
					continue;
				}
				if (this.run.latchDeletes()
					.excused(member.name(), sample.group(), sample.start(), sample.end(), window,
							listings.get(sample.group()))) {
					continue;
				}
				this.judged++;
				if (!sample.owners().containsValue(before.session())
						&& reported.add("presence " + member.name() + sample.group())) {
					violations.add(violation(history, sample, member, "latch presence: " + member.name()
							+ " had joined " + sample.group() + " and its client has been connected in session 0x"
							+ Long.toHexString(before.session()) + " for " + millis(sample.start() - connectedSince)
							+ " ms, with no fault of its client for more than " + millis(window)
							+ " ms (a session timeout and"
							+ " the read timeout), yet the group has no latch node of that session: "
							+ sample.owners()));
				}
			}
		}
		return violations;
	}

	/**
	 * The no-stale-node rule for one sample of one member, connected since the given time
	 * in the session it had before and after the listing.
	 */
	private void stale(History history, Sample sample, LeaderMember member, long connectedSince,
			List<History.Event> membership, List<CheckerRun.Violation> violations, Set<String> reported) {
		long current = sample.before().get(member.name()).session();
		Map<Long, long[]> earlier;
		synchronized (this.sessions) {
			earlier = new HashMap<>(this.sessions.getOrDefault(member.name(), Map.of()));
		}
		boolean judgedHere = false;
		for (Map.Entry<String, Long> node : sample.owners().entrySet()) {
			long[] times = earlier.get(node.getValue());
			if (node.getValue() == current || times == null || times[0] >= sample.start()
					|| !lostBetween(member.node(), times[0], connectedSince)) {
				continue;
			}
			if (!judgedHere) {
				judgedHere = true;
				this.judgedStale++;
			}
			String path = "/leader/" + sample.group() + "/" + node.getKey();
			if (member.node().deleteAnswered(path) || droppedWithin(membership, member.name(), sample.group(),
					Math.min(times[1], connectedSince), connectedSince)) {
				continue;
			}
			if (reported.add("stale " + member.name() + sample.group())) {
				violations.add(violation(history, sample, member,
						"stale latch node: " + member.name() + "'s client reported its session 0x"
								+ Long.toHexString(node.getValue()) + " LOST and has been connected in session 0x"
								+ Long.toHexString(current) + " since " + history.millis(connectedSince) + " ms, yet "
								+ sample.group() + " still had its node " + node.getKey()
								+ " of that earlier session, and the member never deleted it (its client was"
								+ " answered for no delete of it in the whole run, and it did not leave or"
								+ " relinquish the group meanwhile); latch nodes " + sample.owners()));
			}
		}
	}

	/** Whether the node's client reported {@code LOST} between the given times. */
	private static boolean lostBetween(Node node, long from, long to) {
		return node.changes()
			.stream()
			.anyMatch(
					(change) -> change.state() == ConnectionState.LOST && change.nanos() > from && change.nanos() < to);
	}

	/**
	 * When a node's client last reported a connection before the given time, if it
	 * reported no change since; {@link Long#MAX_VALUE} if its last change was not a
	 * connection.
	 */
	private static long connectedSince(Node node, long at) {
		Node.Change last = null;
		for (Node.Change change : node.changes()) {
			if (change.nanos() <= at) {
				last = change;
			}
		}
		if (last == null
				|| (last.state() != ConnectionState.CONNECTED && last.state() != ConnectionState.RECONNECTED)) {
			return Long.MAX_VALUE;
		}
		return last.nanos();
	}

	/** Whether a fault that affects the member's client overlaps the given time. */
	private static boolean faultWithin(List<FaultInjector.Window> windows, LeaderMember member, long from, long to) {
		return windows.stream()
			.anyMatch(
					(fault) -> fault.nodes().contains(member.node().index) && fault.from() <= to && fault.to() >= from);
	}

	/** Whether the member left or relinquished the group between the given times. */
	private static boolean droppedWithin(List<History.Event> events, String member, String group, long from, long to) {
		return membershipWithin(events.stream().filter((event) -> !event.text().equals("joins")).toList(), member,
				group, from, to);
	}

	/**
	 * The transfers of the run, from their start to their end ({@link Long#MAX_VALUE} if
	 * one had not ended when the run stopped): the distlock members between the leader
	 * and the target delete their nodes and queue again meanwhile.
	 */
	private static List<Transfer> transfers(History history) {
		List<History.Event> events = history.events();
		List<Transfer> spans = new ArrayList<>();
		for (History.Event start : events) {
			if (start.type() != History.Type.START || !start.text().startsWith("transfers ") || start.lock() == null) {
				continue;
			}
			long end = events.stream()
				.filter((event) -> event.type() == History.Type.ENDED && event.actor().equals(start.actor())
						&& event.op() == start.op() && event.seq() > start.seq())
				.mapToLong(History.Event::nanos)
				.findFirst()
				.orElse(Long.MAX_VALUE);
			spans.add(new Transfer(start.lock(), start.nanos(), end));
		}
		return spans;
	}

	/** Whether a transfer of the group was under way at some time between the two. */
	private static boolean transferWithin(List<Transfer> transfers, String group, long from, long to) {
		String key = Leads.key(group);
		return transfers.stream().anyMatch((span) -> span.lock().equals(key) && span.from() <= to && span.to() >= from);
	}

	/**
	 * A transfer of the group of the given lock key, under way from and to the given
	 * times.
	 */
	private record Transfer(String lock, long from, long to) {
	}

	private static boolean membershipWithin(List<History.Event> events, String member, String group, long from,
			long to) {
		String key = Leads.key(group);
		return events.stream()
			.anyMatch((event) -> event.actor().equals(member) && key.equals(event.lock()) && event.nanos() >= from
					&& event.nanos() <= to);
	}

	private CheckerRun.Violation violation(History history, Sample sample, LeaderMember member, String text) {
		History.Event event = history.record(History.Type.VIOLATION, member.name(), 0, Leads.key(sample.group()), 0,
				"at " + history.millis(sample.start()) + " ms: " + text);
		return new CheckerRun.Violation(sample.start(), "op 0 (" + member.name() + "), event #" + event.seq() + ": "
				+ text + "\n" + history.excerpt(event.seq(), Leads.key(sample.group()), 12));
	}

	private static long millis(long nanos) {
		return TimeUnit.NANOSECONDS.toMillis(nanos);
	}

	/** A line for the run's summary. */
	String summary() {
		synchronized (this.samples) {
			return "latch presence: " + this.samples.size() + " samples, " + this.judged + " member presences judged, "
					+ this.judgedStale + " judged for stale nodes";
		}
	}

	/** What the observer saw of a member: its session, connection and membership. */
	private record Seen(long session, boolean connected, boolean joined) {
	}

	/** One listing of a group, with the members as seen before and after it. */
	private record Sample(String group, long start, long end, Map<String, Seen> before, Map<String, Seen> after,
			Map<String, Long> owners) {
	}

}
