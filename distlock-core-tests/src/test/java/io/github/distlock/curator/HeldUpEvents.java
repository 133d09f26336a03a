package io.github.distlock.curator;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.framework.state.ConnectionStateListener;

/**
 * A connection-state listener of the application's own that records what Curator tells,
 * and holds up Curator's connection-state thread at the first event about the session's
 * end (SUSPENDED or LOST) until {@link #letGo()}: the engine hears of that end late.
 * Curator calls the listeners of one event in no fixed order, so the engine may hear the
 * first such event itself, but none after it.
 */
final class HeldUpEvents implements ConnectionStateListener {

	final List<ConnectionState> told = new CopyOnWriteArrayList<>();

	final AtomicReference<ConnectionState> heldUp = new AtomicReference<>();

	private final CountDownLatch letGo = new CountDownLatch(1);

	private final Duration atMost;

	private HeldUpEvents(Duration atMost) {
		this.atMost = atMost;
	}

	/**
	 * Listen to the client's connection, holding up its events for at most the given
	 * time.
	 */
	static HeldUpEvents on(CuratorFramework client, Duration atMost) {
		HeldUpEvents events = new HeldUpEvents(atMost);
		client.getConnectionStateListenable().addListener(events);
		return events;
	}

	@Override
	public void stateChanged(CuratorFramework client, ConnectionState state) {
		this.told.add(state);
		if ((state == ConnectionState.SUSPENDED || state == ConnectionState.LOST)
				&& this.heldUp.compareAndSet(null, state)) {
			try {
				this.letGo.await(this.atMost.toMillis(), TimeUnit.MILLISECONDS);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}
	}

	/** Whether the events are still held up. */
	boolean isHolding() {
		return this.letGo.getCount() > 0;
	}

	/** Let Curator tell the events held up, and those after them. */
	void letGo() {
		this.letGo.countDown();
	}

}
