package io.github.distlock.curator;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * The protocols' rules on queues as ZooKeeper lists them, also with sequence numbers at
 * their ceiling (past 2<sup>31</sup> child changes of the parent) and with children that
 * are not lock nodes.
 */
class QueueDriverTests {

	@Test
	void nodesAtTheCeilingSortAfterTheOthersInTheOrderTheyWereMade() {
		List<String> children = List.of("_c_1-lock--2147483647", "lock-2147483646", "_c_2-lock--2147483648",
				"_c_3-lock-2147483647", "orders");
		// The later node at 2147483647 was made after both below zero (a burst, then
		// one alone): its number says nothing of that.
		Map<String, Long> czxids = Map.of("_c_2-lock--2147483648", 10L, "_c_1-lock--2147483647", 11L,
				"_c_3-lock-2147483647", 12L);
		assertThat(QueueDriver.sorted(children, czxids, QueueDriver.LOCK_NAME)).containsExactly("lock-2147483646",
				"_c_2-lock--2147483648", "_c_1-lock--2147483647", "_c_3-lock-2147483647");
		assertThat(QueueDriver.MUTEX.decide(children, czxids, "_c_3-lock-2147483647", false))
			.isEqualTo(QueueDriver.Verdict.watch("_c_1-lock--2147483647"));
		assertThat(QueueDriver.MUTEX.decide(children, czxids, "lock-2147483646", false))
			.isEqualTo(QueueDriver.Verdict.HOLDS);
		assertThat(QueueDriver.atCeiling(children, QueueDriver.LOCK_NAME))
			.containsExactlyInAnyOrder("_c_1-lock--2147483647", "_c_2-lock--2147483648", "_c_3-lock-2147483647");
	}

	@Test
	void aNodeAtTheCeilingWhoseCreationIsNotKnownIsNeverSortedByGuess() {
		List<String> children = List.of("_c_a-lock-2147483647", "_c_b-lock-2147483647");
		assertThatIllegalStateException()
			.isThrownBy(() -> QueueDriver.sorted(children, Map.of("_c_a-lock-2147483647", 1L), QueueDriver.LOCK_NAME))
			.withMessageContaining("_c_b-lock-2147483647");
	}

	@Test
	void belowTheWrapTheOrderIsCuratorsTextOrder() {
		List<String> children = List.of("_c_a-lock-0000000010", "lock-0000000002", "_c_b-lock-0000000007");
		assertThat(QueueDriver.sorted(children, Map.of(), QueueDriver.LOCK_NAME)).containsExactly("lock-0000000002",
				"_c_b-lock-0000000007", "_c_a-lock-0000000010");
	}

	@Test
	void sequenceNumbersAreReadAfterTheLockName() {
		assertThat(QueueDriver.sequence("_c_3f2a-lock-0000000005", QueueDriver.LOCK_NAME)).isEqualTo(5);
		assertThat(QueueDriver.sequence("lock--2147483648", QueueDriver.LOCK_NAME)).isEqualTo(Integer.MIN_VALUE);
		assertThat(QueueDriver.sequence("_c_x-__WRIT__0000000042", QueueDriver.READ_NAME, QueueDriver.WRITE_NAME))
			.isEqualTo(42);
		assertThat(QueueDriver.isNode("lock-", QueueDriver.LOCK_NAME)).isFalse();
		assertThat(QueueDriver.isNode("lock--", QueueDriver.LOCK_NAME)).isFalse();
		assertThat(QueueDriver.isNode("lock-12a", QueueDriver.LOCK_NAME)).isFalse();
	}

	@Test
	void nodesOfOneNumberAtTheCeilingSortByCreationSoEveryClientSeesOneOrder() {
		List<String> children = List.of("_c_b-lock-2147483647", "_c_c-lock-2147483647", "_c_a-lock-2147483647",
				"_c_z-lock-2147483646");
		Map<String, Long> czxids = Map.of("_c_c-lock-2147483647", 5L, "_c_a-lock-2147483647", 7L,
				"_c_b-lock-2147483647", 6L);
		assertThat(QueueDriver.sorted(children, czxids, QueueDriver.LOCK_NAME)).containsExactly("_c_z-lock-2147483646",
				"_c_c-lock-2147483647", "_c_b-lock-2147483647", "_c_a-lock-2147483647");
	}

	@Test
	void leaseOfTheGuardHolderWaitsWhileLeasesAreTooMany() {
		QueueDriver.Lease lease = QueueDriver.lease(2);
		List<String> leases = List.of("lease-0000000001", "lease-0000000002", "lease-0000000003");
		assertThat(lease.holders(leases, "lease-0000000002")).containsExactly("lease-0000000001", "lease-0000000003");
		assertThat(lease.holders(leases.subList(0, 2), "lease-0000000002")).containsExactly("lease-0000000001",
				"lease-0000000002");
	}

}
