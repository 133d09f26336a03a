package io.github.distlock.test.app;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.github.distlock.annotation.DistributedLock;
import io.github.distlock.core.LockContext;
import io.github.distlock.testsupport.ConcurrencyProbe;

/**
 * Sells tickets of an event, one sale at a time per event across every instance.
 */
public class TicketOffice {

	private final ConcurrencyProbe probe;

	private final TicketPrinter printer;

	private final Map<String, Integer> sold = new ConcurrentHashMap<>();

	public TicketOffice(ConcurrencyProbe probe, TicketPrinter printer) {
		this.probe = probe;
		this.printer = printer;
	}

	@DistributedLock(value = "events/#{#event}", waitTime = "5s")
	public long sell(String event) {
		this.probe.run(() -> this.sold.merge(event, 1, Integer::sum));
		this.printer.print(event);
		return LockContext.current().fencingToken();
	}

	/**
	 * Sell while holding the lock until the latch opens (or ten seconds pass), for tests
	 * that need a holder.
	 */
	@DistributedLock(value = "events/#{#event}", waitTime = "5s")
	public long sellSlowly(String event, CountDownLatch proceed) throws InterruptedException {
		this.probe.run(() -> this.sold.merge(event, 1, Integer::sum));
		proceed.await(10, TimeUnit.SECONDS);
		LockContext.current().assertHeld();
		return LockContext.current().fencingToken();
	}

	@DistributedLock(value = "events/#{#event}", waitTime = "500ms")
	public long sellWithin500ms(String event) {
		return sell(event);
	}

	public int sold(String event) {
		return this.sold.getOrDefault(event, 0);
	}

}
