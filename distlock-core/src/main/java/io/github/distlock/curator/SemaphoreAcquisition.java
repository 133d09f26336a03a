package io.github.distlock.curator;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

import org.apache.curator.framework.api.CuratorEvent;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;
import org.jspecify.annotations.Nullable;

import io.github.distlock.core.LockConfigurationException;
import io.github.distlock.core.LockKind;
import io.github.distlock.core.LockPath;

/**
 * An acquisition on a semaphore, node for node the protocol of Curator's
 * {@code InterProcessSemaphoreV2}: take the semaphore's guard (a mutex in its
 * {@code locks} child), create a lease in its {@code leases} child, wait while there are
 * more leases than permits, release the guard, and hold the lease.
 * <p>
 * Curator trusts every client to pass the same number of permits; here the number is
 * written into the semaphore's node, and an acquisition that declares another number
 * fails with a {@link LockConfigurationException} instead of admitting more holders than
 * intended. The check is sent together with the first requests, so it costs no round trip
 * of its own.
 * <p>
 * A try-once succeeds whenever a permit is free: it waits for the guard, which others
 * hold only for a round trip while permits are free, and fails as soon as it sees as many
 * leases as permits.
 */
final class SemaphoreAcquisition extends Acquisition {

	/** Child of the semaphore node holding the guard's queue, as Curator names it. */
	static final String GUARD = "locks";

	/** Child of the semaphore node holding the leases, as Curator names it. */
	static final String LEASES = "leases";

	private static final int MAX_VERIFICATIONS = 5;

	private final Requests requests;

	private final String semaphorePath;

	private final String leasesPath;

	private final int permits;

	private final byte[] permitsData;

	private final byte[] data;

	// Guarded by this, as the rest: new positions when a session ends during the wait.
	private QueuePosition guard;

	private QueuePosition lease;

	private final CapacityWatch capacityWatch = new CapacityWatch(this);

	// Guarded by this.
	private boolean checksSent;

	private boolean verified;

	private boolean guardHeld;

	private @Nullable LockNode guardNode;

	private int verifications;

	// Whether the try-once's watch on the leases may be registered.
	private boolean capacityWatched;

	SemaphoreAcquisition(Engine engine, LockPath path, String semaphorePath, int permits, String holder,
			Duration waitTime) {
		super(engine, LockKind.SEMAPHORE, path, ZKPaths.makePath(semaphorePath, GUARD), null, holder, waitTime, true,
				null);
		this.requests = engine.requests();
		this.semaphorePath = semaphorePath;
		this.leasesPath = ZKPaths.makePath(semaphorePath, LEASES);
		this.permits = permits;
		this.permitsData = Integer.toString(permits).getBytes(StandardCharsets.UTF_8);
		this.data = engine.identity().nodeData(holder);
		this.guard = newGuard();
		this.lease = newLease();
	}

	private QueuePosition newGuard() {
		return new QueuePosition(engine(), this, ZKPaths.makePath(this.semaphorePath, GUARD), QueueDriver.MUTEX,
				this.data, null, LoneCheck.OFF);
	}

	private QueuePosition newLease() {
		return new QueuePosition(engine(), this, this.leasesPath, QueueDriver.lease(this.permits), this.data, null,
				LoneCheck.OFF);
	}

	@Override
	boolean localTurnMeansTaken() {
		// The guard is held for a round trip while permits are free.
		return false;
	}

	@Override
	void started() {
		synchronized (this) {
			sendChecks();
		}
	}

	/**
	 * Send the permits check, and for a try-once the capacity probe, with the first
	 * requests: as soon as requests may be sent.
	 */
	private void sendChecks() {
		if (this.checksSent || !engine().session().isReady()) {
			return;
		}
		this.checksSent = true;
		if (isTryOnce()) {
			probeCapacity();
		}
		verify();
	}

	@Override
	void begin() {
		sendChecks();
		this.guard.start();
	}

	@Override
	void resumeInZooKeeper() {
		if (!this.checksSent) {
			sendChecks();
		}
		else if (!this.verified) {
			verify();
		}
		if (this.guardHeld) {
			// A lease is made again only in the guard's session (mayRecreate): if that
			// session was replaced, the acquisition starts over at the guard.
			this.lease.resume();
		}
		else {
			this.guard.resume();
		}
	}

	@Override
	void abandonInZooKeeper() {
		forgetCapacityWatch();
		this.guard.abandon();
		this.lease.abandon();
		releaseGuardNode();
	}

	/**
	 * The guard may always queue again; a lease only under a guard held in the session in
	 * use, since a lease made outside it would be counted by nobody. A lease whose node
	 * vanished, or whose create's answer was lost with the connection, in another session
	 * than its guard's is given up: the acquisition starts over at the guard
	 * ({@link #vanished}).
	 */
	@Override
	public boolean mayRecreate(QueuePosition position) {
		return position == this.guard || (position == this.lease && this.guardHeld && guardInSessionInUse());
	}

	@Override
	public void vanished(QueuePosition position) {
		// The session ended while waiting for a permit: the guard went with it.
		startOver();
	}

	/**
	 * Queue for the guard again, with new positions: the guard held so far belongs to a
	 * session that ended, and a lease may only be taken in the session that holds the
	 * guard (or two clients could each wait with one lease too many, for ever).
	 */
	private void startOver() {
		this.lease.abandon();
		releaseGuardNode();
		this.guardHeld = false;
		this.guard = newGuard();
		this.lease = newLease();
		this.guard.start();
	}

	@Override
	public void waiting(QueuePosition position) {
		if (position == this.guard) {
			// Waiting for the guard says nothing about the permits.
			return;
		}
		super.waiting(position);
	}

	@Override
	public void granted(QueuePosition position, LockNode node) {
		if (position == this.guard) {
			this.guardHeld = true;
			this.guardNode = node;
			if (this.verified) {
				startLease();
			}
			else {
				// The semaphore's node exists now: claim it, or compare.
				verify();
			}
			return;
		}
		LockNode guardNode = this.guardNode;
		if (guardNode == null || guardNode.clientInstance() != node.clientInstance()) {
			// The lease was made in another session than the guard's: it does not count,
			// and its node, granted to nobody, is deleted.
			this.requests.deleteInBackground(node.path());
			startOver();
			return;
		}
		forgetCapacityWatch();
		releaseGuardNode();
		leaveTurn();
		grant(node, node.czxid());
	}

	/** Take a lease, in the session that holds the guard; start over if it ended. */
	private void startLease() {
		if (!guardInSessionInUse()) {
			startOver();
			return;
		}
		this.lease.start();
	}

	private boolean guardInSessionInUse() {
		LockNode guardNode = this.guardNode;
		return guardNode != null && guardNode.clientInstance() == engine().session().clientInstance();
	}

	private void releaseGuardNode() {
		LockNode node = this.guardNode;
		if (node != null) {
			this.guardNode = null;
			this.requests.deleteInBackground(node.path());
		}
	}

	// Permits: compare with the number stored in the semaphore's node, or claim it.

	private void verify() {
		if (isDone() || this.verified) {
			return;
		}
		if (++this.verifications > MAX_VERIFICATIONS) {
			fail(new LockConfigurationException("Could not settle the permits of semaphore '" + path() + "': its node "
					+ this.semaphorePath + " kept changing"));
			return;
		}
		try {
			this.requests.data(this.semaphorePath, null, this::permitsRead);
		}
		catch (Exception ex) {
			fail(ex);
		}
	}

	private void permitsRead(CuratorEvent event) {
		synchronized (this) {
			if (isDone()) {
				return;
			}
			KeeperException.Code code = KeeperException.Code.get(event.getResultCode());
			if (code == KeeperException.Code.NONODE) {
				// Created with the guard's node; claimed once the guard is held.
				this.verifications--;
				if (this.guardHeld) {
					verify();
				}
				return;
			}
			if (code != KeeperException.Code.OK) {
				if (!Requests.isConnectionProblem(code)) {
					fail(KeeperException.create(code, this.semaphorePath));
				}
				this.verifications--;
				return;
			}
			byte[] stored = event.getData();
			if (stored == null || stored.length == 0) {
				claim(event.getStat().getVersion());
				return;
			}
			String text = new String(stored, StandardCharsets.UTF_8);
			if (!text.equals(Integer.toString(this.permits))) {
				fail(new LockConfigurationException("Semaphore '" + path() + "' is declared here with " + this.permits
						+ " permits, but with " + parse(text) + " by another node (ZooKeeper node " + this.semaphorePath
						+ "); every user of a semaphore must declare the same number of permits"));
				return;
			}
			verified();
		}
	}

	private void claim(int version) {
		try {
			this.requests.setData(this.semaphorePath, this.permitsData, version, (event) -> {
				synchronized (this) {
					if (isDone()) {
						return;
					}
					KeeperException.Code code = KeeperException.Code.get(event.getResultCode());
					if (code == KeeperException.Code.OK) {
						verified();
					}
					else if (code == KeeperException.Code.BADVERSION || code == KeeperException.Code.NONODE) {
						verify();
					}
					else if (!Requests.isConnectionProblem(code)) {
						fail(KeeperException.create(code, this.semaphorePath));
					}
				}
			});
		}
		catch (Exception ex) {
			fail(ex);
		}
	}

	private void verified() {
		this.verified = true;
		if (this.guardHeld) {
			startLease();
		}
	}

	// Try-once: fail as soon as every permit is taken.

	private void probeCapacity() {
		this.capacityWatched = true;
		try {
			this.requests.children(this.leasesPath, this.capacityWatch, (event) -> {
				synchronized (this) {
					if (isDone() || this.guardHeld) {
						return;
					}
					if (KeeperException.Code.get(event.getResultCode()) == KeeperException.Code.OK) {
						List<String> leases = event.getChildren();
						if (leases.size() >= this.permits) {
							foundTaken();
							fail(timeout(null));
						}
					}
				}
			});
		}
		catch (Exception ex) {
			fail(ex);
		}
	}

	private void capacityChanged() {
		synchronized (this) {
			// The watch fired: it is gone from ZooKeeper.
			this.capacityWatched = false;
			if (isDone() || this.guardHeld) {
				return;
			}
			probeCapacity();
		}
	}

	/** Remove the try-once's watch on the leases, if it is still registered. */
	private void forgetCapacityWatch() {
		this.capacityWatch.detach();
		if (this.capacityWatched) {
			this.capacityWatched = false;
			this.requests.removeWatch(this.capacityWatch, this.leasesPath, Watcher.WatcherType.Children);
		}
	}

	private static int parse(String text) {
		try {
			return Integer.parseInt(text);
		}
		catch (NumberFormatException ex) {
			return -1;
		}
	}

	/** Watches the leases while a try-once waits for the guard. */
	private static final class CapacityWatch implements Watcher {

		private volatile @Nullable SemaphoreAcquisition acquisition;

		CapacityWatch(SemaphoreAcquisition acquisition) {
			this.acquisition = acquisition;
		}

		void detach() {
			this.acquisition = null;
		}

		@Override
		public void process(WatchedEvent event) {
			SemaphoreAcquisition acquisition = this.acquisition;
			if (acquisition != null && event.getType() != Event.EventType.None) {
				acquisition.capacityChanged();
			}
		}

	}

}
