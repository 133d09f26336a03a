package io.github.distlock.benchmarks;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.apache.curator.drivers.AdvancedTracerDriver;
import org.apache.curator.drivers.EventTrace;
import org.apache.curator.drivers.OperationTrace;

import io.github.distlock.core.LockEventListener;
import io.github.distlock.core.LockKind;
import io.github.distlock.core.LockPath;

/**
 * Where the time of one uncontended cycle goes, step by step, on one clock: the caller's
 * start and return, each request's write to the server and the read of its answer (seen
 * by the {@link ZooKeeperTraffic} tap of a relay that only forwards, in the same JVM),
 * the moment Curator handles each answer (its tracer), and for distlock the moments its
 * listener hears of the acquisition, the grant handed to the caller and the release. For
 * each step the median time since the call is printed, and what lies between two steps is
 * the client's (the library, the ZooKeeper client's threads, waking the caller) or the
 * server's (from a request's write to its answer).
 */
final class CycleTimeline {

	private CycleTimeline() {
	}

	static void run(ZooKeeperTraffic traffic, List<Map.Entry<String, MutexContender>> contenders, String key,
			int cycles) throws Exception {
		System.out.printf(Locale.ROOT,
				"timeline of a cycle (%d cycles each, median time since the call, us; 'answered' is the relay's read "
						+ "of the answer, 'handled' Curator's handling of it):%n",
				cycles);
		for (Map.Entry<String, MutexContender> entry : contenders) {
			MutexContender contender = entry.getValue();
			Marks marks = new Marks();
			contender.client().getZookeeperClient().setTracerDriver(marks);
			contender.addEventListener(marks);
			long session = contender.client().getZookeeperClient().getZooKeeper().getSessionId();
			long[][] calls = new long[cycles][2];
			for (int i = 0; i < 200; i++) {
				contender.cycle(key);
				contender.settle();
			}
			traffic.startRecording();
			marks.recording = true;
			for (int i = 0; i < cycles; i++) {
				marks.cycle = i;
				calls[i][0] = System.nanoTime();
				contender.cycle(key);
				calls[i][1] = System.nanoTime();
				contender.settle();
			}
			marks.recording = false;
			traffic.stopRecording();
			report(entry.getKey(), calls, marks, traffic.requests(session));
		}
	}

	private static void report(String name, long[][] calls, Marks marks, List<long[]> requests) {
		int cycles = calls.length;
		// Each request belongs to the cycle whose call it follows (the settling reads are
		// left out); a release that is sent after the call returned still belongs to it.
		Map<String, long[]> offsets = new HashMap<>();
		Map<String, Integer> counts = new HashMap<>();
		int cycle = 0;
		Map<String, Integer> seen = new HashMap<>();
		for (long[] request : requests) {
			String op = ZooKeeperTraffic.opName((int) request[0]);
			if (op.equals("exists") || op.equals("ping")) {
				continue;
			}
			while (cycle + 1 < cycles && request[1] >= calls[cycle + 1][0]) {
				cycle++;
				seen.clear();
			}
			int n = seen.merge(op, 1, Integer::sum);
			String suffix = (n > 1) ? " #" + n : "";
			add(offsets, counts, "sent " + op + suffix, cycle, request[1] - calls[cycle][0], cycles);
			add(offsets, counts, "answered " + op + suffix, cycle, request[2] - calls[cycle][0], cycles);
		}
		for (long[] mark : marks.all()) {
			int c = (int) mark[0];
			add(offsets, counts, marks.names.get((int) mark[1]), c, mark[2] - calls[c][0], cycles);
		}
		for (int i = 0; i < cycles; i++) {
			add(offsets, counts, "return", i, calls[i][1] - calls[i][0], cycles);
		}
		List<Map.Entry<String, Long>> steps = new ArrayList<>();
		offsets.forEach((step, values) -> {
			int count = counts.get(step);
			if (count >= cycles * 9 / 10) {
				long[] present = Arrays.stream(values).filter((v) -> v != Long.MIN_VALUE).sorted().toArray();
				steps.add(Map.entry(step, present[present.length / 2]));
			}
		});
		steps.sort(Map.Entry.comparingByValue());
		StringBuilder line = new StringBuilder("  " + name + ": call 0");
		for (Map.Entry<String, Long> step : steps) {
			line.append(String.format(Locale.ROOT, " | %s %.0f", step.getKey(), step.getValue() / 1000.0));
		}
		System.out.println(line);
	}

	private static void add(Map<String, long[]> offsets, Map<String, Integer> counts, String step, int cycle,
			long offset, int cycles) {
		long[] values = offsets.computeIfAbsent(step, (s) -> {
			long[] fresh = new long[cycles];
			Arrays.fill(fresh, Long.MIN_VALUE);
			return fresh;
		});
		if (values[cycle] == Long.MIN_VALUE) {
			values[cycle] = offset;
			counts.merge(step, 1, Integer::sum);
		}
	}

	/** Curator's tracer and distlock's listener, timestamping what they are told. */
	private static final class Marks extends AdvancedTracerDriver implements LockEventListener {

		final List<String> names = new ArrayList<>();

		private final List<long[]> marks = new ArrayList<>();

		volatile boolean recording;

		volatile int cycle = -1;

		private synchronized void mark(String name) {
			long now = System.nanoTime();
			int c = this.cycle;
			if (!this.recording || c < 0) {
				return;
			}
			int index = this.names.indexOf(name);
			if (index < 0) {
				index = this.names.size();
				this.names.add(name);
			}
			this.marks.add(new long[] { c, index, now });
		}

		synchronized List<long[]> all() {
			return new ArrayList<>(this.marks);
		}

		@Override
		public void addTrace(OperationTrace trace) {
			String name = trace.getName();
			int builder = name.indexOf("BuilderImpl");
			String op = (builder > 0) ? name.substring(0, builder).toLowerCase(Locale.ROOT) : name;
			mark("handled " + op + (name.endsWith("-Background") ? " (async)" : ""));
		}

		@Override
		public void addEvent(EventTrace trace) {
		}

		@Override
		public AcquisitionListener acquiring(LockKind kind, LockPath path) {
			mark("distlock: acquisition starts");
			return new AcquisitionListener() {

				@Override
				public void acquired(long fencingToken) {
					mark("distlock: handed to the caller");
				}

				@Override
				public void released() {
					mark("distlock: released");
				}

			};
		}

	}

}
