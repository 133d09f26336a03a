package io.github.distlock.history;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.jspecify.annotations.Nullable;

/**
 * The recorded history of a checker run: every operation's start and end, every hold's
 * entry into and exit from the fenced store, every fault and connection event, in the
 * order of one logical clock (a sequence number taken under one lock, so the order of the
 * events is the order they happened in this JVM), each with the monotonic time it was
 * taken at.
 */
final class History {

	private final long origin = System.nanoTime();

	private final AtomicLong clock = new AtomicLong();

	private final List<Event> events = new ArrayList<>();

	/** Record an event and return it. */
	synchronized Event record(Type type, String actor, int op, @Nullable String lock, long token, String text) {
		Event event = new Event(this.clock.incrementAndGet(), System.nanoTime(), type, actor, op, lock, token, text);
		this.events.add(event);
		return event;
	}

	/** A snapshot of every event so far, in order. */
	synchronized List<Event> events() {
		return List.copyOf(this.events);
	}

	/** Milliseconds since the run began, of a monotonic time. */
	long millis(long nanos) {
		return TimeUnit.NANOSECONDS.toMillis(nanos - this.origin);
	}

	/**
	 * The events around one: the few before and after it on the same lock, and the faults
	 * and connection events in that stretch, one line each.
	 */
	synchronized String excerpt(long seq, @Nullable String lock, int around) {
		List<Event> near = new ArrayList<>();
		int index = (int) Math.min(this.events.size() - 1, Math.max(0, seq - 1));
		List<Event> before = new ArrayList<>();
		for (int i = index; i >= 0 && before.size() < around; i--) {
			Event event = this.events.get(i);
			if (relevant(event, lock)) {
				before.add(0, event);
			}
		}
		near.addAll(before);
		int after = 0;
		for (int i = index + 1; i < this.events.size() && after < around; i++) {
			Event event = this.events.get(i);
			if (relevant(event, lock)) {
				near.add(event);
				after++;
			}
		}
		StringBuilder text = new StringBuilder();
		for (Event event : near) {
			text.append((event.seq() == seq) ? " >> " : "    ").append(format(event)).append('\n');
		}
		return text.toString();
	}

	private static boolean relevant(Event event, @Nullable String lock) {
		return lock == null || lock.equals(event.lock()) || event.type() == Type.FAULT
				|| event.type() == Type.CONNECTION || event.type() == Type.LOSS_REPORTED;
	}

	String format(Event event) {
		return String.format("#%-6d %7d ms  %-10s op %-5d %-14s %-9s token %-6s %s", event.seq(), millis(event.nanos()),
				event.actor(), event.op(), event.type(), (event.lock() != null) ? event.lock() : "-",
				(event.token() != 0) ? Long.toString(event.token()) : "-", event.text());
	}

	/** What an event is about. */
	enum Type {

		/** An acquisition began. */
		START,

		/** An acquisition was granted. */
		GRANTED,

		/** An acquisition ended without a lock (timeout, error, cancellation). */
		ENDED,

		/** A hold entered the fenced store. */
		ENTER,

		/** A hold left the fenced store. */
		EXIT,

		/** The fenced store turned an operation away for a stale token. */
		REJECTED,

		/** A hold entered the store while a conflicting one was inside. */
		OVERLAP,

		/** A hold was released by its holder. */
		RELEASED,

		/** The engine reported a hold lost. */
		LOSS_REPORTED,

		/** A fault began or ended. */
		FAULT,

		/** A client's connection state changed. */
		CONNECTION,

		/** A leadership member joined, left or relinquished a group. */
		MEMBERSHIP,

		/** A leadership member was told it leads a group, with the tenure's epoch. */
		LEADS,

		/** A leadership member was told it no longer leads a group. */
		REVOKED,

		/** The holder saw something the contract forbids, at once. */
		VIOLATION

	}

	/**
	 * One event.
	 *
	 * @param seq its place in the history (the logical clock)
	 * @param nanos the monotonic time it was recorded at
	 * @param type what it is about
	 * @param actor who did it ({@code faults} for faults, a client's name for connection
	 * events)
	 * @param op the global index of the operation, 0 if none
	 * @param lock the lock it concerns ({@code subtree/path}), if any
	 * @param token the fencing token involved, 0 if none
	 * @param text the rest
	 */
	record Event(long seq, long nanos, Type type, String actor, int op, @Nullable String lock, long token,
			String text) {
	}

}
