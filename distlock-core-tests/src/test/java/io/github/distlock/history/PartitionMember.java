package io.github.distlock.history;

import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.jspecify.annotations.Nullable;

import io.github.distlock.core.ConnectionLossPolicy;
import io.github.distlock.core.PartitionAssignedEvent;
import io.github.distlock.core.PartitionListener;
import io.github.distlock.core.PartitionRevokedEvent;
import io.github.distlock.core.Partitions;
import io.github.distlock.curator.CuratorLeadership;
import io.github.distlock.curator.CuratorLocks;
import io.github.distlock.testsupport.Faults;

/**
 * A distlock node's part in the partitioned workload, and its thread: a
 * {@link CuratorLeadership} on an engine of its own on the node's client (under the
 * node's connection-loss policy), whose listeners tell {@link Owners} each ownership of
 * {@link Owners#GROUP}. Its thread joins the group, and sometimes leaves it and joins
 * again, drawing its choices from its own seeded {@link Random} (operation n is the same
 * in every run with the seed); in the run's calm phase it only joins. Its listener takes
 * a while (0 to 250 ms) to stop the work of a revoked partition, as an application's
 * does: the partition is handed over only once it returns.
 */
final class PartitionMember implements Runnable {

	private final CheckerRun run;

	private final Node node;

	private final String name;

	private final CuratorLocks locks;

	private final CuratorLeadership leadership;

	private final Owners owners;

	private final long seed;

	private final Random stops;

	private volatile @Nullable Partitions partitions;

	PartitionMember(CheckerRun run, Node node, ConnectionLossPolicy policy, Owners owners, long seed) {
		this.run = run;
		this.node = node;
		this.name = node.name.replace("/relay", "") + "-parts";
		this.locks = Faults.NODES.withConnectionLossPolicy(policy).createLocks(node.client);
		this.leadership = new CuratorLeadership(this.locks, this.name);
		this.owners = owners;
		this.seed = seed;
		this.stops = new Random(seed ^ 0x9E3779B97F4A7C15L);
	}

	String name() {
		return this.name;
	}

	Node node() {
		return this.node;
	}

	/** The group's membership, if it has joined (and not left since). */
	@Nullable Partitions partitions() {
		return this.partitions;
	}

	@Override
	public void run() {
		while (!this.run.stopping()) {
			int op = this.run.nextOp(this.name);
			Random random = new Random(this.seed * 1_000_003L + op);
			int choice = random.nextInt(100);
			try {
				if (this.partitions == null) {
					if (this.run.calm() || choice < 60) {
						join(op);
					}
				}
				else if (!this.run.calm() && choice < 8) {
					leave(op);
				}
			}
			catch (Throwable ex) {
				this.run.violation(this.name, op, null,
						"unexpected error: the partitioned operation failed: " + CheckerRun.trace(ex));
			}
			DistlockActor.park(100 + random.nextInt(500));
		}
	}

	/** Join the group, if not a member: its listener is told from then on. */
	void join(int op) {
		if (this.partitions != null) {
			return;
		}
		this.owners.membership(this.name, op, "joins");
		Partitions joined = this.leadership.partitions(Owners.GROUP, Owners.COUNT);
		joined.addListener(new Listener());
		this.partitions = joined;
	}

	/**
	 * Leave the group: returns once ZooKeeper confirmed the deletes, or after 5 s (then
	 * deleted in the background).
	 */
	void leave(int op) throws InterruptedException {
		Partitions left = this.partitions;
		if (left == null) {
			return;
		}
		this.partitions = null;
		this.owners.membership(this.name, op, "leaves");
		CompletableFuture<Void> deleted = left.leave();
		try {
			deleted.get(5, TimeUnit.SECONDS);
		}
		catch (ExecutionException | TimeoutException ex) {
			// Deleted in the background once ZooKeeper answers.
		}
	}

	void close() {
		this.leadership.close();
		this.locks.close();
	}

	/** Tells {@link Owners}; a revoked partition's work takes a while to stop. */
	private final class Listener implements PartitionListener {

		@Override
		public void assigned(PartitionAssignedEvent event) {
			PartitionMember.this.owners.assigned(PartitionMember.this, event.index(), event.epoch());
		}

		@Override
		public void revoked(PartitionRevokedEvent event) {
			int stopping;
			synchronized (PartitionMember.this.stops) {
				stopping = PartitionMember.this.stops.nextInt(251);
			}
			DistlockActor.park(stopping);
			PartitionMember.this.owners.revoked(PartitionMember.this, event.index(), event.epoch(),
					event.reason().name());
		}

	}

}
