package io.github.distlock.curator;

import java.time.Duration;

import org.apache.curator.framework.CuratorFramework;

import io.github.distlock.core.ClusterLock;
import io.github.distlock.core.LockPath;
import io.github.distlock.core.Locks;

/**
 * {@link Locks} backed by Apache Curator's lock recipes. (Implementation in progress.)
 */
public final class CuratorLocks implements Locks, AutoCloseable {

	private final CuratorFramework client;

	private final Duration defaultWaitTime;

	public CuratorLocks(CuratorFramework client, Duration defaultWaitTime) {
		this.client = client;
		this.defaultWaitTime = defaultWaitTime;
	}

	@Override
	public ClusterLock mutex(LockPath path) {
		throw new UnsupportedOperationException("not yet");
	}

	@Override
	public ClusterLock nonReentrantMutex(LockPath path) {
		throw new UnsupportedOperationException("not yet");
	}

	@Override
	public Duration defaultWaitTime() {
		return this.defaultWaitTime;
	}

	@Override
	public void close() {
	}

}
