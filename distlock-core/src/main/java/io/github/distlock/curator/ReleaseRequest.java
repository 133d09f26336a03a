package io.github.distlock.curator;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.BooleanSupplier;

import org.apache.curator.framework.api.CuratorEvent;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;

/**
 * Whether an operator asked the holder of one granted node to release it, by Curator's
 * cooperative revocation: Curator's {@code Revoker.attemptRevoke} (and
 * {@code LockAdmin#requestRelease}) writes {@link #MARKER} as the node's data, and a
 * holder that listens watches its node's data, as Curator's {@code LockInternals} does
 * for a lock made revocable. The watch is set by the first listener only, so a hold
 * nobody listens to sends no request; the first read tells a marker already there. The
 * watch is set again after each change of the data, and the read is sent again after a
 * connection problem, until the marker is seen or the hold ends; once it ended, no
 * listener is told. Guarded by itself.
 */
final class ReleaseRequest implements Watcher {

	/**
	 * Curator's revoke marker ({@code LockInternals.REVOKE_MESSAGE}, package-private
	 * there): the data a revocation writes on a holder's node.
	 */
	static final byte[] MARKER = "__REVOKE__".getBytes(StandardCharsets.UTF_8);

	private static final Duration RETRY = Duration.ofMillis(50);

	private final Engine engine;

	private final String node;

	// Whether the hold still holds or may: held or in doubt.
	private final BooleanSupplier held;

	private final List<Runnable> listeners = new ArrayList<>(1);

	private boolean requested;

	private boolean watching;

	ReleaseRequest(Engine engine, String node, BooleanSupplier held) {
		this.engine = engine;
		this.node = node;
		this.held = held;
	}

	/** Whether the marker was seen on the node. */
	synchronized boolean isRequested() {
		return this.requested;
	}

	/**
	 * Tell a listener once when the marker is seen, at once if it was already; the first
	 * listener starts the watch.
	 */
	void listen(Runnable listener) {
		boolean tellNow;
		boolean watch = false;
		if (!this.held.getAsBoolean()) {
			return;
		}
		synchronized (this) {
			tellNow = this.requested;
			if (!tellNow) {
				this.listeners.add(listener);
				watch = !this.watching;
				this.watching = true;
			}
		}
		if (tellNow) {
			this.engine.threads().complete(listener);
		}
		if (watch) {
			read();
		}
	}

	private void read() {
		if (isRequested() || !this.held.getAsBoolean()) {
			return;
		}
		this.engine.requests()
			.trySend(() -> this.engine.requests().data(this.node, this, this::answered),
					(unsent) -> this.engine.threads().requestAfter(RETRY, this::read));
	}

	private void answered(CuratorEvent answer) {
		KeeperException.Code code = KeeperException.Code.get(answer.getResultCode());
		if (code == KeeperException.Code.OK) {
			if (Arrays.equals(answer.getData(), MARKER)) {
				requested();
			}
		}
		else if (Requests.isConnectionProblem(code)) {
			this.engine.threads().requestAfter(RETRY, this::read);
		}
		// NONODE: the node is gone; its hold learns it by other means.
	}

	@Override
	public void process(WatchedEvent event) {
		if (event.getType() == Event.EventType.NodeDataChanged) {
			read();
		}
	}

	private void requested() {
		List<Runnable> told;
		if (!this.held.getAsBoolean()) {
			return;
		}
		synchronized (this) {
			if (this.requested) {
				return;
			}
			this.requested = true;
			told = List.copyOf(this.listeners);
			this.listeners.clear();
		}
		for (Runnable listener : told) {
			this.engine.threads().complete(listener);
		}
	}

}
