package io.github.distlock.curator;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.apache.curator.utils.ZKPaths;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.github.distlock.core.Election;
import io.github.distlock.core.InvalidLockPathException;
import io.github.distlock.core.LockAcquisitionException;
import io.github.distlock.core.LockAdmin;
import io.github.distlock.core.LockInUse;
import io.github.distlock.core.LockParticipant;
import io.github.distlock.core.LockPath;
import io.github.distlock.core.LockProtocol;
import io.github.distlock.core.LockQueue;
import io.github.distlock.core.LockState;
import io.github.distlock.core.LocksDrainingException;
import io.github.distlock.core.RecordedJob;

/**
 * The administration view of one client's lock root: walks each protocol's subtree depth
 * first, and reads every node that has queue nodes as the protocol's own
 * {@link QueueInspector} reads one path. A node's children are either queue nodes (named
 * as the protocol names them) or the next segments of longer lock paths; a semaphore
 * keeps its queue in two children of its node. Blocking reads, one {@code getChildren}
 * per node and one {@code getData} per queue node. The {@linkplain Drain drain} is the
 * engine's own, shared by every view of the same locks. Asking holders to release and
 * removing them is {@link HolderReleases}' work; the scheduled jobs are read from their
 * {@linkplain JobRecords records}.
 */
final class CuratorLockAdmin implements LockAdmin {

	private static final Logger logger = LoggerFactory.getLogger(CuratorLockAdmin.class);

	/** The longest wait for a hold's release between two looks at the holds. */
	private static final Duration RECHECK = Duration.ofMillis(50);

	private final QueueInspector inspector;

	private final SessionWatch session;

	private final Drain drain;

	private final HolderReleases releases;

	private final JobRecords jobs;

	CuratorLockAdmin(QueueInspector inspector, SessionWatch session, Drain drain, HolderReleases releases,
			JobRecords jobs) {
		this.inspector = inspector;
		this.session = session;
		this.drain = drain;
		this.releases = releases;
		this.jobs = jobs;
	}

	@Override
	public List<LockParticipant> requestRelease(LockPath path, LockProtocol protocol) {
		return this.releases.requestRelease(path, protocol);
	}

	@Override
	public LockParticipant forceRelease(LockPath path, LockProtocol protocol, long fencingToken) {
		return this.releases.forceRelease(path, protocol, fencingToken);
	}

	/**
	 * Drain: new acquisitions are refused from now on, and the acquisitions waiting now
	 * fail the same way (none of them is granted later: a grant that comes after the
	 * failure releases its node); a re-entry of a lock the thread holds still succeeds,
	 * since it takes no new lock. The leader election of these locks, if there is one,
	 * hands over its tenures and stays out of its elections until {@link #undrain()}.
	 * Then waits for the holds of this instance to be released or lost.
	 * @param wait how long to wait for the holds; negative waits until they end
	 */
	@Override
	public boolean drain(Duration wait) {
		long deadline = System.nanoTime() + (wait.isNegative() ? Long.MAX_VALUE / 2 : saturatedNanos(wait));
		if (this.drain.begin()) {
			logger.info("Draining: new acquisitions are refused, {} acquisitions waiting now fail, {} locks held",
					this.session.acquisitions().size(), this.session.holds().size());
		}
		for (Session.Waiting acquisition : this.session.acquisitions()) {
			LocksDrainingException refusal = this.drain.refusal(acquisition.snapshot().path());
			if (refusal != null) {
				acquisition.fail(refusal);
			}
		}
		while (true) {
			List<CompletableFuture<Void>> held = held();
			long left = deadline - System.nanoTime();
			if (held.isEmpty() || left <= 0) {
				return held.isEmpty();
			}
			try {
				CompletableFuture.anyOf(held.toArray(CompletableFuture[]::new))
					.get(Math.min(left, RECHECK.toNanos()), TimeUnit.NANOSECONDS);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return held().isEmpty();
			}
			catch (TimeoutException | ExecutionException ex) {
				// Released but not confirmed yet, or not released: look again.
			}
		}
	}

	/**
	 * The releases of the holds not lost: a lost hold ended, whether or not its handle
	 * was closed.
	 */
	private List<CompletableFuture<Void>> held() {
		return this.session.holds()
			.stream()
			.filter((hold) -> hold.state() != LockState.LOST)
			.map(Session.Held::released)
			.toList();
	}

	@Override
	public void undrain() {
		if (this.drain.end()) {
			logger.info("Drain ended: acquisitions, leader elections and scheduled runs go on");
		}
	}

	@Override
	public boolean isDraining() {
		return this.drain.since() != null;
	}

	@Override
	public Optional<Instant> drainingSince() {
		return Optional.ofNullable(this.drain.since());
	}

	private static long saturatedNanos(Duration duration) {
		try {
			return duration.toNanos();
		}
		catch (ArithmeticException ex) {
			return Long.MAX_VALUE / 2;
		}
	}

	@Override
	public List<LockInUse> locks() {
		List<LockInUse> locks = new ArrayList<>();
		for (LockProtocol protocol : List.of(LockProtocol.MUTEX, LockProtocol.READ_WRITE, LockProtocol.SEMAPHORE)) {
			walk(protocol, (path, queue) -> locks.add(new LockInUse(path, queue)));
		}
		return List.copyOf(locks);
	}

	@Override
	public List<Election> leaders() {
		List<Election> elections = new ArrayList<>();
		walk(LockProtocol.LEADER_LATCH,
				(path, queue) -> elections.add(new Election(path.value(), queue.node(), queue.participants())));
		return List.copyOf(elections);
	}

	@Override
	public List<RecordedJob> jobs() {
		this.session.awaitConnection();
		List<RecordedJob> jobs = new ArrayList<>();
		for (String name : this.jobs.names()) {
			JobRecords.Versioned read;
			try {
				read = this.jobs.read(name);
			}
			catch (LockAcquisitionException ex) {
				logger.warn("Scheduled job '{}' is left out of the jobs: {}", name, ex.getMessage());
				continue;
			}
			if (read.version() < 0) {
				// Removed since the names were read.
				continue;
			}
			JobRecord record = read.record();
			jobs.add(new RecordedJob(name, record.schedule(), record.paused(), record.lastSlot(), record.nextSlot(),
					record.runs()));
		}
		return List.copyOf(jobs);
	}

	private void walk(LockProtocol protocol, Found found) {
		this.session.awaitConnection();
		String root = "/" + protocol.subtree();
		try {
			for (String child : sorted(this.inspector.children(root))) {
				walk(protocol, root, child, found);
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new LockAcquisitionException("Interrupted while reading the lock nodes under " + root, ex);
		}
		catch (Exception ex) {
			throw new LockAcquisitionException("Reading the lock nodes under " + root + " failed: " + ex, ex);
		}
	}

	private void walk(LockProtocol protocol, String root, String relative, Found found) throws Exception {
		String node = ZKPaths.makePath(root, relative);
		List<String> children = this.inspector.children(node);
		boolean queued = false;
		List<String> segments = new ArrayList<>(children.size());
		for (String child : children) {
			if (isQueueNode(protocol, child)) {
				queued = true;
			}
			else {
				segments.add(child);
			}
		}
		if (queued) {
			report(protocol, node, relative, found);
		}
		for (String segment : sorted(segments)) {
			walk(protocol, root, relative + "/" + segment, found);
		}
	}

	private void report(LockProtocol protocol, String node, String relative, Found found) throws Exception {
		List<LockParticipant> participants = this.inspector.participants(protocol, node);
		if (participants.isEmpty()) {
			return;
		}
		LockPath path;
		try {
			path = LockPath.parse(relative);
		}
		catch (InvalidLockPathException ex) {
			// Made by a client that does not name its nodes as lock paths: not a lock.
			return;
		}
		found.lock(path, new LockQueue(protocol, node, participants));
	}

	/** Whether a child of a node is a node of the protocol's queue, not a segment. */
	private static boolean isQueueNode(LockProtocol protocol, String child) {
		return switch (protocol) {
			case MUTEX -> QueueDriver.isNode(child, QueueDriver.LOCK_NAME);
			case READ_WRITE ->
				QueueDriver.isNode(child, QueueDriver.READ_NAME) || QueueDriver.isNode(child, QueueDriver.WRITE_NAME);
			case SEMAPHORE -> child.equals(SemaphoreAcquisition.GUARD) || child.equals(SemaphoreAcquisition.LEASES);
			case LEADER_LATCH -> QueueDriver.isNode(child, QueueDriver.LATCH_NAME);
		};
	}

	private static List<String> sorted(List<String> names) {
		List<String> sorted = new ArrayList<>(names);
		sorted.sort(null);
		return sorted;
	}

	@FunctionalInterface
	private interface Found {

		void lock(LockPath path, LockQueue queue);

	}

}
