package io.github.distlock.history;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;

import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.data.Stat;
import org.jspecify.annotations.Nullable;

import io.github.distlock.testsupport.Faults;

/**
 * The fault "another client deletes a latch member's node": the raw Curator client
 * deletes the node of a distlock member that waits in a group (preferably right behind
 * the leader). A waiting member watches the node before its own, not its own, so it
 * learns of the delete when that predecessor goes: then it must queue again with a new
 * node. {@link LatchPresence} excuses the member's missing node from the delete until the
 * presence window after the predecessor was first listed gone ({@link #excused}); after
 * that a member without a node is a violation.
 */
final class LatchDeletes {

	private final CheckerRun run;

	private final List<Deletion> deletions = new ArrayList<>();

	LatchDeletes(CheckerRun run) {
		this.run = run;
	}

	/**
	 * Pick a waiting distlock member's node to delete.
	 * @return the pick, or {@code null} if no distlock member waits behind another node
	 */
	@Nullable Deletion pick(Random random) throws Exception {
		List<Deletion> candidates = waiting(CheckerRun.group(random.nextInt(CheckerRun.GROUPS)));
		if (candidates.isEmpty()) {
			return null;
		}
		// Right behind the leader where there is one: that member's predecessor moves
		// most often.
		Deletion first = candidates.get(0);
		return (first.position() == 1 && random.nextInt(3) > 0) ? first
				: candidates.get(random.nextInt(candidates.size()));
	}

	/**
	 * Pick two waiting distlock members next to each other in a group's queue, the later
	 * first: deleting its node, then its predecessor's, tells the later member at once
	 * (its watch is on the predecessor) that its own node is gone, so it must queue again
	 * then, not when the queue moves on.
	 * @return the later member's pick and its predecessor's, or {@code null} if no group
	 * has two distlock members waiting one behind the other
	 */
	@Nullable List<Deletion> pickPair(Random random) throws Exception {
		int first = random.nextInt(CheckerRun.GROUPS);
		for (int g = 0; g < CheckerRun.GROUPS; g++) {
			String group = CheckerRun.group((first + g) % CheckerRun.GROUPS);
			List<Deletion> waiting = waiting(group);
			for (int i = waiting.size() - 1; i > 0; i--) {
				Deletion later = waiting.get(i);
				Deletion earlier = waiting.get(i - 1);
				if (earlier.position() >= 1 && earlier.position() == later.position() - 1) {
					return List.of(later, earlier);
				}
			}
		}
		return null;
	}

	/** Delete the picked node, and note when. */
	void delete(Deletion pick) {
		try {
			raw().delete().forPath("/leader/" + pick.group() + "/" + pick.node());
			synchronized (this.deletions) {
				this.deletions.add(new Deletion(pick.member(), pick.group(), pick.node(), pick.predecessor(),
						pick.position(), System.nanoTime()));
			}
		}
		catch (Exception ex) {
			this.run.history().record(History.Type.FAULT, "faults", 0, null, 0, "could not delete it: " + ex);
		}
	}

	/** The nodes of the group's joined distlock members that wait behind another node. */
	private List<Deletion> waiting(String group) throws Exception {
		String parent = "/leader/" + group;
		CuratorFramework raw = raw();
		List<String> children = new ArrayList<>(Faults.children(raw, parent));
		children.sort(Comparator.comparing((String child) -> child.substring(Math.max(0, child.length() - 10))));
		List<Deletion> candidates = new ArrayList<>();
		for (int i = 1; i < children.size(); i++) {
			Stat stat = raw.checkExists().forPath(parent + "/" + children.get(i));
			LeaderMember owner = (stat != null) ? owner(stat.getEphemeralOwner()) : null;
			if (owner != null && owner.joined(group)) {
				candidates.add(new Deletion(owner.name(), group, children.get(i), children.get(i - 1), i, 0));
			}
		}
		return candidates;
	}

	private @Nullable LeaderMember owner(long session) {
		for (LeaderMember member : this.run.members()) {
			try {
				if (member.distlock()
						&& member.node().client.getZookeeperClient().getZooKeeper().getSessionId() == session) {
					return member;
				}
			}
			catch (Exception ex) {
				// Not connected now: not picked.
			}
		}
		return null;
	}

	/** The latch nodes deleted so far. */
	List<Deletion> deletions() {
		synchronized (this.deletions) {
			return List.copyOf(this.deletions);
		}
	}

	private CuratorFramework raw() {
		return this.run.nodes().get(this.run.nodes().size() - 1).client;
	}

	/**
	 * Whether a listing of a group at the given time may miss the member's node because
	 * of a delete: after a delete of its node, until the presence window after the first
	 * listing that no longer shows the node it waited on.
	 * @param listings each listing of the group: its start and its node names
	 */
	boolean excused(String member, String group, long start, long end, long window,
			List<Map.Entry<Long, java.util.Set<String>>> listings) {
		List<Deletion> all;
		synchronized (this.deletions) {
			all = List.copyOf(this.deletions);
		}
		for (Deletion deletion : all) {
			if (!deletion.member().equals(member) || !deletion.group().equals(group) || deletion.nanos() > end) {
				continue;
			}
			long gone = Long.MAX_VALUE;
			for (Map.Entry<Long, java.util.Set<String>> listing : listings) {
				if (listing.getKey() > deletion.nanos() && !listing.getValue().contains(deletion.predecessor())) {
					gone = listing.getKey();
					break;
				}
			}
			if (gone == Long.MAX_VALUE || start - window <= gone) {
				return true;
			}
		}
		return false;
	}

	/**
	 * A latch node deleted by another client.
	 *
	 * @param member the member whose node it was
	 * @param group its group
	 * @param node the node's name
	 * @param predecessor the node before it, which its member waited on
	 * @param position its place in the queue (the leader's is 0)
	 * @param nanos when it was deleted (0 for a pick)
	 */
	record Deletion(String member, String group, String node, String predecessor, int position, long nanos) {
	}

}
