package io.github.distlock.curator;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.github.distlock.core.OwnedPartition;
import io.github.distlock.core.PartitionAssignedEvent;
import io.github.distlock.core.PartitionHash;
import io.github.distlock.core.PartitionListener;
import io.github.distlock.core.PartitionRevokedEvent;
import io.github.distlock.core.Partitions;
import io.github.distlock.testsupport.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * How fast partitions move, on loopback, opt-in
 * ({@code -Ddistlock.partitions.benchmark=20}): three members (three clients) own 64
 * partitions; in each round a fourth joins, and the time from its join until every
 * partition is owned as the hash says is measured, with the number of partitions that
 * moved (about 64 / 4 = 16 at least would have to); then it leaves, and each partition it
 * owned is timed from its revoked event to the new owner's assigned event. Prints the
 * figures; asserts only that the moves were the hash's.
 */
@EnabledIfSystemProperty(named = "distlock.partitions.benchmark", matches = "\\d+")
class PartitionsBenchmarkTests {

	private static final String GROUP = "bench";

	private static final int COUNT = 64;

	private static final Duration WITHIN = Duration.ofSeconds(30);

	@RegisterExtension
	final ZooKeeperExtension zookeeper = new ZooKeeperExtension();

	// When each partition was last revoked and assigned, by index.
	private final Map<Integer, Long> revokedAt = new ConcurrentHashMap<>();

	private final Map<Integer, Long> assignedAt = new ConcurrentHashMap<>();

	@Test
	void aFourthMemberJoinsAndLeaves() throws Exception {
		int rounds = Integer.getInteger("distlock.partitions.benchmark");
		List<Partitions> three = new ArrayList<>();
		for (String id : List.of("a", "b", "c")) {
			three.add(join(leadership(id)));
		}
		List<String> ids = List.of("a", "b", "c");
		List<String> withD = List.of("a", "b", "c", "d");
		awaitOwned(three, ids);
		int moving = 0;
		for (int index = 0; index < COUNT; index++) {
			if (!PartitionHash.ownerOf(ids, index).equals(PartitionHash.ownerOf(withD, index))) {
				moving++;
			}
		}
		CuratorLeadership d = leadership("d");
		List<Long> joins = new ArrayList<>();
		List<Long> handOvers = new ArrayList<>();
		int moved = 0;
		for (int round = 0; round < rounds; round++) {
			long start = System.nanoTime();
			Partitions fourth = join(d);
			List<Partitions> four = new ArrayList<>(three);
			four.add(fourth);
			awaitOwned(four, withD);
			joins.add(System.nanoTime() - start);
			moved = fourth.owned().size();
			List<Integer> given = fourth.owned().stream().map(OwnedPartition::index).toList();
			this.revokedAt.clear();
			this.assignedAt.clear();
			fourth.leave().get(WITHIN.toSeconds(), TimeUnit.SECONDS);
			awaitOwned(three, ids);
			// Owned before the listeners are told: wait for them.
			await().atMost(WITHIN).until(() -> this.assignedAt.keySet().containsAll(given));
			for (int index : given) {
				handOvers.add(this.assignedAt.get(index) - this.revokedAt.get(index));
			}
		}
		assertThat(moved).isEqualTo(moving);
		System.out.println("[measure] partitions, 3 members x " + COUNT + ", a fourth joins (" + rounds + " rounds): "
				+ moved + " partitions moved (the hash's " + moving + "), until all owned again " + figures(joins)
				+ "; it leaves, per partition from revoked to assigned (" + handOvers.size() + "): "
				+ figures(handOvers));
	}

	private CuratorLeadership leadership(String id) {
		return this.zookeeper.nodes().register(new CuratorLeadership(this.zookeeper.newNode(), id));
	}

	private Partitions join(CuratorLeadership leadership) {
		Partitions partitions = leadership.partitions(GROUP, COUNT);
		partitions.addListener(new PartitionListener() {

			@Override
			public void assigned(PartitionAssignedEvent event) {
				PartitionsBenchmarkTests.this.assignedAt.put(event.index(), System.nanoTime());
			}

			@Override
			public void revoked(PartitionRevokedEvent event) {
				PartitionsBenchmarkTests.this.revokedAt.put(event.index(), System.nanoTime());
			}

		});
		return partitions;
	}

	private void awaitOwned(List<Partitions> members, List<String> ids) {
		await().atMost(WITHIN).pollInterval(Duration.ofMillis(1)).until(() -> {
			for (int index = 0; index < COUNT; index++) {
				Partitions owner = members.get(ids.indexOf(PartitionHash.ownerOf(ids, index)));
				int partition = index;
				if (owner.owned().stream().noneMatch((owned) -> owned.index() == partition)) {
					return false;
				}
			}
			return true;
		});
	}

	private static String figures(List<Long> nanos) {
		List<Long> sorted = new ArrayList<>(nanos);
		Collections.sort(sorted);
		return String.format("median %.1f ms, p99 %.1f ms, max %.1f ms", sorted.get(sorted.size() / 2) / 1e6,
				sorted.get((int) Math.ceil(sorted.size() * 0.99) - 1) / 1e6, sorted.get(sorted.size() - 1) / 1e6);
	}

}
