package io.github.distlock.history;

import java.time.Duration;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.jspecify.annotations.Nullable;

import io.github.distlock.core.ConnectionLossPolicy;
import io.github.distlock.core.LeadershipGrantedEvent;
import io.github.distlock.core.LeadershipListener;
import io.github.distlock.core.LeadershipRevokedEvent;
import io.github.distlock.core.LockHandle;
import io.github.distlock.curator.CuratorLeadership;
import io.github.distlock.curator.CuratorLocks;
import io.github.distlock.testsupport.Faults;

/**
 * A distlock node's part in the leadership workload: the engine's
 * {@link CuratorLeadership} on the node's {@code CuratorLocks}, its events told to
 * {@link Leads}. A tenure for work is {@link CuratorLeadership#tenure(String)}; its epoch
 * is the handle's fencing token. Members of odd-numbered nodes lead under
 * {@link ConnectionLossPolicy#LOST} (a tenure in doubt while the connection is away), the
 * others under the nodes' {@link ConnectionLossPolicy#SUSPENDED}.
 */
final class DistlockMember implements LeaderMember, LeadershipListener {

	private final Node node;

	private final String name;

	private final CuratorLeadership leadership;

	private final Leads leads;

	private final @Nullable CuratorLocks own;

	/**
	 * A member on the node's engine, or, under another connection-loss policy than the
	 * node's or if it drains, on an engine of its own on the same client (closed with the
	 * member), whose drain refuses none of the node's locks.
	 */
	DistlockMember(Node node, Leads leads, ConnectionLossPolicy policy, boolean drains) {
		this.node = node;
		this.name = node.name.replace("/relay", "") + "-leader";
		this.own = (drains || policy != node.locks.connectionLossPolicy())
				? Faults.NODES.withConnectionLossPolicy(policy).createLocks(node.client) : null;
		// Its name is its member id, which a transfer names its target by (the nodes
		// of one JVM would otherwise share one).
		this.leadership = new CuratorLeadership((this.own != null) ? this.own : node.locks, this.name);
		this.leads = leads;
		this.leadership.addListener(this);
	}

	@Override
	public String name() {
		return this.name;
	}

	@Override
	public Node node() {
		return this.node;
	}

	@Override
	public boolean distlock() {
		return true;
	}

	@Override
	public String memberId() {
		return this.leadership.memberId();
	}

	CuratorLeadership leadership() {
		return this.leadership;
	}

	/** Whether it leads on an engine of its own, whose drain refuses no lock. */
	boolean drains() {
		return this.own != null;
	}

	/**
	 * Drain its own engine: it stands aside from every election until {@link #undrain}.
	 */
	void drain() {
		if (this.own != null) {
			this.own.admin().drain(Duration.ZERO);
		}
	}

	void undrain() {
		if (this.own != null) {
			this.own.admin().undrain();
		}
	}

	boolean draining() {
		return this.own != null && this.own.admin().isDraining();
	}

	/**
	 * Hand the tenure of the group to the member of the given id; its "I lead" interval
	 * ends here, as when it leaves (the engine ends the tenure before it deletes the
	 * node).
	 * @return the target's epoch, once ZooKeeper has its node first
	 */
	java.util.concurrent.CompletableFuture<Long> transferTo(String group, String memberId) {
		OptionalLong epoch = this.leadership.epoch(group);
		epoch.ifPresent((led) -> this.leads.ended(this, group, led, "transfers to " + memberId));
		return this.leadership.transferTo(group, memberId);
	}

	@Override
	public void join(String group) {
		this.leadership.join(group);
	}

	@Override
	public void leave(String group) throws Exception {
		// A member that leaves stops acting as leader when it decides to: its "I lead"
		// interval ends here (the engine ends the tenure before it deletes the node).
		OptionalLong epoch = this.leadership.epoch(group);
		epoch.ifPresent((led) -> this.leads.ended(this, group, led, "leaves"));
		var deleted = this.leadership.leave(group);
		try {
			deleted.get(2, TimeUnit.SECONDS);
		}
		catch (TimeoutException | ExecutionException ex) {
			// Deleted in the background once ZooKeeper answers.
		}
	}

	@Override
	public void relinquish(String group) {
		OptionalLong epoch = this.leadership.epoch(group);
		epoch.ifPresent((led) -> this.leads.ended(this, group, led, "relinquishes"));
		this.leadership.relinquish(group);
	}

	/**
	 * Whether it takes part in the group's election (not while it stands aside,
	 * draining).
	 */
	@Override
	public boolean joined(String group) {
		return this.leadership.groups().contains(group) && !draining();
	}

	@Override
	public boolean leads(String group) {
		return this.leadership.isLeader(group);
	}

	@Override
	public @Nullable Tenure tenure(String group) {
		Optional<LockHandle> tenure = this.leadership.tenure(group);
		if (tenure.isEmpty()) {
			return null;
		}
		LockHandle handle = tenure.get();
		return new Tenure() {

			@Override
			public long epoch() {
				return handle.fencingToken();
			}

			@Override
			public boolean held() {
				return handle.isHeld();
			}

			@Override
			public void close() {
				handle.close();
			}

		};
	}

	@Override
	public boolean await(String group, Duration wait) throws Exception {
		var future = this.leadership.awaitLeadership(group);
		try {
			future.get(wait.toMillis(), TimeUnit.MILLISECONDS);
			return true;
		}
		catch (TimeoutException | ExecutionException ex) {
			future.cancel(false);
			return false;
		}
	}

	@Override
	public void close() {
		this.leadership.close();
		if (this.own != null) {
			this.own.close();
		}
	}

	@Override
	public void granted(LeadershipGrantedEvent event) {
		this.leads.granted(this, event.group(), event.epoch());
	}

	@Override
	public void revoked(LeadershipRevokedEvent event) {
		this.leads.revoked(this, event.group(), event.epoch());
	}

}
