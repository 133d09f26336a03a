package io.github.distlock.core;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

import org.jspecify.annotations.Nullable;

/**
 * Who waits for whom across instances, from the locks in use: an edge from each waiter to
 * each holder of the lock it waits for, and the cycles among them. A party is one holder
 * as its nodes name it: a session and, for a distlock node, the thread or asynchronous
 * scope that asked (one instance's threads are different parties), so a cycle is a
 * deadlock: each party holds a lock the next one waits for.
 * <p>
 * A semaphore's waiter waits for any one of its leases to end, not for each: its edges
 * are listed, but cycles are looked for among the exclusive protocols' edges only
 * (mutexes and read/write locks), where a waiter cannot go on before every holder it
 * waits behind has released.
 *
 * @param edges every waiter's edge to a holder, in the order of the locks
 * @param cycles the cycles among the exclusive locks' edges, each as its edges in order,
 * the last one's holder the first one's waiter
 */
public record WaitForGraph(List<Edge> edges, List<List<Edge>> cycles) {

	/**
	 * Build the graph of the given locks.
	 * @param locks the locks in use
	 * @return their wait-for graph, its cycles found
	 */
	public static WaitForGraph of(List<LockInUse> locks) {
		List<Edge> edges = new ArrayList<>();
		for (LockInUse lock : locks) {
			List<LockParticipant> holders = lock.holders();
			for (LockParticipant waiter : lock.waiters()) {
				Party from = Party.of(waiter);
				for (LockParticipant holder : holders) {
					Party to = Party.of(holder);
					if (!from.equals(to)) {
						edges.add(new Edge(from, to, lock.path(), lock.protocol(), waiter, holder));
					}
				}
			}
		}
		return new WaitForGraph(List.copyOf(edges), cycles(edges));
	}

	/**
	 * Whether the graph has a cycle: a deadlock across instances.
	 * @return {@code true} if {@link #cycles()} is not empty
	 */
	public boolean hasDeadlock() {
		return !this.cycles.isEmpty();
	}

	/** One cycle per strongly connected part of the exclusive edges (Tarjan). */
	private static List<List<Edge>> cycles(List<Edge> all) {
		Map<Party, List<Edge>> out = new LinkedHashMap<>();
		for (Edge edge : all) {
			if (edge.protocol() != LockProtocol.SEMAPHORE) {
				out.computeIfAbsent(edge.waiter(), (party) -> new ArrayList<>()).add(edge);
				out.computeIfAbsent(edge.holder(), (party) -> new ArrayList<>());
			}
		}
		List<List<Edge>> cycles = new ArrayList<>();
		for (Set<Party> component : new Components(out).find()) {
			if (component.size() > 1) {
				cycles.add(cycleWithin(component, out));
			}
		}
		return List.copyOf(cycles);
	}

	/** A cycle through the first party of a strongly connected part, by breadth first. */
	private static List<Edge> cycleWithin(Set<Party> component, Map<Party, List<Edge>> out) {
		Party start = component.iterator().next();
		Map<Party, Edge> reachedBy = new HashMap<>();
		Deque<Party> next = new ArrayDeque<>(List.of(start));
		while (!next.isEmpty()) {
			Party party = next.removeFirst();
			for (Edge edge : out.get(party)) {
				if (!component.contains(edge.holder()) || reachedBy.containsKey(edge.holder())) {
					continue;
				}
				reachedBy.put(edge.holder(), edge);
				if (edge.holder().equals(start)) {
					List<Edge> cycle = new ArrayList<>();
					for (Edge back = edge; back != null; back = back.waiter().equals(start) ? null
							: reachedBy.get(back.waiter())) {
						cycle.add(0, back);
					}
					return List.copyOf(cycle);
				}
				next.addLast(edge.holder());
			}
		}
		throw new IllegalStateException("No cycle through " + start + " in its own strongly connected part");
	}

	/**
	 * One holder or waiter: a session and, for a distlock node, the thread or scope that
	 * asked.
	 *
	 * @param session the ZooKeeper session that owns its nodes
	 * @param holder the thread or asynchronous scope its distlock nodes name, or
	 * {@code null} for another client's nodes
	 * @param description how operators read it ({@link LockParticipant#describe()})
	 */
	public record Party(long session, @Nullable String holder, String description) {

		static Party of(LockParticipant participant) {
			return new Party(participant.session(), participant.identity().get("thread"), participant.describe());
		}

		@Override
		public boolean equals(Object other) {
			return other instanceof Party party && party.session == this.session
					&& Objects.equals(party.holder, this.holder);
		}

		@Override
		public int hashCode() {
			return Long.hashCode(this.session) * 31 + Objects.hashCode(this.holder);
		}

	}

	/**
	 * A waiter waiting for a holder at one lock.
	 *
	 * @param waiter who waits
	 * @param holder who holds
	 * @param path the lock
	 * @param protocol the lock's protocol
	 * @param waiterNode the waiter's node
	 * @param holderNode the holder's node
	 */
	public record Edge(Party waiter, Party holder, LockPath path, LockProtocol protocol, LockParticipant waiterNode,
			LockParticipant holderNode) {
	}

	/** Tarjan's strongly connected components, iterative. */
	private static final class Components {

		private final Map<Party, List<Edge>> out;

		private final Map<Party, Integer> index = new HashMap<>();

		private final Map<Party, Integer> low = new HashMap<>();

		private final Deque<Party> stack = new ArrayDeque<>();

		private final Set<Party> onStack = new LinkedHashSet<>();

		private final List<Set<Party>> found = new ArrayList<>();

		Components(Map<Party, List<Edge>> out) {
			this.out = out;
		}

		List<Set<Party>> find() {
			for (Party party : this.out.keySet()) {
				if (!this.index.containsKey(party)) {
					visit(party);
				}
			}
			return this.found;
		}

		private void visit(Party root) {
			Deque<Object[]> work = new ArrayDeque<>();
			enter(root);
			work.push(new Object[] { root, 0 });
			while (!work.isEmpty()) {
				Object[] frame = work.peek();
				Party party = (Party) frame[0];
				int next = (int) frame[1];
				List<Edge> edges = this.out.get(party);
				if (next < edges.size()) {
					frame[1] = next + 1;
					Party to = edges.get(next).holder();
					if (!this.index.containsKey(to)) {
						enter(to);
						work.push(new Object[] { to, 0 });
					}
					else if (this.onStack.contains(to)) {
						this.low.put(party, Math.min(this.low.get(party), this.index.get(to)));
					}
					continue;
				}
				work.pop();
				if (!work.isEmpty()) {
					Party parent = (Party) work.peek()[0];
					this.low.put(parent, Math.min(this.low.get(parent), this.low.get(party)));
				}
				if (this.low.get(party).equals(this.index.get(party))) {
					Set<Party> component = new LinkedHashSet<>();
					Party member;
					do {
						member = this.stack.pop();
						this.onStack.remove(member);
						component.add(member);
					}
					while (!member.equals(party));
					this.found.add(component);
				}
			}
		}

		private void enter(Party party) {
			int at = this.index.size();
			this.index.put(party, at);
			this.low.put(party, at);
			this.stack.push(party);
			this.onStack.add(party);
		}

	}

}
