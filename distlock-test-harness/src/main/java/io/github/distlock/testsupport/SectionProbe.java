package io.github.distlock.testsupport;

import java.util.ArrayList;
import java.util.List;

import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;

import io.github.distlock.core.LockHandle;
import io.github.distlock.core.LockKind;

/**
 * Watches the critical sections of one lock, of any kind, for more holders than the lock
 * allows that all believe they hold it: two exclusive holders, a writer beside anyone, a
 * semaphore's permits exceeded. When a section starts in such company, the probe asks
 * ZooKeeper, through an observer client, whether the other holders' nodes (found by their
 * creating zxid, the fencing token) still exist:
 * <ul>
 * <li>enough of them do: ZooKeeper granted the lock beyond its limit: a <em>double
 * grant</em>, which must never happen;</li>
 * <li>not enough do: the server already ended an older hold (its session expired) and its
 * holder has not heard of it yet: a <em>late notice</em>. A holder stalled past its
 * session timeout is in this state until its threads run again; only fencing tokens
 * protect against it.</li>
 * </ul>
 */
public final class SectionProbe {

	private final CuratorFramework observer;

	private final String holdersNode;

	private final int permits;

	private final List<LockHandle> inside = new ArrayList<>();

	private int doubleGrants;

	private int lateNotices;

	private int mostInside;

	private final List<String> details = new ArrayList<>();

	/**
	 * Create a probe.
	 * @param observer a client of its own, used only to look at the lock's nodes
	 * @param holdersNode the ZooKeeper node whose children are the holders' nodes
	 * @param permits how many semaphore holders may be inside at once
	 */
	public SectionProbe(CuratorFramework observer, String holdersNode, int permits) {
		this.observer = observer;
		this.holdersNode = holdersNode;
		this.permits = permits;
	}

	/** A probe of an exclusive lock (or a read/write lock). */
	public SectionProbe(CuratorFramework observer, String holdersNode) {
		this(observer, holdersNode, 1);
	}

	public synchronized void enter(LockHandle handle) {
		if (handle.isHeld()) {
			List<LockHandle> company = new ArrayList<>();
			for (LockHandle other : this.inside) {
				if (other.isHeld() && conflicts(handle, other)) {
					company.add(other);
				}
			}
			int allowed = (handle.kind() == LockKind.SEMAPHORE) ? this.permits - 1 : 0;
			if (company.size() > allowed) {
				long stillGranted = company.stream().filter((other) -> nodeExists(other.fencingToken())).count();
				boolean doubleGrant = stillGranted > allowed;
				if (doubleGrant) {
					this.doubleGrants++;
				}
				else {
					this.lateNotices++;
				}
				if (this.details.size() < 5) {
					this.details
						.add((doubleGrant ? "DOUBLE GRANT: " : "late notice: ") + Thread.currentThread().getName()
								+ " entered with " + handle + " while " + company + " were inside");
				}
			}
		}
		this.inside.add(handle);
		this.mostInside = Math.max(this.mostInside, this.inside.size());
	}

	private static boolean conflicts(LockHandle entering, LockHandle other) {
		return !(entering.kind() == LockKind.READ && other.kind() == LockKind.READ);
	}

	private boolean nodeExists(long czxid) {
		try {
			for (String child : this.observer.getChildren().forPath(this.holdersNode)) {
				Stat stat = this.observer.checkExists().forPath(this.holdersNode + "/" + child);
				if (stat != null && stat.getCzxid() == czxid) {
					return true;
				}
			}
			return false;
		}
		catch (KeeperException.NoNodeException ex) {
			return false;
		}
		catch (Exception ex) {
			throw new IllegalStateException("The observer could not read " + this.holdersNode, ex);
		}
	}

	public synchronized void exit(LockHandle handle) {
		this.inside.remove(handle);
	}

	/** The first overlaps found, described. */
	public synchronized List<String> details() {
		return List.copyOf(this.details);
	}

	/** Overlaps where ZooKeeper still had the other holders' nodes: granted twice. */
	public synchronized int doubleGrants() {
		return this.doubleGrants;
	}

	/** Overlaps where an older holder had not yet heard that its hold had ended. */
	public synchronized int lateNotices() {
		return this.lateNotices;
	}

	/** The most sections seen inside at once (whatever their locks' states). */
	public synchronized int mostInside() {
		return this.mostInside;
	}

}
