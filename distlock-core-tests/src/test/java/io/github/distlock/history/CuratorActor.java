package io.github.distlock.history;

import java.lang.reflect.Method;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.locks.InterProcessMutex;
import org.apache.curator.framework.recipes.locks.InterProcessReadWriteLock;
import org.apache.curator.framework.recipes.locks.InterProcessSemaphoreV2;
import org.apache.curator.framework.recipes.locks.Lease;
import org.apache.zookeeper.data.Stat;

import io.github.distlock.core.LockKind;

/**
 * A thread of a raw Curator client that takes the same locks as the distlock nodes with
 * Curator's own recipes ({@link InterProcessMutex}, {@link InterProcessReadWriteLock},
 * {@link InterProcessSemaphoreV2}) on the same full paths. Its fencing token is the
 * creation zxid of its own node, as distlock's is. Curator's recipes do not tell a holder
 * that its session ended: its holds are in doubt only while its client's connection is.
 */
final class CuratorActor implements Runnable {

	private static final Method LOCK_PATH;

	static {
		try {
			LOCK_PATH = InterProcessMutex.class.getDeclaredMethod("getLockPath");
			LOCK_PATH.setAccessible(true);
		}
		catch (NoSuchMethodException ex) {
			throw new IllegalStateException(ex);
		}
	}

	private final CheckerRun run;

	private final Node node;

	private final String name;

	private final long seed;

	/**
	 * Drawn from anew for each operation, so operation n is the same whatever came
	 * before.
	 */
	private Random random;

	CuratorActor(CheckerRun run, Node node, String name, long seed) {
		this.run = run;
		this.node = node;
		this.name = name;
		this.seed = seed;
	}

	@Override
	public void run() {
		while (!this.run.stopping()) {
			int op = this.run.nextOp(this.name);
			this.random = new Random(this.seed * 1_000_003L + op);
			try {
				step(op);
			}
			catch (Exception ex) {
				this.run.history()
					.record(History.Type.ENDED, this.name, op, null, 0,
							"Curator failed: " + ex.getClass().getSimpleName() + ": " + ex.getMessage());
			}
		}
	}

	private void step(int op) throws Exception {
		int pathIndex = this.random.nextInt(CheckerRun.PATHS);
		String path = CheckerRun.path(pathIndex);
		long waitMillis = 100 + this.random.nextInt(2000);
		CuratorFramework client = this.node.client;
		switch (this.random.nextInt(4)) {
			case 0 -> mutex(op, new InterProcessMutex(client, "/mutex/" + path), LockKind.MUTEX, path, waitMillis);
			case 1 -> mutex(op, new InterProcessReadWriteLock(client, "/rw/" + path).readLock(), LockKind.READ, path,
					waitMillis);
			case 2 -> mutex(op, new InterProcessReadWriteLock(client, "/rw/" + path).writeLock(), LockKind.WRITE, path,
					waitMillis);
			default -> semaphore(op, path, pathIndex, waitMillis);
		}
	}

	private void mutex(int op, InterProcessMutex mutex, LockKind kind, String path, long waitMillis) throws Exception {
		String key = CheckerRun.key(kind, path);
		this.run.history()
			.record(History.Type.START, this.name, op, key, 0, "Curator " + kind + " wait " + waitMillis + " ms");
		if (!mutex.acquire(waitMillis, TimeUnit.MILLISECONDS)) {
			this.run.history().record(History.Type.ENDED, this.name, op, key, 0, "timed out");
			return;
		}
		try {
			long token = czxid((String) LOCK_PATH.invoke(mutex));
			body(op, key, kind, CheckerRun.pathIndex(path), token);
		}
		finally {
			mutex.release();
		}
	}

	private void semaphore(int op, String path, int pathIndex, long waitMillis) throws Exception {
		String key = CheckerRun.key(LockKind.SEMAPHORE, path);
		this.run.history()
			.record(History.Type.START, this.name, op, key, 0, "Curator SEMAPHORE wait " + waitMillis + " ms");
		InterProcessSemaphoreV2 semaphore = new InterProcessSemaphoreV2(this.node.client, "/semaphore/" + path,
				CheckerRun.permits(pathIndex));
		Lease lease = semaphore.acquire(waitMillis, TimeUnit.MILLISECONDS);
		if (lease == null) {
			this.run.history().record(History.Type.ENDED, this.name, op, key, 0, "timed out");
			return;
		}
		try {
			// The lease's name only: its node is under the semaphore's leases node.
			body(op, key, LockKind.SEMAPHORE, pathIndex,
					czxid("/semaphore/" + path + "/leases/" + lease.getNodeName()));
		}
		finally {
			semaphore.returnLease(lease);
		}
	}

	private void body(int op, String key, LockKind kind, int pathIndex, long token) {
		this.run.history().record(History.Type.GRANTED, this.name, op, key, token, "Curator");
		HoldRecord hold = this.run.open(op, this.name, this.node.index, key, kind, pathIndex, token, 0, null);
		try {
			this.run.store().enter(hold);
			DistlockActor.park(this.random.nextInt(10));
			this.run.store().exit(hold);
		}
		finally {
			this.run.released(hold, "Curator");
		}
	}

	private long czxid(String path) throws Exception {
		Stat stat = this.node.client.checkExists().forPath(path);
		if (stat == null) {
			// Gone already: its session ended; a token that no store accepts.
			return -1;
		}
		return stat.getCzxid();
	}

}
