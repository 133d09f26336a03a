package io.github.distlock.curator;

import java.util.ArrayList;
import java.util.List;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.transaction.CuratorOp;
import org.apache.curator.framework.api.transaction.CuratorTransactionResult;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.OpResult;
import org.jspecify.annotations.Nullable;

import io.github.distlock.core.Handle;
import io.github.distlock.core.LockHandle;
import io.github.distlock.core.LockLostException;

/**
 * Writes to ZooKeeper that land only while a lock is held: the operations run in one
 * ZooKeeper multi-operation that first checks that each lock node of the handle still
 * exists. A lock node lives exactly as long as its lock (it is ephemeral, and its name,
 * with its protection id and sequence number, is never used again), so a holder whose
 * session ended or who released the lock cannot write, whatever it knows about it: the
 * server refuses the whole multi-operation.
 *
 * <pre class="code">
 * GuardedWrites guarded = new GuardedWrites(client);
 * try (LockHandle handle = locks.mutex("config").acquire(Duration.ofSeconds(5))) {
 *     guarded.commit(handle, client.transactionOp().setData().forPath("/config/limits", bytes));
 * }
 * </pre>
 */
public final class GuardedWrites {

	private final CuratorFramework client;

	/**
	 * Create guarded writes through a client.
	 * @param client the client the locks are held through, or one with the same
	 * namespace: the lock nodes' paths are relative to it; the operations are built with
	 * its {@code transactionOp()}
	 */
	public GuardedWrites(CuratorFramework client) {
		this.client = client;
	}

	/**
	 * Run operations only if every lock of a handle is still held.
	 * @param handle the held lock or locks
	 * @param operations the operations, built with the client's {@code transactionOp()}
	 * @return the results of the operations, the checks left out
	 * @throws LockLostException if a lock node of the handle is gone: nothing was written
	 * @throws Exception as Curator's transaction throws it, for a failure of one of the
	 * operations
	 */
	public List<CuratorTransactionResult> commit(Handle handle, CuratorOp... operations) throws Exception {
		List<LockHandle> locks = handle.handles();
		List<CuratorOp> all = new ArrayList<>(locks.size() + operations.length);
		for (LockHandle lock : locks) {
			String node = lock.nodePath()
				.orElseThrow(() -> new IllegalArgumentException(
						"Lock '" + lock.path() + "' is not held through a ZooKeeper node of its own: " + lock));
			all.add(this.client.transactionOp().check().forPath(node));
		}
		all.addAll(List.of(operations));
		try {
			List<CuratorTransactionResult> results = this.client.transaction().forOperations(all);
			return results.subList(locks.size(), results.size());
		}
		catch (KeeperException ex) {
			LockHandle lost = lostLock(ex, locks);
			if (lost == null) {
				throw ex;
			}
			LockLostException loss = new LockLostException("Lock '" + lost.path() + "' is no longer held: its node "
					+ lost.nodePath().orElse("?") + " is gone, so the guarded write was not applied");
			loss.initCause(ex);
			throw loss;
		}
	}

	/** The lock whose check failed, if the multi-operation failed on a check. */
	private static @Nullable LockHandle lostLock(KeeperException ex, List<LockHandle> locks) {
		List<OpResult> results = ex.getResults();
		if (results == null) {
			return null;
		}
		for (int i = 0; i < Math.min(locks.size(), results.size()); i++) {
			if (results.get(i) instanceof OpResult.ErrorResult error
					&& error.getErr() == KeeperException.Code.NONODE.intValue()) {
				return locks.get(i);
			}
		}
		return null;
	}

}
