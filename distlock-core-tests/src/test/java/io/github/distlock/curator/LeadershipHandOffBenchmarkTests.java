package io.github.distlock.curator;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.github.distlock.core.LeadershipGrantedEvent;
import io.github.distlock.core.LeadershipListener;
import io.github.distlock.testsupport.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * How long a hand-off takes, on loopback, opt-in
 * ({@code -Ddistlock.handoff.benchmark=200}): three distlock members (three clients) in
 * one group; {@code transferTo} the member right behind the leader, from the call until
 * the target's {@link LeadershipGrantedEvent}; then the same for {@code relinquish}, the
 * graceful shutdown's hand-over, until the next member's event. Prints the median and the
 * 99th percentile; asserts only that each hand-off reached its target. With
 * {@code -Ddistlock.handoff.stock=true} the server runs as a stock one does
 * ({@code tickTime=2000}, so sessions of 4 s to 40 s) instead of the harness's.
 */
@EnabledIfSystemProperty(named = "distlock.handoff.benchmark", matches = "\\d+")
class LeadershipHandOffBenchmarkTests {

	private static final String GROUP = "bench";

	@RegisterExtension
	final ZooKeeperExtension zookeeper = Boolean.getBoolean("distlock.handoff.stock")
			? new ZooKeeperExtension().withTickTime(Duration.ofSeconds(2)) : new ZooKeeperExtension();

	private final Map<String, CompletableFuture<Long>> grants = new ConcurrentHashMap<>();

	@Test
	void handOffsAndShutdownHandOvers() throws Exception {
		int rounds = Integer.getInteger("distlock.handoff.benchmark");
		List<CuratorLeadership> members = new ArrayList<>();
		for (String id : List.of("a", "b", "c")) {
			CuratorLeadership member = member(id);
			member.join(GROUP);
			members.add(member);
		}
		await().atMost(Duration.ofSeconds(20))
			.ignoreExceptions()
			.until(() -> members.get(0).inspect(GROUP).memberIds().size() == 3);
		List<Long> transfers = new ArrayList<>();
		List<Long> relinquishes = new ArrayList<>();
		for (int i = 0; i < 2 * rounds; i++) {
			CuratorLeadership leader = leader(members);
			List<String> queue = leader.inspect(GROUP).memberIds();
			String next = queue.get(1);
			CompletableFuture<Long> granted = new CompletableFuture<>();
			this.grants.put(next, granted);
			long start = System.nanoTime();
			if (i < rounds) {
				leader.transferTo(GROUP, next);
			}
			else {
				leader.relinquish(GROUP);
			}
			long at = granted.get(20, TimeUnit.SECONDS);
			((i < rounds) ? transfers : relinquishes).add(at - start);
			// The old leader is back in the queue before the next round reads it.
			await().atMost(Duration.ofSeconds(20))
				.ignoreExceptions()
				.until(() -> leader.inspect(GROUP).memberIds().size() == 3);
		}
		assertThat(transfers).hasSize(rounds);
		System.out.println("[measure] hand-off ("
				+ (Boolean.getBoolean("distlock.handoff.stock") ? "stock tickTime=2000" : "harness server") + "), "
				+ rounds + " transferTo to the next member: " + figures(transfers) + "; " + rounds
				+ " relinquish (shutdown): " + figures(relinquishes));
	}

	private CuratorLeadership leader(List<CuratorLeadership> members) {
		await().atMost(Duration.ofSeconds(20))
			.until(() -> members.stream().filter((member) -> member.isLeader(GROUP)).count() == 1);
		return members.stream().filter((member) -> member.isLeader(GROUP)).findFirst().orElseThrow();
	}

	private CuratorLeadership member(String id) {
		CuratorLeadership leadership = this.zookeeper.nodes()
			.register(new CuratorLeadership(this.zookeeper.newNode(), id));
		leadership.addListener(new LeadershipListener() {

			@Override
			public void granted(LeadershipGrantedEvent event) {
				CompletableFuture<Long> waiting = LeadershipHandOffBenchmarkTests.this.grants.remove(event.memberId());
				if (waiting != null) {
					waiting.complete(System.nanoTime());
				}
			}

		});
		return leadership;
	}

	private static String figures(List<Long> nanos) {
		List<Long> sorted = new ArrayList<>(nanos);
		Collections.sort(sorted);
		return String.format("median %.1f ms, p99 %.1f ms, max %.1f ms", sorted.get(sorted.size() / 2) / 1e6,
				sorted.get((int) Math.ceil(sorted.size() * 0.99) - 1) / 1e6, sorted.get(sorted.size() - 1) / 1e6);
	}

}
