package io.github.distlock.core.spi;

import io.github.distlock.core.LockPath;
import io.github.distlock.core.LockProtocol;

/**
 * A store that fences a lock's writes by its fencing token (the JDBC and R2DBC fence
 * tables of distlock-spring), told by {@code LockAdmin#forceRelease} to refuse the
 * removed holder's writes: the fence of the lock is advanced past its token before its
 * node is deleted, so a write carrying that token is refused even if no one takes the
 * lock next, while the next holder's token, created after the delete, is higher still.
 * Registered on the locks ({@code CuratorLocks#addFenceStore}); the Spring Boot
 * auto-configuration registers the fence tables it creates.
 */
@FunctionalInterface
public interface FenceStore {

	/**
	 * Advance the fence of a lock so that it refuses writes carrying the given token or
	 * an older one; a fence already past it is left as it is.
	 * @param protocol the lock's protocol (its subtree is part of the lock's key)
	 * @param path the lock's path
	 * @param fencingToken the token of the removed holder
	 * @throws RuntimeException if the store could not be written: the forced release is
	 * refused and removes nothing
	 */
	void advancePast(LockProtocol protocol, LockPath path, long fencingToken);

}
