package io.github.distlock.core;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The wait-for graph's edges and cycles from given queues: a cycle through three
 * instances, two cycles apart, a semaphore's any-of wait left out of cycles, and threads
 * of one instance as different parties.
 */
class WaitForGraphTests {

	private long sequence;

	@Test
	void aCycleThroughThreeInstancesIsFoundInItsOrder() {
		List<LockInUse> locks = List.of(mutex("a", node(1, "t1"), node(2, "t2")),
				mutex("b", node(2, "t2"), node(3, "t3")), mutex("c", node(3, "t3"), node(1, "t1")));
		WaitForGraph graph = WaitForGraph.of(locks);
		assertThat(graph.edges()).hasSize(3);
		assertThat(graph.cycles()).singleElement().satisfies((cycle) -> {
			assertThat(cycle).hasSize(3);
			for (int i = 0; i < cycle.size(); i++) {
				assertThat(cycle.get(i).holder()).isEqualTo(cycle.get((i + 1) % cycle.size()).waiter());
			}
		});
	}

	@Test
	void twoSeparateCyclesAreTwoAndAChainIsNone() {
		List<LockInUse> locks = List.of(mutex("a", node(1, "t"), node(2, "t")), mutex("b", node(2, "t"), node(1, "t")),
				mutex("c", node(3, "t"), node(4, "t")), mutex("d", node(4, "t"), node(3, "t")),
				mutex("e", node(5, "t"), node(6, "t")), mutex("f", node(6, "t"), node(7, "t")));
		WaitForGraph graph = WaitForGraph.of(locks);
		assertThat(graph.cycles()).hasSize(2);
		assertThat(graph.cycles()).allSatisfy((cycle) -> assertThat(cycle).hasSize(2));
	}

	@Test
	void aSemaphoreWaitsForAnyLeaseSoItsEdgesMakeNoCycle() {
		LockInUse semaphore = new LockInUse(LockPath.parse("pool"), new LockQueue(LockProtocol.SEMAPHORE,
				"/semaphore/pool", List.of(lease(1, "t", true), lease(2, "t", true), lease(3, "t", false))));
		List<LockInUse> locks = List.of(semaphore, mutex("m", node(3, "t"), node(1, "t")));
		WaitForGraph graph = WaitForGraph.of(locks);
		assertThat(graph.edges()).hasSize(3);
		assertThat(graph.hasDeadlock()).isFalse();
	}

	@Test
	void twoThreadsOfOneInstanceAreTwoPartiesAndTheirCycleIsADeadlock() {
		List<LockInUse> locks = List.of(mutex("a", node(1, "worker-1"), node(1, "worker-2")),
				mutex("b", node(1, "worker-2"), node(1, "worker-1")));
		WaitForGraph graph = WaitForGraph.of(locks);
		assertThat(graph.cycles()).singleElement()
			.satisfies((cycle) -> assertThat(cycle).extracting((edge) -> edge.waiter().holder())
				.containsExactlyInAnyOrder("worker-1", "worker-2"));
	}

	@Test
	void aRawCuratorNodeIsItsSessionAndItsDataIsShownAsText() {
		LockParticipant raw = new LockParticipant("_c_x-lock-0000000001", 1, 7, Instant.EPOCH, true, null, 0x2a,
				"10.0.0.7".getBytes(StandardCharsets.UTF_8));
		assertThat(raw.identity()).isEmpty();
		assertThat(raw.describe()).isEqualTo("10.0.0.7 (session 0x2a)");
		LockParticipant ours = node(0x2b, "a \"quoted\" \\ thread\u0001");
		assertThat(ours.identity()).containsEntry("thread", "a \"quoted\" \\ thread\u0001")
			.containsEntry("pid", "42")
			.containsEntry("app", "orders");
		assertThat(ours.describe()).isEqualTo("orders@host-1:42 a \"quoted\" \\ thread\u0001 (session 0x2b)");
	}

	private LockInUse mutex(String path, LockParticipant holder, LockParticipant waiter) {
		return new LockInUse(LockPath.parse(path), new LockQueue(LockProtocol.MUTEX, "/mutex/" + path,
				List.of(holds(holder, true), holds(waiter, false))));
	}

	private static LockParticipant holds(LockParticipant node, boolean holds) {
		return new LockParticipant(node.name(), node.sequence(), node.fencingToken(), node.createdAt(), holds,
				node.side(), node.session(), node.data());
	}

	private LockParticipant lease(long session, String thread, boolean holds) {
		LockParticipant node = node(session, thread);
		return new LockParticipant(node.name(), node.sequence(), node.fencingToken(), node.createdAt(), holds,
				holds ? "lease" : "waiting", session, node.data());
	}

	private LockParticipant node(long session, String thread) {
		long at = ++this.sequence;
		StringBuilder escaped = new StringBuilder();
		for (char c : thread.toCharArray()) {
			if (c == '"' || c == '\\') {
				escaped.append('\\').append(c);
			}
			else if (c < 0x20) {
				escaped.append(String.format("\\u%04x", (int) c));
			}
			else {
				escaped.append(c);
			}
		}
		String data = "{\"app\":\"orders\",\"host\":\"host-1\",\"pid\":42,\"thread\":\"" + escaped
				+ "\",\"since\":\"2026-11-29T10:00:00.000Z\"}";
		return new LockParticipant("_c_x-lock-" + at, at, at, Instant.EPOCH, false, null, session,
				data.getBytes(StandardCharsets.UTF_8));
	}

}
