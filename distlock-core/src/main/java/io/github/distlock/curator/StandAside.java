package io.github.distlock.curator;

import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.BooleanSupplier;
import java.util.function.Function;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The groups a {@link CuratorLeadership} is a member of while its locks drain, out of
 * their elections: when the drain begins, every group joined is left, as
 * {@link CuratorLeadership#leave(String)} does (a leader lets the calls under its tenure
 * end, then deletes its node, and another member leads; waiters for the leadership fail,
 * as waiting acquisitions do), and remembered; a group joined meanwhile is only
 * remembered; when the drain ends, each is joined again. Guarded by the leadership's
 * lifecycle monitor, which is also held by the leadership's joins and its close.
 */
final class StandAside implements Drain.Listener {

	private static final Logger logger = LoggerFactory.getLogger(StandAside.class);

	private final Object lifecycle;

	private final BooleanSupplier closed;

	private final Map<String, Participant> participants;

	private final Function<String, Participant> participant;

	private final Set<String> groups = new TreeSet<>();

	StandAside(Object lifecycle, BooleanSupplier closed, Map<String, Participant> participants,
			Function<String, Participant> participant) {
		this.lifecycle = lifecycle;
		this.closed = closed;
		this.participants = participants;
		this.participant = participant;
	}

	@Override
	public void drained() {
		synchronized (this.lifecycle) {
			if (this.closed.getAsBoolean()) {
				return;
			}
			for (Participant member : this.participants.values()) {
				if (member.isJoined()) {
					this.groups.add(member.group());
					member.leave();
				}
			}
			if (!this.groups.isEmpty()) {
				logger.info("Draining: out of the leader elections of {} until the drain ends", this.groups);
			}
		}
	}

	@Override
	public void undrained() {
		synchronized (this.lifecycle) {
			if (!this.closed.getAsBoolean()) {
				for (String group : this.groups) {
					this.participant.apply(group).join();
				}
			}
			this.groups.clear();
		}
	}

	/** The groups stood aside from; the caller holds the lifecycle monitor. */
	Set<String> groups() {
		return this.groups;
	}

}
