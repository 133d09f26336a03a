package io.github.distlock.testsupport;

import java.util.ArrayList;
import java.util.List;

import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.data.Stat;

import io.github.distlock.core.LockHandle;

/**
 * Watches critical sections for two holders that both believe they hold the lock. When a
 * section starts while another running section still sees its lock
 * {@link io.github.distlock.core.LockState#HELD}, the probe asks ZooKeeper, through an
 * observer client, whether the older holder's lock node (its creating zxid is the fencing
 * token) still exists:
 * <ul>
 * <li>it does: ZooKeeper granted the lock twice: a <em>double grant</em>, which must
 * never happen;</li>
 * <li>it does not: the server already ended the older hold (its session expired) and the
 * older holder has not heard of it yet: a <em>late notice</em>. A holder stalled (GC, CPU
 * starvation) past its session timeout is in this state until its threads run again; only
 * fencing tokens protect against it, and the store in the checker proves they do.</li>
 * </ul>
 */
public final class HolderProbe {

	private final CuratorFramework observer;

	private final String lockNodePath;

	private final List<LockHandle> inside = new ArrayList<>();

	private int doubleGrants;

	private int lateNotices;

	private final List<String> details = new ArrayList<>();

	/**
	 * Create a probe.
	 * @param observer a client of its own, used only to look at the lock's nodes
	 * @param lockNodePath the ZooKeeper path of the lock (its children are the lock
	 * nodes)
	 */
	public HolderProbe(CuratorFramework observer, String lockNodePath) {
		this.observer = observer;
		this.lockNodePath = lockNodePath;
	}

	public synchronized void enter(LockHandle handle) {
		if (handle.isHeld()) {
			for (LockHandle other : this.inside) {
				if (other.isHeld()) {
					boolean stillGranted = nodeExists(other.fencingToken());
					if (stillGranted) {
						this.doubleGrants++;
					}
					else {
						this.lateNotices++;
					}
					if (this.details.size() < 5) {
						this.details
							.add((stillGranted ? "DOUBLE GRANT: " : "late notice: ") + Thread.currentThread().getName()
									+ " entered with " + handle + " while " + other + " was inside");
					}
				}
			}
		}
		this.inside.add(handle);
	}

	private boolean nodeExists(long czxid) {
		try {
			for (String child : this.observer.getChildren().forPath(this.lockNodePath)) {
				Stat stat = this.observer.checkExists().forPath(this.lockNodePath + "/" + child);
				if (stat != null && stat.getCzxid() == czxid) {
					return true;
				}
			}
			return false;
		}
		catch (Exception ex) {
			throw new IllegalStateException("The observer could not read " + this.lockNodePath, ex);
		}
	}

	public synchronized void exit(LockHandle handle) {
		this.inside.remove(handle);
	}

	/** The first overlaps found, described. */
	public synchronized List<String> details() {
		return List.copyOf(this.details);
	}

	/**
	 * Overlaps where ZooKeeper still had the older holder's node: the lock was granted
	 * twice.
	 */
	public synchronized int doubleGrants() {
		return this.doubleGrants;
	}

	/** Overlaps where the older holder had not yet heard that its hold had ended. */
	public synchronized int lateNotices() {
		return this.lateNotices;
	}

}
