package io.github.distlock.actuate;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.OptionalLong;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;
import org.springframework.boot.actuate.endpoint.OperationResponseBody;
import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.annotation.Selector.Match;

import io.github.distlock.core.HeldLock;
import io.github.distlock.core.InvalidLockPathException;
import io.github.distlock.core.JobRun;
import io.github.distlock.core.JobSchedule;
import io.github.distlock.core.Leadership;
import io.github.distlock.core.LeadershipGroup;
import io.github.distlock.core.LockParticipant;
import io.github.distlock.core.ObservedLeader;
import io.github.distlock.core.LockPath;
import io.github.distlock.core.LockProtocol;
import io.github.distlock.core.LockQueue;
import io.github.distlock.core.Locks;
import io.github.distlock.core.ScheduledJob;
import io.github.distlock.core.ScheduledJobs;
import io.github.distlock.core.WaitingAcquisition;

/**
 * The {@code distlock} actuator endpoint: the locks this instance holds and waits for
 * ({@code GET /actuator/distlock}), the jobs it runs once per slot, and the cluster's
 * locks, waiters, deadlocks and leader elections as ZooKeeper has them; for one lock
 * path, its holders and queue as ZooKeeper sees them, for every kind of lock at that path
 * ({@code GET /actuator/distlock/orders/42}). It has no write operation of its own:
 * operators' actions (on locks, the instance and jobs) come with
 * {@link DistlockAdminWebExtension}, only when {@code distlock.admin.enabled} is on.
 */
@Endpoint(id = "distlock")
public class DistlockEndpoint {

	private final Locks locks;

	private final @Nullable Leadership leadership;

	private final @Nullable ScheduledJobs jobs;

	private final @Nullable DistlockAdminOperations operations;

	/**
	 * Create the endpoint.
	 * @param locks the locks of this instance, which also read the nodes of a path
	 */
	public DistlockEndpoint(Locks locks) {
		this(locks, null);
	}

	/**
	 * Create the endpoint.
	 * @param locks the locks of this instance, which also read the nodes of a path
	 * @param leadership the leader election of this instance, whose groups are listed, or
	 * {@code null}
	 */
	public DistlockEndpoint(Locks locks, @Nullable Leadership leadership) {
		this(locks, leadership, null);
	}

	/**
	 * Create the endpoint.
	 * @param locks the locks of this instance, which also read the nodes of a path
	 * @param leadership the leader election of this instance, whose groups are listed, or
	 * {@code null}
	 * @param jobs the jobs that run once per slot, which are listed and can be paused, or
	 * {@code null}
	 */
	public DistlockEndpoint(Locks locks, @Nullable Leadership leadership, @Nullable ScheduledJobs jobs) {
		this(locks, leadership, jobs, null);
	}

	/**
	 * Create the endpoint.
	 * @param locks the locks of this instance, which also read the nodes of a path and
	 * the cluster's locks
	 * @param leadership the leader election of this instance, whose groups are listed, or
	 * {@code null}
	 * @param jobs the jobs that run once per slot, which are listed and can be paused, or
	 * {@code null}
	 * @param operations what pauses and resumes jobs, audited and counted, or
	 * {@code null} to call the jobs directly
	 */
	public DistlockEndpoint(Locks locks, @Nullable Leadership leadership, @Nullable ScheduledJobs jobs,
			@Nullable DistlockAdminOperations operations) {
		this.locks = locks;
		this.leadership = leadership;
		this.jobs = jobs;
		this.operations = operations;
	}

	/**
	 * List the locks this instance holds and the acquisitions that wait for theirs, its
	 * jobs and leader elections, and the cluster's locks.
	 * @return the locks
	 */
	@ReadOperation
	public LocksDescriptor locks() {
		List<HeldLockDescriptor> held = this.locks.heldLocks()
			.stream()
			.sorted(Comparator.comparing(HeldLock::acquiredAt))
			.map(HeldLockDescriptor::of)
			.toList();
		List<WaitingAcquisitionDescriptor> waiting = this.locks.waitingAcquisitions()
			.stream()
			.sorted(Comparator.comparing(WaitingAcquisition::startedAt))
			.map(WaitingAcquisitionDescriptor::of)
			.toList();
		return new LocksDescriptor(held, waiting, groups(), observed(), jobs(), cluster());
	}

	/**
	 * Read the cluster's locks, elections and deadlocks as ZooKeeper has them now.
	 * @return them, or {@code null} if the lock engine has no cluster-wide view
	 */
	public @Nullable ClusterDescriptor cluster() {
		try {
			return ClusterDescriptor.of(this.locks.admin());
		}
		catch (UnsupportedOperationException ex) {
			return null;
		}
	}

	/**
	 * List the jobs this instance runs once per slot.
	 * @return the jobs, with their last run and next slot
	 */
	public List<JobDescriptor> jobs() {
		ScheduledJobs jobs = this.jobs;
		return (jobs != null) ? jobs.jobs().stream().map((job) -> JobDescriptor.of(jobs, job)).toList() : List.of();
	}

	/**
	 * Pause or resume a job that runs once per slot, on every instance; over HTTP
	 * ({@code POST /actuator/distlock/{job}} with {@code {"paused": true}}) only with
	 * {@code distlock.admin.enabled} ({@link DistlockAdminWebExtension}). Audited and
	 * counted as operators' actions are.
	 * @param job the job's name
	 * @param paused whether its firings skip from now on
	 * @param securityContext who asks
	 * @return the job, or {@code null} (404) if this instance has no such job
	 */
	public @Nullable JobDescriptor job(@Selector String job, boolean paused,
			@Nullable SecurityContext securityContext) {
		ScheduledJobs jobs = this.jobs;
		ScheduledJob found = (jobs != null)
				? jobs.jobs().stream().filter((each) -> each.name().equals(job)).findFirst().orElse(null) : null;
		if (jobs == null || found == null) {
			return null;
		}
		DistlockAdminOperations operations = this.operations;
		if (operations != null) {
			operations.pause(principal(securityContext), job, paused);
		}
		else if (paused) {
			jobs.pause(job);
		}
		else {
			jobs.resume(job);
		}
		return JobDescriptor.of(jobs, found);
	}

	/**
	 * Pause or resume a job that runs once per slot, on every instance, for no
	 * authenticated principal.
	 * @param job the job's name
	 * @param paused whether its firings skip from now on
	 * @return the job, or {@code null} if this instance has no such job
	 */
	public @Nullable JobDescriptor job(String job, boolean paused) {
		return job(job, paused, null);
	}

	static @Nullable String principal(@Nullable SecurityContext securityContext) {
		return (securityContext != null && securityContext.getPrincipal() != null)
				? securityContext.getPrincipal().getName() : null;
	}

	private List<GroupDescriptor> groups() {
		Leadership leadership = this.leadership;
		if (leadership == null) {
			return List.of();
		}
		List<GroupDescriptor> groups = new ArrayList<>();
		for (String group : leadership.groups()) {
			groups.add(GroupDescriptor.of(leadership, group));
		}
		return groups;
	}

	private List<ObservedDescriptor> observed() {
		Leadership leadership = this.leadership;
		if (leadership == null) {
			return List.of();
		}
		List<ObservedDescriptor> observed = new ArrayList<>();
		for (String group : leadership.observedGroups()) {
			observed.add(ObservedDescriptor.of(group, leadership.observed(group).orElse(null)));
		}
		return observed;
	}

	/**
	 * Show the lock nodes of one path, for every kind of lock, as ZooKeeper has them now.
	 * @param path the segments of the lock path, as escaped in ZooKeeper
	 * @return the nodes, or {@code null} (404) if no lock of any kind has nodes there
	 */
	@ReadOperation
	public @Nullable PathDescriptor lock(@Selector(match = Match.ALL_REMAINING) String... path) {
		LockPath lockPath;
		try {
			lockPath = LockPath.parse(String.join("/", path));
		}
		catch (InvalidLockPathException ex) {
			throw new InvalidEndpointRequestException(ex.getMessage(), "Invalid lock path");
		}
		return nodes(lockPath);
	}

	/**
	 * Read the lock nodes of one path, for every kind of lock, as ZooKeeper has them now;
	 * who holds and who waits is the lock engine's answer (a waiting semaphore lease is a
	 * waiter).
	 * @param lockPath the lock path
	 * @return the nodes, or {@code null} if no lock of any kind has nodes there
	 * @throws io.github.distlock.core.LockAcquisitionException if ZooKeeper could not be
	 * read
	 */
	public @Nullable PathDescriptor nodes(LockPath lockPath) {
		List<QueueDescriptor> queues = this.locks.inspect(lockPath).stream().map(QueueDescriptor::of).toList();
		return queues.isEmpty() ? null : new PathDescriptor(lockPath.value(), queues);
	}

	/**
	 * The locks this instance holds and waits for.
	 *
	 * @param held the held locks, oldest first
	 * @param waiting the acquisitions waiting for their lock, oldest first
	 * @param groups the leader elections this instance takes part in, by group name
	 * @param observed the groups this instance observes without taking part, by name
	 * @param jobs the jobs this instance runs once per slot, by name
	 * @param cluster the cluster's locks, waiters, deadlocks and leader elections, and
	 * whether this instance drains, or {@code null} if the lock engine cannot tell
	 */
	public record LocksDescriptor(List<HeldLockDescriptor> held, List<WaitingAcquisitionDescriptor> waiting,
			List<GroupDescriptor> groups, List<ObservedDescriptor> observed, List<JobDescriptor> jobs,
			@Nullable ClusterDescriptor cluster) implements OperationResponseBody {

	}

	/**
	 * One group this instance observes, and its leader as last seen.
	 *
	 * @param group the group
	 * @param leaderId the leader's member id, or {@code null} if the group has none
	 * @param epoch the leader's epoch, or {@code null}
	 * @param since when this instance saw its tenure begin (or began to observe), or
	 * {@code null}
	 */
	public record ObservedDescriptor(String group, @Nullable String leaderId, @Nullable Long epoch,
			@Nullable Instant since) {

		static ObservedDescriptor of(String group, @Nullable ObservedLeader leader) {
			return (leader != null) ? new ObservedDescriptor(group, leader.memberId(), leader.epoch(), leader.since())
					: new ObservedDescriptor(group, null, null, null);
		}

	}

	/**
	 * One job that runs once per slot, as its record in ZooKeeper has it.
	 *
	 * @param name the job's name
	 * @param schedule its schedule
	 * @param paused whether it is paused cluster-wide
	 * @param lastSlot the latest slot claimed, or {@code null}
	 * @param lastRun the last run: the run of that slot, or a manual run after it; or
	 * {@code null}
	 * @param nextSlot the schedule's first slot after now, by this instance's clock, or
	 * {@code null} if it has none
	 * @param error why the record could not be read, or {@code null}
	 */
	public record JobDescriptor(String name, String schedule, boolean paused, @Nullable Instant lastSlot,
			@Nullable JobRunDescriptor lastRun, @Nullable Instant nextSlot,
			@Nullable String error) implements OperationResponseBody {

		static JobDescriptor of(ScheduledJobs jobs, ScheduledJob job) {
			String schedule = job.schedule().description();
			Instant next = nextSlot(job.schedule(), Instant.now());
			try {
				List<JobRun> runs = jobs.runs(job.name());
				JobRun run = runs.isEmpty() ? null : runs.get(0);
				// A manual run claims no slot.
				Instant lastSlot = runs.stream()
					.filter((each) -> !each.manual())
					.map(JobRun::slot)
					.findFirst()
					.orElse(null);
				return new JobDescriptor(job.name(), schedule, jobs.isPaused(job.name()), lastSlot,
						(run != null) ? JobRunDescriptor.of(run) : null, next, null);
			}
			catch (RuntimeException ex) {
				return new JobDescriptor(job.name(), schedule, false, null, null, next, ex.getMessage());
			}
		}

		private static @Nullable Instant nextSlot(JobSchedule schedule, Instant now) {
			Instant current = schedule.slotAt(now);
			return schedule.slotAfter((current != null) ? current : now);
		}

	}

	/**
	 * One run of a job.
	 *
	 * @param slot the slot it claimed
	 * @param node the instance that ran it
	 * @param startedAt when it started
	 * @param endedAt when it ended, or {@code null} while it runs
	 * @param outcome {@code RUNNING}, {@code SUCCEEDED}, {@code FAILED} or
	 * {@code INTERRUPTED}
	 * @param fencingToken the fencing token of the job's lock it ran under
	 * @param manual whether it was a manual run ({@link ScheduledJobs#runNow(String)}),
	 * whose slot is the time it was asked for
	 */
	public record JobRunDescriptor(Instant slot, String node, Instant startedAt, @Nullable Instant endedAt,
			String outcome, long fencingToken, boolean manual) {

		static JobRunDescriptor of(JobRun run) {
			return new JobRunDescriptor(run.slot(), run.node(), run.startedAt(), run.endedAt(), run.outcome().name(),
					run.fencingToken(), run.manual());
		}

	}

	/**
	 * One group whose leader election this instance takes part in.
	 *
	 * @param group the group
	 * @param memberId this instance's member id
	 * @param leaderId the member id of the group's leader now, or {@code null} if it has
	 * none or ZooKeeper could not be read
	 * @param node the group's ZooKeeper node, relative to the namespace
	 * @param leader whether this instance leads it now
	 * @param epoch the epoch of this instance's tenure while it leads, else {@code null}
	 * @param participants every member's latch node, in queue order (the first leads; its
	 * fencing token is the leader's epoch); empty with {@code error} when ZooKeeper could
	 * not be read
	 * @param error why the participants could not be read, or {@code null}
	 */
	public record GroupDescriptor(String group, String memberId, @Nullable String leaderId, @Nullable String node,
			boolean leader, @Nullable Long epoch, List<NodeDescriptor> participants, @Nullable String error) {

		static GroupDescriptor of(Leadership leadership, String group) {
			boolean leading = leadership.isLeader(group);
			OptionalLong epoch = leadership.epoch(group);
			Long tenure = epoch.isPresent() ? epoch.getAsLong() : null;
			try {
				LeadershipGroup view = leadership.inspect(group);
				return new GroupDescriptor(group, view.memberId(), view.leaderId().orElse(null), view.node(), leading,
						tenure, view.participants().stream().map(NodeDescriptor::of).toList(), null);
			}
			catch (RuntimeException ex) {
				return new GroupDescriptor(group, leadership.memberId(), null, null, leading, tenure, List.of(),
						ex.getMessage());
			}
		}

	}

	/**
	 * One held lock.
	 *
	 * @param path the lock path
	 * @param kind the kind of lock
	 * @param template the path template naming it in metrics
	 * @param holder who holds it: the acquiring thread, or the scope of an asynchronous
	 * call
	 * @param acquiredAt when it was acquired
	 * @param fencingToken its fencing token
	 * @param state what this instance knows about it ({@code HELD}, {@code IN_DOUBT},
	 * {@code LOST})
	 */
	public record HeldLockDescriptor(String path, String kind, String template, String holder, Instant acquiredAt,
			long fencingToken, String state) {

		static HeldLockDescriptor of(HeldLock lock) {
			return new HeldLockDescriptor(lock.path().value(), LockTags.kind(lock.kind()), lock.path().template(),
					lock.holder(), lock.acquiredAt(), lock.fencingToken(), lock.state().name());
		}

	}

	/**
	 * One acquisition waiting for its lock.
	 *
	 * @param path the lock path
	 * @param kind the kind of lock
	 * @param template the path template naming it in metrics
	 * @param holder who waits, and will hold the lock: the waiting thread, or the scope
	 * of an asynchronous call
	 * @param startedAt when the acquisition started, and so started to wait
	 */
	public record WaitingAcquisitionDescriptor(String path, String kind, String template, String holder,
			Instant startedAt) {

		static WaitingAcquisitionDescriptor of(WaitingAcquisition lock) {
			return new WaitingAcquisitionDescriptor(lock.path().value(), LockTags.kind(lock.kind()),
					lock.path().template(), lock.holder(), lock.startedAt());
		}

	}

	/**
	 * The lock nodes of one path.
	 *
	 * @param path the lock path
	 * @param locks one entry per kind of lock that has nodes at the path
	 */
	public record PathDescriptor(String path, List<QueueDescriptor> locks) implements OperationResponseBody {

	}

	/**
	 * The nodes of one kind of lock at a path.
	 *
	 * @param kind {@code mutex} (both kinds of mutex), {@code read_write} or
	 * {@code semaphore} ({@link LockProtocol#value()})
	 * @param node the lock's ZooKeeper node, relative to the namespace
	 * @param nodes the holders and waiters, holders first, then in queue order
	 */
	public record QueueDescriptor(String kind, String node, List<NodeDescriptor> nodes) {

		static QueueDescriptor of(LockQueue queue) {
			return new QueueDescriptor(queue.protocol().value(), queue.node(),
					queue.participants().stream().map(NodeDescriptor::of).toList());
		}

	}

	/**
	 * One participant's node.
	 *
	 * @param name the node name
	 * @param sequence its sequence number
	 * @param fencingToken the zxid that created it (the fencing token of its holder)
	 * @param createdAt when ZooKeeper created it
	 * @param holds whether it holds the lock
	 * @param side {@code read} or {@code write} for a read/write lock, {@code lease} or
	 * {@code waiting} for a semaphore or non-reentrant mutex
	 * @param session the ZooKeeper session that owns it
	 * @param identity who created it, from its data
	 */
	public record NodeDescriptor(String name, long sequence, long fencingToken, Instant createdAt, boolean holds,
			@Nullable String side, String session, @Nullable NodeIdentity identity) {

		static NodeDescriptor of(LockParticipant participant) {
			return new NodeDescriptor(participant.name(), participant.sequence(), participant.fencingToken(),
					participant.createdAt(), participant.holds(), participant.side(),
					"0x" + Long.toHexString(participant.session()), NodeIdentity.parse(participant.data()));
		}

	}

}
