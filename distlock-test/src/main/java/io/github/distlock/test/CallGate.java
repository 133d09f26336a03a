package io.github.distlock.test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Holds calls at a point of their code until the test opens it: put {@link #await()
 * gate.await()} in a test double that a locked method calls, and the call stops there,
 * inside its lock, while the test does what it wants to do "mid-call" (expire the
 * session, stop ZooKeeper, start a second call that must wait), then {@link #open()
 * opens} the gate. {@link #awaitEntered()} returns once a call is held, as soon as it
 * arrives: no sleep, no polling.
 *
 * <pre class="code">
 * CallGate gate = new CallGate();
 * // in the double: stock.available(sku) calls gate.await() first
 * Future&lt;Purchase&gt; purchase = caller.submit(() -&gt; inventory.purchase("widget", 1));
 * gate.awaitEntered();            // the purchase holds inventory/widget and waits
 * zookeeper.expireSession(node);
 * gate.open();
 * </pre>
 *
 * A held call waits at most its {@link #CallGate(Duration) hold time} (30 s unless told
 * otherwise), then fails with {@link IllegalStateException}, so that a test that forgot
 * to open the gate fails instead of hanging. Once open, the gate lets every call through;
 * it cannot be closed again (make a new one).
 */
public final class CallGate {

	private final Duration maxHold;

	private final List<String> entered = new ArrayList<>();

	private boolean open;

	/** A closed gate that holds a call at most 30 s. */
	public CallGate() {
		this(LockRecorder.DEFAULT_AWAIT_TIMEOUT);
	}

	/**
	 * A closed gate.
	 * @param maxHold how long it holds a call at most before the call fails
	 */
	public CallGate(Duration maxHold) {
		this.maxHold = maxHold;
	}

	/**
	 * Called by the code to hold: returns at once if the gate is open, else when it
	 * opens. The interrupt of a held call ends its wait with
	 * {@link IllegalStateException} (the interrupt flag set again).
	 * @throws IllegalStateException if the gate stays closed longer than the hold time
	 */
	public void await() {
		long deadline = System.nanoTime() + this.maxHold.toNanos();
		synchronized (this) {
			if (this.open) {
				return;
			}
			this.entered.add(Thread.currentThread().getName());
			notifyAll();
			while (!this.open) {
				long left = deadline - System.nanoTime();
				if (left <= 0) {
					throw new IllegalStateException(
							"The call gate was not opened within " + this.maxHold + ": the test never called open()");
				}
				try {
					wait(Math.max(1, left / 1_000_000));
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
					throw new IllegalStateException("Interrupted while held at the call gate", ex);
				}
			}
		}
	}

	/**
	 * Wait until a call is held at the gate (or was, if it has been opened since).
	 * @return the name of the thread of the first call held
	 * @throws AssertionError if no call arrives within 30 s
	 */
	public String awaitEntered() {
		return awaitEntered(1, LockRecorder.DEFAULT_AWAIT_TIMEOUT).get(0);
	}

	/**
	 * Wait until the given number of calls have been held at the gate.
	 * @param calls how many
	 * @param timeout how long to wait at most
	 * @return the names of the threads of the calls held, in the order they arrived
	 * @throws AssertionError if fewer arrive within the timeout
	 */
	public synchronized List<String> awaitEntered(int calls, Duration timeout) {
		long deadline = System.nanoTime() + timeout.toNanos();
		while (this.entered.size() < calls) {
			long left = deadline - System.nanoTime();
			if (left <= 0) {
				throw new AssertionError("Expected " + calls + " call(s) held at the call gate within " + timeout
						+ ", but " + this.entered.size() + " arrived");
			}
			try {
				wait(Math.max(1, left / 1_000_000));
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new IllegalStateException("Interrupted waiting for a call at the gate", ex);
			}
		}
		return List.copyOf(this.entered);
	}

	/** Let every held call, and every later one, through. */
	public synchronized void open() {
		this.open = true;
		notifyAll();
	}

	/** Whether the gate was opened. */
	public synchronized boolean isOpen() {
		return this.open;
	}

	/** How many calls have been held at the gate so far. */
	public synchronized int getEntered() {
		return this.entered.size();
	}

	@Override
	public synchronized String toString() {
		return "CallGate[" + (this.open ? "open" : "closed") + ", held " + this.entered + "]";
	}

}
