package io.github.distlock.benchmarks;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

import io.github.distlock.relay.TcpRelay;
import io.github.distlock.relay.TcpRelay.Direction;
import io.github.distlock.relay.TcpRelay.Tap;

/**
 * The ZooKeeper protocol's frames as they pass a {@link TcpRelay}, read by a tap on each
 * of its connections ({@code new TcpRelay(port, traffic::connection)}): per session and
 * per kind of request, how many requests the server got and how long it took to answer
 * each (from the request's write to the server's socket to the read of the answer from
 * it: the server's time, including the loopback, without the client's), and the time the
 * relay held each chunk (what its latency really added).
 */
final class ZooKeeperTraffic {

	private static final int MAX_SAMPLES = 1 << 20;

	// Times each chunk was held, in nanoseconds (sampled, both directions).
	private final long[] held = new long[MAX_SAMPLES];

	private int heldCount;

	// Per session: per operation code, the server's answer times of the requests.
	private final Map<Long, Map<Integer, Samples>> answers = new ConcurrentHashMap<>();

	// Per session: the requests sent while recording, in order: {operation,
	// sent, answered}.
	private final Map<Long, List<Request>> requests = new ConcurrentHashMap<>();

	private volatile boolean recording;

	/** The tap of a new connection of the relay. */
	Tap connection() {
		return new Connection();
	}

	/** Start counting requests and timing answers (and chunk holds) from now. */
	synchronized void startRecording() {
		this.answers.clear();
		this.requests.clear();
		this.heldCount = 0;
		this.recording = true;
	}

	void stopRecording() {
		this.recording = false;
	}

	/**
	 * The server's answer times of one session's requests while recording, in
	 * nanoseconds.
	 * @param session the session id
	 * @return per operation name, the samples
	 */
	Map<String, long[]> answers(long session) {
		Map<String, long[]> result = new TreeMap<>();
		Map<Integer, Samples> bySession = this.answers.get(session);
		if (bySession != null) {
			bySession.forEach((op, samples) -> result.put(opName(op), samples.sorted()));
		}
		return result;
	}

	/**
	 * The requests of one session sent while recording and answered, in the order they
	 * were sent: {operation code, when written to the server, when its answer was read},
	 * in {@link System#nanoTime()} terms.
	 * @param session the session id
	 * @return the requests
	 */
	List<long[]> requests(long session) {
		List<Request> sent = this.requests.get(session);
		if (sent == null) {
			return List.of();
		}
		synchronized (sent) {
			return sent.stream()
				.filter((request) -> request.answered != 0)
				.map((request) -> new long[] { request.op, request.sent, request.answered })
				.toList();
		}
	}

	/** How long each chunk was held while recording, in nanoseconds, sorted. */
	synchronized long[] held() {
		long[] copy = Arrays.copyOf(this.held, Math.min(this.heldCount, MAX_SAMPLES));
		Arrays.sort(copy);
		return copy;
	}

	private synchronized void recordHeld(long nanos) {
		if (this.recording && this.heldCount < MAX_SAMPLES) {
			this.held[this.heldCount++] = nanos;
		}
	}

	static String opName(int op) {
		return switch (op) {
			case 1 -> "create";
			case 2 -> "delete";
			case 3 -> "exists";
			case 4 -> "getData";
			case 5 -> "setData";
			case 8 -> "getChildren";
			case 9 -> "sync";
			case 11 -> "ping";
			case 12 -> "getChildren2";
			case 13 -> "check";
			case 14 -> "multi";
			case 15 -> "create2";
			case 19 -> "createContainer";
			case 21 -> "createTTL";
			case 101 -> "setWatches";
			case 105 -> "setWatches2";
			case 106 -> "addWatch";
			case -11 -> "closeSession";
			default -> "op" + op;
		};
	}

	/** One request as it passed: its operation and when it was sent and answered. */
	private static final class Request {

		final int op;

		final long sent;

		volatile long answered;

		Request(int op, long sent) {
			this.op = op;
			this.sent = sent;
		}

	}

	/** The samples of one operation of one session. */
	private static final class Samples {

		private long[] values = new long[1024];

		private int count;

		synchronized void add(long value) {
			if (this.count == this.values.length) {
				if (this.count >= MAX_SAMPLES) {
					return;
				}
				this.values = Arrays.copyOf(this.values, this.count * 2);
			}
			this.values[this.count++] = value;
		}

		synchronized long[] sorted() {
			long[] copy = Arrays.copyOf(this.values, this.count);
			Arrays.sort(copy);
			return copy;
		}

	}

	/**
	 * Reads the frames of one connection: each is a 4-byte length and that many bytes.
	 * The first frame each way is the session's connect request and answer (which carries
	 * the session id); after that, a request starts with its xid and operation code, an
	 * answer with the xid it answers.
	 */
	private final class Connection implements Tap {

		private final FrameReader up = new FrameReader(8);

		private final FrameReader down = new FrameReader(16);

		// Requests sent and not answered, by xid.
		private final Map<Integer, Request> pending = new ConcurrentHashMap<>();

		private volatile long session;

		@Override
		public void forwarding(Direction direction, byte[] bytes, int length, long readNanos, long writeNanos) {
			recordHeld(writeNanos - readNanos);
			if (direction == Direction.TO_SERVER) {
				requestSent(bytes, length, writeNanos);
			}
			else {
				answerRead(bytes, length, readNanos);
			}
		}

		// Requests, as they are written to the server.
		private void requestSent(byte[] bytes, int length, long nanoTime) {
			this.up.read(bytes, length, (header, frameNumber) -> {
				if (frameNumber == 0) {
					return;
				}
				int xid = readInt(header, 0);
				int op = readInt(header, 4);
				Request request = new Request(op, nanoTime);
				this.pending.put(xid, request);
				if (ZooKeeperTraffic.this.recording) {
					List<Request> sent = ZooKeeperTraffic.this.requests.computeIfAbsent(this.session,
							(s) -> new ArrayList<>());
					synchronized (sent) {
						sent.add(request);
					}
				}
			});
		}

		// Answers, as they were read from the server.
		private void answerRead(byte[] bytes, int length, long nanoTime) {
			this.down.read(bytes, length, (header, frameNumber) -> {
				if (frameNumber == 0) {
					// protocol version, timeout, session id
					this.session = readLong(header, 8);
					return;
				}
				Request request = this.pending.remove(readInt(header, 0));
				if (request != null) {
					request.answered = nanoTime;
				}
				if (request != null && ZooKeeperTraffic.this.recording) {
					ZooKeeperTraffic.this.answers.computeIfAbsent(this.session, (s) -> new ConcurrentHashMap<>())
						.computeIfAbsent(request.op, (op) -> new Samples())
						.add(nanoTime - request.sent);
				}
			});
		}

	}

	@FunctionalInterface
	private interface FrameHeaderListener {

		void header(byte[] header, long frameNumber);

	}

	/**
	 * Finds the frames in a byte stream and hands the first bytes of each to a listener.
	 */
	private static final class FrameReader {

		private final byte[] length = new byte[4];

		private final byte[] header;

		private int lengthRead;

		private int headerRead;

		private int frameRemaining;

		private long frameNumber;

		FrameReader(int headerLength) {
			this.header = new byte[headerLength];
		}

		void read(byte[] bytes, int count, FrameHeaderListener listener) {
			int i = 0;
			while (i < count) {
				if (this.lengthRead < 4) {
					this.length[this.lengthRead++] = bytes[i++];
					if (this.lengthRead == 4) {
						this.frameRemaining = readInt(this.length, 0);
						this.headerRead = 0;
						if (this.frameRemaining == 0) {
							this.lengthRead = 0;
							this.frameNumber++;
						}
					}
					continue;
				}
				int take = Math.min(count - i, this.frameRemaining);
				int toHeader = Math.min(take, this.header.length - this.headerRead);
				if (toHeader > 0) {
					System.arraycopy(bytes, i, this.header, this.headerRead, toHeader);
					this.headerRead += toHeader;
					if (this.headerRead == this.header.length) {
						listener.header(this.header, this.frameNumber);
					}
				}
				i += take;
				this.frameRemaining -= take;
				if (this.frameRemaining == 0) {
					if (this.headerRead < this.header.length) {
						Arrays.fill(this.header, this.headerRead, this.header.length, (byte) 0);
						listener.header(this.header, this.frameNumber);
					}
					this.lengthRead = 0;
					this.frameNumber++;
				}
			}
		}

	}

	static int readInt(byte[] bytes, int offset) {
		return ((bytes[offset] & 0xff) << 24) | ((bytes[offset + 1] & 0xff) << 16) | ((bytes[offset + 2] & 0xff) << 8)
				| (bytes[offset + 3] & 0xff);
	}

	static long readLong(byte[] bytes, int offset) {
		return ((long) readInt(bytes, offset) << 32) | (readInt(bytes, offset + 4) & 0xffffffffL);
	}

	/** Percentile of sorted samples. */
	static long percentile(long[] sorted, double p) {
		if (sorted.length == 0) {
			return 0;
		}
		return sorted[Math.min(sorted.length - 1, (int) Math.floor(p * sorted.length))];
	}

	static double mean(long[] values) {
		return Arrays.stream(values).average().orElse(0);
	}

	static List<String> describe(long[] sorted) {
		List<String> parts = new ArrayList<>();
		parts.add(String.format(Locale.ROOT, "n %d", sorted.length));
		parts.add(String.format(Locale.ROOT, "mean %.0f us", mean(sorted) / 1000));
		parts.add(String.format(Locale.ROOT, "p50 %d us", percentile(sorted, 0.5) / 1000));
		parts.add(String.format(Locale.ROOT, "p99 %d us", percentile(sorted, 0.99) / 1000));
		return parts;
	}

}
