package io.github.distlock.curator;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;

import io.github.distlock.core.DistributedLockException;
import io.github.distlock.core.LockAcquisitionException;
import io.github.distlock.core.LockHolderChangedException;
import io.github.distlock.core.LockNotFoundException;
import io.github.distlock.core.LockParticipant;
import io.github.distlock.core.LockPath;
import io.github.distlock.core.LockProtocol;
import io.github.distlock.core.spi.FenceStore;

/**
 * The operators' actions on other holders, for {@link CuratorLockAdmin}, with blocking
 * requests. Asks holders to release ({@link #requestRelease}: Curator's revoke marker,
 * {@link ReleaseRequest#MARKER}, written on each holder's node, as Curator's
 * {@code Revoker.attemptRevoke} does) and removes a holder ({@link #forceRelease}): every
 * registered {@link FenceStore} is advanced past the holder's token first, then its node
 * is deleted, checked against the version read, in one multi-operation with the write of
 * the notice node that tells the holder's client ({@link ForcedReleases}). Fence first:
 * once the node is gone another client may take the lock at once, and if the delete came
 * first, a fence store not yet advanced would still let the old holder's writes in until
 * the next holder's first fenced write; if a fence store cannot be written, the node is
 * not deleted. A ZooKeeper guarded write ({@link GuardedWrites}) needs no advance: it
 * checks that the node exists, so the delete fences it.
 */
final class HolderReleases {

	private final QueueInspector inspector;

	private final Session session;

	private final CuratorFramework client;

	private final List<FenceStore> fenceStores;

	HolderReleases(QueueInspector inspector, Session session, CuratorFramework client, List<FenceStore> fenceStores) {
		this.inspector = inspector;
		this.session = session;
		this.client = client;
		this.fenceStores = fenceStores;
	}

	/**
	 * Write Curator's revoke marker on the node of each holder: the holders' identities
	 * returned are those read before (the marker replaces a node's data, so a node asked
	 * before shows as {@link LockParticipant#isReleaseRequested() release requested}).
	 */
	List<LockParticipant> requestRelease(LockPath path, LockProtocol protocol) {
		String queue = queuePath(protocol, path);
		return call("Asking the holders of " + protocol.value() + " '" + path + "' to release", () -> {
			List<LockParticipant> asked = new ArrayList<>();
			for (LockParticipant holder : holders(protocol, queue)) {
				try {
					this.client.setData().forPath(nodePath(protocol, queue, holder), ReleaseRequest.MARKER);
					asked.add(holder);
				}
				catch (KeeperException.NoNodeException ex) {
					// Released meanwhile: not a holder any more.
				}
			}
			if (asked.isEmpty()) {
				throw new LockNotFoundException("requestRelease: " + protocol.value() + " lock '" + path
						+ "' has no holder now (" + queue + " has no node that holds it)");
			}
			return List.copyOf(asked);
		});
	}

	LockParticipant forceRelease(LockPath path, LockProtocol protocol, long fencingToken) {
		String queue = queuePath(protocol, path);
		String lock = protocol.value() + " lock '" + path + "'";
		return call("Removing the holder of " + lock + " with token " + fencingToken, () -> {
			List<LockParticipant> holders = holders(protocol, queue);
			if (holders.isEmpty()) {
				throw new LockNotFoundException("forceRelease: " + lock + " has no holder now");
			}
			for (LockParticipant holder : holders) {
				String node = nodePath(protocol, queue, holder);
				Stat stat = this.client.checkExists().forPath(node);
				// A reader that entered its writer's hold carries the writer's token: the
				// writer's node, whose czxid is the token, is the one removed.
				if (holder.fencingToken() == fencingToken && stat != null && stat.getCzxid() == fencingToken) {
					advanceFences(protocol, path, fencingToken, lock);
					delete(node, stat, protocol, path, fencingToken, lock);
					return holder;
				}
			}
			throw new LockHolderChangedException("forceRelease: no holder of " + lock + " has fencing token "
					+ fencingToken + " any more; its holders now: "
					+ holders.stream().map((holder) -> holder.fencingToken() + " " + holder.describe()).toList());
		});
	}

	private void advanceFences(LockProtocol protocol, LockPath path, long token, String lock) {
		for (FenceStore store : this.fenceStores) {
			try {
				store.advancePast(protocol, path, token);
			}
			catch (RuntimeException ex) {
				throw new LockAcquisitionException("forceRelease: the fence of " + lock + " could not be advanced past "
						+ token + " in " + store + ", so the holder was not removed (fence stores advanced before "
						+ "it stay advanced): " + ex, ex);
			}
		}
	}

	/**
	 * Delete the node if it is still the one read (the version read: a data change, such
	 * as a revoke marker, is read again), with the notice in the same multi-operation.
	 */
	private void delete(String node, Stat read, LockProtocol protocol, LockPath path, long token, String lock)
			throws Exception {
		try {
			this.client.create()
				.creatingParentsIfNeeded()
				.withMode(CreateMode.PERSISTENT)
				.forPath(ForcedReleases.NOTICE);
		}
		catch (KeeperException.NodeExistsException ex) {
			// Written by an earlier forced release.
		}
		byte[] notice = (protocol.value() + " " + path + " " + token).getBytes(StandardCharsets.UTF_8);
		Stat stat = read;
		for (int attempt = 0; attempt < 3; attempt++) {
			try {
				this.client.transaction()
					.forOperations(this.client.transactionOp().delete().withVersion(stat.getVersion()).forPath(node),
							this.client.transactionOp().setData().forPath(ForcedReleases.NOTICE, notice));
				return;
			}
			catch (KeeperException.BadVersionException ex) {
				stat = this.client.checkExists().forPath(node);
			}
			catch (KeeperException.NoNodeException ex) {
				stat = null;
			}
			if (stat == null || stat.getCzxid() != token) {
				throw new LockHolderChangedException("forceRelease: the holder of " + lock + " with fencing token "
						+ token + " released or lost it meanwhile (its fence was advanced past it all the same)");
			}
		}
		throw new LockHolderChangedException(
				"forceRelease: the node of " + lock + " with fencing token " + token + " kept changing: not removed");
	}

	private List<LockParticipant> holders(LockProtocol protocol, String queue) throws Exception {
		return this.inspector.participants(protocol, queue).stream().filter(LockParticipant::holds).toList();
	}

	private static String queuePath(LockProtocol protocol, LockPath path) {
		return ZKPaths.makePath(protocol.subtree(), path.value());
	}

	private static String nodePath(LockProtocol protocol, String queue, LockParticipant holder) {
		return (protocol == LockProtocol.SEMAPHORE)
				? ZKPaths.makePath(queue, SemaphoreAcquisition.LEASES, holder.name())
				: ZKPaths.makePath(queue, holder.name());
	}

	private <T> T call(String what, Callable<T> work) {
		this.session.awaitConnection();
		try {
			return work.call();
		}
		catch (DistributedLockException ex) {
			throw ex;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new LockAcquisitionException(what + ": interrupted", ex);
		}
		catch (Exception ex) {
			throw new LockAcquisitionException(what + " failed: " + ex, ex);
		}
	}

}
