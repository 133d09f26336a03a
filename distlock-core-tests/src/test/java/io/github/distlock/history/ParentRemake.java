package io.github.distlock.history;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.locks.InterProcessMutex;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.data.Stat;

import io.github.distlock.core.DistributedLockException;
import io.github.distlock.core.LockHandle;
import io.github.distlock.core.LockKind;
import io.github.distlock.testsupport.Faults;

/**
 * The fault that deletes a mutex queue's parent and makes it again, aimed at the rule
 * that proves a new node alone from its number ({@code LoneQueues}): a distlock node
 * cycles a mutex of its own path uncontended (the rule is in use after two cycles); then
 * another client deletes the empty parent, makes it again, takes the lock there with a
 * raw {@code InterProcessMutex} (its node is number 0, its hold entered in the fenced
 * store) and creates and deletes fillers until the next number is the one the distlock
 * node's next node would have had in the old parent; the distlock node then tries the
 * lock once. ZooKeeper's count restarted with the parent, so the number proves nothing:
 * the engine must have heeded the parent's delete (its watch) and read the queue; a grant
 * enters the store beside the raw holder, an overlap. The same steps as
 * {@code LoneNodeGrantTests}, repeated through the run.
 */
final class ParentRemake implements Runnable {

	/** The mutex's path. */
	static final String PATH = "q";

	private static final String PARENT = "/mutex/" + PATH;

	private final CheckerRun run;

	private final Node cycler;

	private final Node other;

	private final String name;

	private final String key = CheckerRun.key(LockKind.MUTEX, PATH);

	private int remakes;

	ParentRemake(CheckerRun run, Node cycler, Node other) {
		this.run = run;
		this.cycler = cycler;
		this.other = other;
		this.name = cycler.name + "-lone";
	}

	@Override
	public void run() {
		while (!this.run.stopping()) {
			int op = this.run.nextOp(this.name);
			int last = -1;
			for (int i = 0; i < 3 && !this.run.stopping(); i++) {
				last = cycle(op, Duration.ofSeconds(1));
			}
			if (last >= 0 && !this.run.stopping()) {
				try {
					remake(op, last);
				}
				catch (Exception ex) {
					this.run.history()
						.record(History.Type.FAULT, "faults", op, this.key, 0, "parent remake stopped: " + ex);
				}
			}
			DistlockActor.park(500);
		}
		this.run.history()
			.record(History.Type.FAULT, "faults", 0, this.key, 0,
					"parent remakes over: " + this.remakes + " with the count raised");
	}

	/**
	 * One cycle of the lock.
	 * @return the number of its node, or -1 if not granted
	 */
	private int cycle(int op, Duration wait) {
		this.run.history().record(History.Type.START, this.name, op, this.key, 0, "MUTEX wait " + wait.toMillis());
		LockHandle handle;
		try {
			handle = this.cycler.locks.mutex(PATH).acquire(wait);
		}
		catch (DistributedLockException ex) {
			this.run.history()
				.record(History.Type.ENDED, this.name, op, this.key, 0, ex.getClass().getSimpleName() + ": " + ex);
			return -1;
		}
		this.run.history().record(History.Type.GRANTED, this.name, op, this.key, handle.fencingToken(), "");
		HoldRecord hold = this.run.open(op, this.name, this.cycler.index, this.key, LockKind.MUTEX, 0,
				handle.fencingToken(), 0, handle);
		int number = handle.nodePath().map(ParentRemake::number).orElse(-1);
		try {
			this.run.store().enter(hold);
			DistlockActor.park(2);
			hold.checkState();
			this.run.store().exit(hold);
		}
		finally {
			try {
				handle.closeAsync().get(10, TimeUnit.SECONDS);
			}
			catch (Exception ex) {
				this.run.history()
					.record(History.Type.RELEASED, this.name, op, this.key, hold.token, "release failed: " + ex);
			}
			this.run.released(hold, "");
		}
		return number;
	}

	private void remake(int op, int last) throws Exception {
		CuratorFramework raw = this.other.client;
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
		while (!Faults.children(raw, PARENT).isEmpty()) {
			if (System.nanoTime() > deadline) {
				return;
			}
			DistlockActor.park(20);
		}
		raw.delete().forPath(PARENT);
		raw.create().withMode(CreateMode.CONTAINER).forPath(PARENT);
		InterProcessMutex foreign = new InterProcessMutex(raw, PARENT);
		if (!foreign.acquire(2, TimeUnit.SECONDS)) {
			return;
		}
		String actor = this.other.name + "-foreign";
		HoldRecord hold = null;
		try {
			List<String> children = Faults.children(raw, PARENT);
			Stat stat = raw.checkExists().forPath(PARENT + "/" + children.get(0));
			this.run.history()
				.record(History.Type.GRANTED, actor, op, this.key, stat.getCzxid(), "raw mutex after the remake");
			hold = this.run.open(op, actor, this.other.index, this.key, LockKind.MUTEX, 0, stat.getCzxid(), 0, null);
			this.run.store().enter(hold);
			int filler;
			do {
				String path = raw.create().withMode(CreateMode.EPHEMERAL_SEQUENTIAL).forPath(PARENT + "/filler-");
				filler = number(path);
				raw.delete().forPath(path);
			}
			while (filler < last);
			if (filler != last) {
				return;
			}
			this.remakes++;
			this.run.history()
				.record(History.Type.FAULT, "faults", op, this.key, 0, "parent " + PARENT + " deleted and made again"
						+ " by " + this.other.name + ", who holds the lock there; count raised to " + last);
			cycle(op, Duration.ZERO);
		}
		finally {
			if (hold != null) {
				this.run.store().exit(hold);
			}
			foreign.release();
			if (hold != null) {
				this.run.released(hold, "");
			}
		}
	}

	private static int number(String node) {
		return Integer.parseInt(node.substring(node.length() - 10));
	}

}
