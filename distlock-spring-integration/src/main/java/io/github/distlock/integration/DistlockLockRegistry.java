package io.github.distlock.integration;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Lock;

import org.springframework.integration.support.locks.ExpirableLockRegistry;

import io.github.distlock.core.InvalidLockPathException;
import io.github.distlock.core.LockPath;
import io.github.distlock.core.Locks;

/**
 * Spring Integration's {@link ExpirableLockRegistry} on distlock's engine: a drop-in for
 * {@code ZookeeperLockRegistry} (and for the other registries) that keeps the code
 * calling it unchanged. {@link #obtain(Object)} gives the same {@link Lock} for the same
 * key: reentrant and owned by the thread that locked it, as the locks of Spring
 * Integration's registries are, and a distlock mutex underneath, so that it excludes the
 * holders of that key in every other process (and every raw Curator
 * {@code InterProcessMutex} at the same ZooKeeper node).
 * <p>
 * What distlock's engine adds: {@code tryLock(time, unit)} returns by its deadline also
 * while ZooKeeper is unreachable; a lock held by a process that dies is free once its
 * session ends; a held lock is never evicted; waiting costs no thread of the engine.
 * <p>
 * A key is a lock at {@code <root>/<key>} below distlock's mutex subtree, so in ZooKeeper
 * at {@code /<namespace>/mutex/<root>/<key>}: the node a {@code ZookeeperLockRegistry}
 * built with the root {@code /<namespace>/mutex/<root>} uses for the same key, so that
 * the two exclude each other during a move. A key is taken as it is when ZooKeeper
 * accepts it as a path and it holds no {@code %} (a {@code /} in it then makes child
 * nodes, as with {@code ZookeeperLockRegistry}); any other key becomes one segment
 * escaped as {@link LockPath#escapeSegment(String)} does, which always holds a {@code %},
 * so two different keys are never one lock.
 * <p>
 * Inside a section locked through this registry,
 * {@link io.github.distlock.core.LockContext#current()} shows the lock with its fencing
 * token, and distlock's own API and annotations re-enter it on the same thread instead of
 * waiting for it.
 */
public final class DistlockLockRegistry implements ExpirableLockRegistry<Lock> {

	/**
	 * Root used when none is given: the name of {@code ZookeeperLockRegistry}'s default
	 * root, relative to distlock's mutex subtree.
	 */
	public static final String DEFAULT_ROOT = "SpringIntegration-LockRegistry";

	private final Locks locks;

	private final LockPath root;

	private final String template;

	private final ConcurrentHashMap<String, RegistryLock> registered = new ConcurrentHashMap<>();

	/**
	 * Create a registry whose locks live at {@value #DEFAULT_ROOT}{@code /<key>}.
	 * @param locks the locks of this application
	 */
	public DistlockLockRegistry(Locks locks) {
		this(locks, DEFAULT_ROOT);
	}

	/**
	 * Create a registry whose locks live at {@code <root>/<key>}, relative to distlock's
	 * mutex subtree.
	 * @param locks the locks of this application
	 * @param root a literal lock path such as {@code orders/aggregator}, without a
	 * leading {@code /}
	 * @throws IllegalArgumentException if the root is not a valid lock path
	 */
	public DistlockLockRegistry(Locks locks, String root) {
		if (locks == null) {
			throw new IllegalArgumentException("DistlockLockRegistry needs a Locks, but null was given");
		}
		this.locks = locks;
		this.root = parseRoot(root);
		this.template = this.root.value() + "/{}";
	}

	private static LockPath parseRoot(String root) {
		if (root == null) {
			throw new IllegalArgumentException("DistlockLockRegistry needs a root, but null was given");
		}
		try {
			return LockPath.parse(root);
		}
		catch (InvalidLockPathException ex) {
			String hint = root.startsWith("/") ? " (a root is relative to distlock's mutex subtree "
					+ "/<namespace>/mutex: write '" + root.replaceAll("^/+", "") + "')" : "";
			throw new IllegalArgumentException(
					"DistlockLockRegistry root '" + root + "' is not a valid lock path" + hint + ": " + ex.getMessage(),
					ex);
		}
	}

	/**
	 * Return the lock of the given key: the same object for the same key, until
	 * {@link #expireUnusedOlderThan(long)} forgets it while nobody uses it.
	 * @param lockKey the key, a non-empty {@link String} (as for
	 * {@code ZookeeperLockRegistry})
	 * @return the lock
	 * @throws IllegalArgumentException if the key is not a non-empty string, or too long
	 * for a lock path
	 */
	@Override
	public Lock obtain(Object lockKey) {
		if (!(lockKey instanceof String key)) {
			throw new IllegalArgumentException("DistlockLockRegistry.obtain(Object) takes String keys, as "
					+ "ZookeeperLockRegistry does, but was given "
					+ ((lockKey != null) ? "a " + lockKey.getClass().getName() : "null"));
		}
		RegistryLock lock = this.registered.get(key);
		if (lock == null) {
			lock = this.registered.computeIfAbsent(key,
					(absent) -> new RegistryLock(this.locks.mutex(pathFor(absent)), absent));
		}
		lock.used();
		return lock;
	}

	private LockPath pathFor(String key) {
		try {
			if (key.indexOf('%') < 0) {
				try {
					return LockPath.parse(this.root.value() + "/" + key).withTemplate(this.template);
				}
				catch (InvalidLockPathException ex) {
					// Not a path ZooKeeper accepts as it is: one escaped segment.
				}
			}
			return this.root.child(key).withTemplate(this.template);
		}
		catch (InvalidLockPathException ex) {
			throw new IllegalArgumentException("DistlockLockRegistry cannot lock key '" + abbreviated(key) + "' below '"
					+ this.root + "': " + ex.getMessage(), ex);
		}
	}

	private static String abbreviated(String key) {
		return (key.length() > 64) ? key.substring(0, 64) + "..." : key;
	}

	/**
	 * Forget the locks last obtained or released at least {@code age} milliseconds ago
	 * that no thread holds or waits for. Only local objects are freed: distlock keeps
	 * nothing in ZooKeeper for a lock that is not held. A lock forgotten while a caller
	 * still has it keeps working, and excludes the one obtained anew for its key: both
	 * are the same distlock lock.
	 * @param age the time since the lock was last used, in milliseconds
	 */
	@Override
	public void expireUnusedOlderThan(long age) {
		long now = System.nanoTime();
		long ageNanos = TimeUnit.MILLISECONDS.toNanos(age);
		this.registered.forEach((key, lock) -> {
			// Under the lock's monitor, which a thread takes to start using it: a lock
			// is forgotten only while nobody holds or waits for it.
			synchronized (lock) {
				if (lock.isUnusedFor(now, ageNanos)) {
					this.registered.remove(key, lock);
				}
			}
		});
	}

	/** Number of locks this registry remembers now (for tests of what is freed). */
	int size() {
		return this.registered.size();
	}

	@Override
	public String toString() {
		return "DistlockLockRegistry[root '" + this.root + "']";
	}

}
