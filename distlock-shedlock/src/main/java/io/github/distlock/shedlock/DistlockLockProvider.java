package io.github.distlock.shedlock;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

import net.javacrumbs.shedlock.core.ExtensibleLockProvider;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.SimpleLock;
import net.javacrumbs.shedlock.support.LockException;
import org.jspecify.annotations.Nullable;

import io.github.distlock.core.ClusterLock;
import io.github.distlock.core.LockHandle;
import io.github.distlock.core.LockPath;
import io.github.distlock.core.LockScope;
import io.github.distlock.core.LockTimeoutException;
import io.github.distlock.core.Locks;

/**
 * A ShedLock {@link net.javacrumbs.shedlock.core.LockProvider} on distlock's engine: an
 * application keeps its {@code @SchedulerLock} jobs and {@code LockingTaskExecutor}
 * calls, and swaps its provider bean for this one.
 * <p>
 * The lock named {@code x} is distlock's mutex at {@code shedlock/x}, the name as one
 * escaped {@linkplain LockPath#escapeSegment(String) segment}: a name that is a ZooKeeper
 * node name, such as {@code report:daily}, stands for itself; a {@code /}, a {@code %}
 * and the characters ZooKeeper refuses are written as {@code %XX}. So a ShedLock job and
 * a distlock {@code @DistributedLock("shedlock/report:daily")} (or
 * {@code locks.mutex(LockPath.of("shedlock", name))} for any name) exclude each other, as
 * do raw Curator {@code InterProcessMutex} clients on that path.
 * <ul>
 * <li>{@link #lock(LockConfiguration)} tries once, without waiting: a lock held by
 * anyone, this application included, gives an empty result. Each call is a holder of its
 * own, bound to no thread.</li>
 * <li>{@link SimpleLock#unlock()} returns once ZooKeeper confirmed the release; while
 * ZooKeeper is unreachable that is when the connection returns, or when the session ends
 * (its lock nodes die with it).</li>
 * <li>{@code lockAtLeastFor}: a lock unlocked earlier stays held until that long after it
 * was acquired, released by a timer (no thread waits for it); {@code unlock()} then
 * returns at once.</li>
 * <li>{@code lockAtMostFor}: a holder that is still running when it passes loses the
 * lock, released by a timer, as with every ShedLock provider. A holder that died needs no
 * such time: its lock is an ephemeral node of its ZooKeeper session, gone within the
 * session timeout.</li>
 * <li>{@link SimpleLock#extend(Duration, Duration)} moves both times, counted from the
 * extension, if the lock is still held: the holder's session holds it, and ZooKeeper
 * shows the holder's node first in the queue (asked at the extension).</li>
 * </ul>
 * A lock whose session ends while its job runs is lost; the job is not interrupted (no
 * ShedLock provider does that), and its {@code unlock()} only confirms that the node is
 * gone.
 */
public final class DistlockLockProvider implements ExtensibleLockProvider {

	/** The path under which ShedLock's lock names become distlock lock paths. */
	public static final String ROOT = "shedlock";

	private final Locks locks;

	/**
	 * Create a provider on the given locks.
	 * @param locks distlock's locks, the {@code Locks} bean of a Spring Boot application
	 */
	public DistlockLockProvider(Locks locks) {
		this.locks = Objects.requireNonNull(locks, "locks must not be null");
	}

	/**
	 * The distlock lock path of a ShedLock lock name: {@code shedlock/<name>}, the name
	 * as one escaped segment.
	 * @param name the ShedLock lock name, as {@code @SchedulerLock(name = ...)} gives it
	 * @return the path
	 * @throws io.github.distlock.core.InvalidLockPathException if the name is empty or
	 * too long for a ZooKeeper node name
	 */
	public static LockPath pathOf(String name) {
		LockPath path = LockPath.of(ROOT, name);
		// A job's name is as bounded as a literal path: metrics show it, as they show
		// the path of @DistributedLock("shedlock/x").
		return path.withTemplate(path.value());
	}

	@Override
	public Optional<SimpleLock> lock(LockConfiguration lockConfiguration) {
		String name = lockConfiguration.getName();
		ClusterLock mutex = this.locks.mutex(pathOf(name));
		LockHandle handle = tryOnce(mutex, name);
		if (handle == null) {
			return Optional.empty();
		}
		ShedLockHold hold = new ShedLockHold(this.locks, name, handle, lockConfiguration.getLockAtMostFor(),
				lockConfiguration.getLockAtLeastFor());
		return Optional.of(new DistlockSimpleLock(lockConfiguration, hold));
	}

	/**
	 * Try the lock once, for a holder of its own: a second {@code lock()} of the same
	 * name, also on the same thread, must find it taken.
	 */
	private static @Nullable LockHandle tryOnce(ClusterLock mutex, String name) {
		LockScope holder = LockScope.create("shedlock " + name + " (" + Thread.currentThread().getName() + ")");
		CompletableFuture<LockHandle> attempt = mutex.acquireAsync(Duration.ZERO, holder);
		try {
			return attempt.get();
		}
		catch (InterruptedException ex) {
			if (!attempt.cancel(false)) {
				// Granted at the same moment: nobody will unlock it.
				attempt.thenAccept(LockHandle::close);
			}
			Thread.currentThread().interrupt();
			throw new LockException("Interrupted while locking '" + name + "' (distlock lock '" + mutex.path()
					+ "'); the lock is not held", ex);
		}
		catch (ExecutionException ex) {
			Throwable cause = unwrap(ex);
			if (cause instanceof LockTimeoutException) {
				return null;
			}
			throw new LockException(
					"Could not lock '" + name + "' (distlock lock '" + mutex.path() + "'): " + cause.getMessage(),
					cause);
		}
	}

	static Throwable unwrap(Throwable ex) {
		Throwable cause = ex;
		while ((cause instanceof ExecutionException || cause instanceof CompletionException)
				&& cause.getCause() != null) {
			cause = cause.getCause();
		}
		return cause;
	}

	@Override
	public String toString() {
		return "DistlockLockProvider[" + this.locks + "]";
	}

}
