package io.github.distlock.history;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiPredicate;
import java.util.stream.Collectors;

import org.jspecify.annotations.Nullable;

import io.github.distlock.relay.TcpRelay;
import io.github.distlock.testsupport.Faults;
import io.github.distlock.testsupport.ZooKeeperEnsemble;

/**
 * Injects random faults, drawn from its own seeded {@link Random}, once the run's steered
 * phase is over ({@link CheckerRun#steering()}; that phase ends sessions on the server
 * for its downgrades, and cuts the LOST-policy node's own relays for a hold of its
 * {@link HoldWatcher}: {@link #givenUp}; with leadership its last part is this
 * injector's, a leading distlock member's session given up by its client), every one to
 * three seconds until the run stops: a session ended on the server (preferably of a node
 * whose holder is in a long pause), a session expired by its client while the server
 * keeps it, a server stopped and started again, with an ensemble a follower lost for a
 * while, the leader lost, the quorum lost (half the time for longer than the session
 * timeout), and a relay in front of one node that stops forwarding or drops its
 * connections. In the run's calm leadership phase ({@link CheckerRun#calm()}) it ends, on
 * their clients, the sessions of a distlock member that waits in a group and of one that
 * leads one (if no distlock member leads, the raw latch first relinquishes the groups it
 * leads), and nothing else until the phase is over (a session ended elsewhere could move
 * the waiting member's queue on). Records each fault as a window (which nodes, from when
 * to when) and leaves every server running and the relay forwarding when done.
 */
final class FaultInjector implements Runnable {

	/**
	 * How often (per cent of the faults, in runs with leadership) another client deletes
	 * a waiting latch member's node ({@link LatchDeletes}).
	 */
	private static final int LATCH_DELETES = 25;

	/** How long the steered latch deletes look for two members waiting in a row. */
	private static final Duration PAIR_SEARCH = Duration.ofSeconds(3);

	/**
	 * How long the steered session given up looks for a distlock member that leads, once
	 * every client is connected.
	 */
	private static final Duration LEADER_SEARCH = Duration.ofSeconds(4);

	private final CheckerRun run;

	private final ZooKeeperEnsemble ensemble;

	private final TcpRelay relay;

	/**
	 * The relays in front of each server for the LOST-policy node, cut to give its
	 * session up.
	 */
	private final List<TcpRelay> lostPolicyRelays;

	private final Random random;

	private final List<Window> windows = new ArrayList<>();

	private final List<SessionEnd> sessionEnds = new ArrayList<>();

	/** The nodes whose sessions the calm phase ended. */
	private final Set<Integer> calmVictims = new TreeSet<>();

	private volatile boolean calmBegun;

	private boolean latchRelinquished;

	/** The nodes whose sessions an actor is ending now. */
	private final Set<Integer> ending = ConcurrentHashMap.newKeySet();

	FaultInjector(CheckerRun run, ZooKeeperEnsemble ensemble, TcpRelay relay, List<TcpRelay> lostPolicyRelays,
			long seed) {
		this.run = run;
		this.ensemble = ensemble;
		this.relay = relay;
		this.lostPolicyRelays = lostPolicyRelays;
		this.random = new Random(seed);
	}

	@Override
	public void run() {
		try {
			boolean memberGivenUp = false;
			while (this.run.steering() && !this.run.faultsOver()) {
				if (!memberGivenUp && this.run.lastSteeredPartDue()) {
					memberGivenUp = true;
					try {
						steeredMemberGivenUp();
					}
					finally {
						this.run.steeredPartOver();
					}
					continue;
				}
				// The steered phase at the run's start ends its own sessions.
				DistlockActor.park(20);
			}
			if (!this.run.members().isEmpty() && !this.run.calm()) {
				steeredLatchDeletes();
			}
			while (true) {
				long sleep = 1000 + this.random.nextInt(2000);
				long calmIn = this.run.calmFrom() - System.nanoTime();
				if (!this.calmBegun && calmIn < TimeUnit.MILLISECONDS.toNanos(sleep + 1000)) {
					// No fault begins in the second before the calm phase.
					DistlockActor.park(Math.max(0, TimeUnit.NANOSECONDS.toMillis(calmIn)));
					if (this.run.faultsOver()) {
						return;
					}
					this.calmBegun = true;
					calmSessionsEnd();
					continue;
				}
				DistlockActor.park(sleep);
				if (this.run.faultsOver()) {
					return;
				}
				if (!this.run.calm()) {
					inject();
				}
			}
		}
		catch (Exception ex) {
			this.run.violation("faults", 0, null, "harness: the fault injector failed: " + CheckerRun.trace(ex));
		}
		finally {
			try {
				this.relay.resume();
				this.lostPolicyRelays.forEach(TcpRelay::restore);
				this.ensemble.restart();
			}
			catch (Exception ex) {
				this.run.violation("faults", 0, null,
						"harness: could not restore the servers: " + CheckerRun.trace(ex));
			}
		}
	}

	/**
	 * The first faults after the steered phase: twice, two distlock members waiting one
	 * behind the other lose their nodes to another client, the later one's first (see
	 * {@link LatchDeletes#pickPair}), so a member that does not queue again when it finds
	 * its node gone is left without one; looks for such a pair for up to
	 * {@link #PAIR_SEARCH} each time (the members' actors leave and join on their own).
	 */
	private void steeredLatchDeletes() throws Exception {
		for (int done = 0; done < 2 && !this.run.faultsOver();) {
			long until = System.nanoTime() + PAIR_SEARCH.toNanos();
			List<LatchDeletes.Deletion> pair = null;
			while (pair == null && System.nanoTime() < until && !this.run.faultsOver()) {
				pair = this.run.latchDeletes().pickPair(this.random);
				if (pair == null) {
					DistlockActor.park(100);
				}
			}
			if (pair == null) {
				this.run.history()
					.record(History.Type.FAULT, "faults", 0, null, 0, "steered latch deletes: no two members waiting");
				return;
			}
			LatchDeletes.Deletion later = pair.get(0);
			LatchDeletes.Deletion earlier = pair.get(1);
			fault("steered: latch nodes " + later.node() + " of " + later.member() + " then " + earlier.node() + " of "
					+ earlier.member() + " (places " + later.position() + " and " + earlier.position() + " in "
					+ later.group() + ") deleted by another client", Set.of(), () -> {
						this.run.latchDeletes().delete(later);
						this.run.latchDeletes().delete(earlier);
					});
			done++;
			DistlockActor.park(1000);
		}
	}

	/**
	 * The steered phase's last part, in runs with leadership: the session of a distlock
	 * member that leads a group (one that waits if none leads within
	 * {@link #LEADER_SEARCH}) is given up by its client while the server keeps it one
	 * more session timeout, as the calm phase does it; the member must delete its node of
	 * that session, which the server still lists first in the queue, and the presence
	 * rule judges a node it leaves there once its client is connected again. Looks for
	 * the member while every client is connected, from a seeded offset into the members
	 * drawn before the search.
	 */
	private void steeredMemberGivenUp() {
		List<LeaderMember> members = this.run.members().stream().filter(LeaderMember::distlock).toList();
		if (members.isEmpty()) {
			return;
		}
		int offset = this.random.nextInt(members.size());
		long until = System.nanoTime() + LEADER_SEARCH.toNanos();
		LeaderMember victim = null;
		while (victim == null && System.nanoTime() < until && !this.run.faultsOver()) {
			if (connected()) {
				victim = pick(members, offset, (member, group) -> member.leads(group));
			}
			if (victim == null) {
				DistlockActor.park(100);
			}
		}
		String role = "leads";
		if (victim == null) {
			role = "waits, none led";
			victim = pick(members, offset, (member, group) -> member.joined(group) && !member.leads(group));
		}
		if (victim == null || this.run.faultsOver()) {
			this.run.history()
				.record(History.Type.FAULT, "faults", 0, null, 0, "steered session given up: no member joined");
			return;
		}
		Node node = victim.node();
		while (!this.ending.add(node.index)) {
			// An actor is ending its session on the server: a second end waits.
			DistlockActor.park(20);
		}
		try {
			fault("steered: session of " + node.name + " given up by its client, the server keeps it (its member "
					+ role + ")", Set.of(node.index), () -> {
						try {
							Faults.expireSession(node.client);
						}
						catch (Exception ex) {
							this.run.history()
								.record(History.Type.FAULT, "faults", 0, null, 0, "could not expire it: " + ex);
						}
					});
		}
		finally {
			this.ending.remove(node.index);
		}
	}

	private void inject() throws Exception {
		if (!this.run.members().isEmpty() && this.random.nextInt(100) < LATCH_DELETES) {
			LatchDeletes.Deletion pick = this.run.latchDeletes().pick(this.random);
			if (pick != null) {
				fault("latch node " + pick.node() + " of " + pick.member() + " (place " + pick.position() + " in "
						+ pick.group() + ") deleted by another client", Set.of(),
						() -> this.run.latchDeletes().delete(pick));
				return;
			}
		}
		int choice = this.random.nextInt(100);
		List<Node> nodes = this.run.nodes();
		if (choice < 45) {
			// Every draw is made whatever happens, so the faults repeat with the seed.
			boolean preferPausing = this.random.nextInt(3) > 0;
			Node drawn = nodes.get(this.random.nextInt(nodes.size()));
			Node victim = this.run.pausingNode().filter((node) -> preferPausing).orElse(drawn);
			if (choice < 30) {
				fault("session of " + victim.name + " ended", Set.of(victim.index), () -> {
					try {
						killSession(victim);
					}
					catch (Exception ex) {
						this.run.history().record(History.Type.FAULT, "faults", 0, null, 0, "could not end it: " + ex);
					}
				});
			}
			else {
				// As Curator does when a connection stays lost past the session timeout:
				// the client gives its session up while the server still keeps it.
				fault("session of " + victim.name + " expired by its client", Set.of(victim.index), () -> {
					try {
						Faults.expireSession(victim.client);
					}
					catch (Exception ex) {
						this.run.history()
							.record(History.Type.FAULT, "faults", 0, null, 0, "could not expire it: " + ex);
					}
				});
			}
		}
		else if (choice < 65) {
			long downtime = 300 + this.random.nextInt(3000);
			boolean drop = this.random.nextBoolean();
			fault("relay in front of " + relayNodes() + (drop ? " drops, then paused" : " paused") + " for " + downtime
					+ " ms", relayIndexes(), () -> {
						if (drop) {
							this.relay.dropConnections();
						}
						this.relay.pause();
						DistlockActor.park(downtime);
						this.relay.resume();
					});
		}
		else if (this.ensemble.size() == 1 || choice < 75) {
			int leader = Math.max(0, this.ensemble.leader());
			stopAndRestart((this.ensemble.size() == 1) ? "server" : "leader", List.of(leader),
					(this.ensemble.size() == 1) ? downtime() : 200 + this.random.nextInt(2000));
		}
		else if (choice < 85) {
			int leader = this.ensemble.leader();
			List<Integer> followers = new ArrayList<>();
			for (int i = 0; i < this.ensemble.size(); i++) {
				if (i != leader) {
					followers.add(i);
				}
			}
			stopAndRestart("follower", List.of(followers.get(this.random.nextInt(followers.size()))),
					500 + this.random.nextInt(3000));
		}
		else {
			int spared = this.random.nextInt(this.ensemble.size());
			List<Integer> stopped = new ArrayList<>();
			for (int i = 0; i < this.ensemble.size(); i++) {
				if (i != spared) {
					stopped.add(i);
				}
			}
			stopAndRestart("quorum", stopped, downtime());
		}
	}

	/**
	 * The calm phase begins: end on their clients (the server keeps them one more session
	 * timeout) the sessions of a distlock member waiting in a group, then of one leading
	 * a group, each preferably on another node than the other: 0.5 s later, or, if every
	 * group the first waits in is led by the second (whose going would move its queue
	 * on), 2.5 s after the presence rule's window after the first.
	 */
	private void calmSessionsEnd() {
		List<LeaderMember> members = this.run.members().stream().filter(LeaderMember::distlock).toList();
		// Wait (5 s at most) until every client is back and a distlock member leads.
		long begun = System.nanoTime();
		long deadline = begun + TimeUnit.SECONDS.toNanos(5);
		while (System.nanoTime() < deadline && !settled(members)) {
			DistlockActor.park(100);
			if (System.nanoTime() - begun > TimeUnit.SECONDS.toNanos(1) && connected()
					&& pick(members, 0, (member, group) -> member.leads(group)) == null) {
				// Nobody relinquishes in the phase: a raw latch that leads every group
				// gives its tenures up, so that a distlock member leads.
				latchRelinquishes();
			}
		}
		DistlockActor.park(300);
		int offset = this.random.nextInt(Math.max(1, members.size()));
		LeaderMember leading = pick(members, offset, (member, group) -> member.leads(group));
		// Preferably one that waits in a group the other does not lead: the leader's
		// going would move its queue on.
		LeaderMember waiting = pick(members, offset, (member, group) -> member != leading && member.joined(group)
				&& !member.leads(group) && (leading == null || !leading.leads(group)));
		Duration presence = LatchPresence.window(Faults.NODES.sessionTimeout());
		// Else the leader's session ends once the waiting member was judged present (its
		// client reconnects, and the observer samples, within the 2.5 s added).
		Duration between = (waiting != null) ? Duration.ofMillis(500) : presence.plusMillis(2500);
		if (waiting == null) {
			waiting = pick(members, offset,
					(member, group) -> member != leading && member.joined(group) && !member.leads(group));
		}
		for (LeaderMember member : java.util.Arrays.asList(waiting, leading)) {
			if (member == null || this.calmVictims.contains(member.node().index)) {
				continue;
			}
			Node victim = member.node();
			this.calmVictims.add(victim.index);
			String role = (member == waiting) ? "waits" : "leads";
			fault("session of " + victim.name + " expired by its client (calm phase, its member " + role + ")",
					Set.of(victim.index), () -> {
						try {
							Faults.expireSession(victim.client);
						}
						catch (Exception ex) {
							this.run.history()
								.record(History.Type.FAULT, "faults", 0, null, 0, "could not expire it: " + ex);
						}
					});
			// The presence rule's window after each of them, and 3 s to judge in.
			this.run.calmUntil(System.nanoTime() + between.plus(presence).plusSeconds(3).toNanos());
			DistlockActor.park(between.toMillis());
		}
	}

	private boolean settled(List<LeaderMember> members) {
		return connected() && pick(members, 0, (member, group) -> member.leads(group)) != null;
	}

	private boolean connected() {
		return this.run.nodes().stream().allMatch((node) -> node.client.getZookeeperClient().isConnected());
	}

	/** The raw latch gives up the groups it leads, once, as its actor would. */
	private void latchRelinquishes() {
		if (this.latchRelinquished) {
			return;
		}
		this.latchRelinquished = true;
		for (LeaderMember member : this.run.members()) {
			for (int g = 0; g < CheckerRun.GROUPS && !member.distlock(); g++) {
				String group = CheckerRun.group(g);
				if (member.leads(group)) {
					this.run.history()
						.record(History.Type.MEMBERSHIP, member.name(), 0, Leads.key(group), 0,
								"relinquishes (calm phase: no distlock member leads)");
					try {
						member.relinquish(group);
					}
					catch (Exception ex) {
						this.run.history()
							.record(History.Type.FAULT, "faults", 0, null, 0, "could not relinquish: " + ex);
					}
				}
			}
		}
	}

	private static @Nullable LeaderMember pick(List<LeaderMember> members, int offset,
			BiPredicate<LeaderMember, String> role) {
		for (int i = 0; i < members.size(); i++) {
			LeaderMember member = members.get((offset + i) % members.size());
			for (int g = 0; g < CheckerRun.GROUPS; g++) {
				if (role.test(member, CheckerRun.group(g))) {
					return member;
				}
			}
		}
		return null;
	}

	/**
	 * End a node's session on the server now, as a fault of its own, for an actor's
	 * operation steered at a session's end.
	 * @param victim the node
	 * @param why what the actor does meanwhile, for the history
	 * @return whether the session ended
	 */
	boolean endSession(Node victim, String why) {
		AtomicBoolean ended = new AtomicBoolean();
		if (this.run.calm()) {
			// The calm phase ends no other session.
			return false;
		}
		if (!this.ending.add(victim.index)) {
			// Another actor is ending it: attaching to a closing session hangs.
			return false;
		}
		try {
			fault("session of " + victim.name + " ended (" + why + ")", Set.of(victim.index), () -> {
				try {
					killSession(victim);
					ended.set(true);
				}
				catch (Exception ex) {
					this.run.history().record(History.Type.FAULT, "faults", 0, null, 0, "could not end it: " + ex);
				}
			});
		}
		finally {
			this.ending.remove(victim.index);
		}
		return ended.get();
	}

	/**
	 * Keep ZooKeeper away from a node reached through its own relays until its client
	 * gave its session up, as a fault of its own for a hold steered at it: every relay is
	 * cut (the client's connections close at once and new ones are refused), the given
	 * action runs, and the relays relay again.
	 * @param victim the node whose client connects through the relays
	 * @param why what the holder does meanwhile, for the history
	 * @param whileAway what runs while the node cannot reach any server
	 */
	void givenUp(Node victim, String why, Runnable whileAway) {
		while (!this.ending.add(victim.index)) {
			// An actor is ending its session on the server: none begins while it is cut.
			DistlockActor.park(20);
		}
		try {
			fault("session of " + victim.name + " given up by its client: its relays cut (" + why + ")",
					Set.of(victim.index), () -> {
						this.lostPolicyRelays.forEach(TcpRelay::cut);
						try {
							whileAway.run();
						}
						finally {
							this.lostPolicyRelays.forEach(TcpRelay::restore);
						}
					});
		}
		finally {
			this.ending.remove(victim.index);
		}
	}

	/** End a node's session on the server, and note when it was gone. */
	private void killSession(Node victim) throws Exception {
		long from = System.nanoTime();
		Faults.killSession(victim.client);
		synchronized (this.sessionEnds) {
			this.sessionEnds.add(new SessionEnd(victim.index, from, System.nanoTime()));
		}
	}

	/**
	 * How long the quorum (or the single server) is away: half the time past the session
	 * timeout, so that clients give their sessions up (LOST) while the restarted servers
	 * keep them one more session timeout.
	 */
	private long downtime() {
		long session = Faults.NODES.sessionTimeout().toMillis();
		return this.random.nextBoolean() ? session + 500 + this.random.nextInt((int) session)
				: 500 + this.random.nextInt(3000);
	}

	private void stopAndRestart(String what, List<Integer> servers, long downtime) throws Exception {
		Set<Integer> affected = new TreeSet<>();
		for (Node node : this.run.nodes()) {
			int server = node.throughRelay ? 0
					: this.ensemble.serverOf(node.client.getZookeeperClient().getZooKeeper());
			// A leader's or the quorum's loss disturbs every session.
			if (!what.equals("follower") || server < 0 || servers.contains(server)) {
				affected.add(node.index);
			}
		}
		fault(what + " lost: servers " + servers + " stopped for " + downtime + " ms", affected, () -> {
			try {
				for (int server : servers) {
					this.ensemble.stop(server);
				}
				DistlockActor.park(downtime);
				for (int server : servers) {
					this.ensemble.restart(server);
				}
			}
			catch (Exception ex) {
				throw new IllegalStateException(ex);
			}
		});
	}

	private void fault(String what, Set<Integer> affected, Runnable action) {
		History.Event start = this.run.history()
			.record(History.Type.FAULT, "faults", 0, null, 0, what + ", affects " + names(affected));
		try {
			action.run();
		}
		finally {
			History.Event end = this.run.history().record(History.Type.FAULT, "faults", 0, null, 0, "over: " + what);
			synchronized (this.windows) {
				this.windows.add(new Window(what, affected, start.nanos(), end.nanos()));
			}
		}
	}

	private Set<Integer> relayIndexes() {
		return this.run.nodes()
			.stream()
			.filter((node) -> node.throughRelay)
			.map((node) -> node.index)
			.collect(Collectors.toSet());
	}

	private String relayNodes() {
		return names(relayIndexes());
	}

	private String names(Set<Integer> indexes) {
		return this.run.nodes()
			.stream()
			.filter((node) -> indexes.contains(node.index))
			.map((node) -> node.name)
			.collect(Collectors.joining(", "));
	}

	List<Window> windows() {
		synchronized (this.windows) {
			return List.copyOf(this.windows);
		}
	}

	/** The sessions ended on the server so far (not those that could not be ended). */
	List<SessionEnd> sessionEnds() {
		synchronized (this.sessionEnds) {
			return List.copyOf(this.sessionEnds);
		}
	}

	/**
	 * A node's session ended on the server: asked for at {@code from}, gone by
	 * {@code to}.
	 */
	record SessionEnd(int node, long from, long to) {
	}

	/** A fault: the nodes it affects, from its start to its end. */
	record Window(String what, Set<Integer> nodes, long from, long to) {
	}

}
