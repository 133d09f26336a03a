package io.github.distlock.benchmarks;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import org.jspecify.annotations.Nullable;

/**
 * A loopback TCP relay in front of a ZooKeeper server that delays every byte by a fixed
 * time in each direction, as a network between the clients and the server would; with a
 * delay of zero it only forwards. Either way it reads the ZooKeeper protocol's frames as
 * they pass, so that it can tell, per session and per kind of request, how many requests
 * the server got and how long it took to answer each (from the request's write to the
 * server's socket to the read of the answer from it: the server's time, including the
 * loopback, without the client's).
 * <p>
 * Each direction of each connection is a reader thread that timestamps what it reads and
 * queues it, and a writer thread that writes each chunk, in order, once its time has come
 * (parking until shortly before, then spinning briefly: a sleep per read would add the
 * sleep's own overshoot and delay the chunks queued behind it). What the relay actually
 * added is measured: {@link #held()} gives the time each chunk was held, and the paired
 * mode also compares round trips through the relay with direct ones.
 */
final class LatencyRelay implements AutoCloseable {

	private static final int MAX_SAMPLES = 1 << 20;

	private final ServerSocket listener;

	private final InetSocketAddress target;

	private final long delayNanos;

	private final List<Socket> sockets = new CopyOnWriteArrayList<>();

	// Times each chunk was held, in nanoseconds (sampled, both directions).
	private final long[] held = new long[MAX_SAMPLES];

	private int heldCount;

	// Per session: per operation code, the server's answer times of the requests.
	private final Map<Long, Map<Integer, Samples>> answers = new ConcurrentHashMap<>();

	// Per session: the requests sent while recording, in order: {operation,
	// sent, answered}.
	private final Map<Long, List<Request>> requests = new ConcurrentHashMap<>();

	private volatile boolean recording;

	private volatile boolean closed;

	/**
	 * Start a relay on an ephemeral loopback port.
	 * @param target the server to relay to
	 * @param delayMicros the delay to add in each direction, zero to only forward
	 */
	LatencyRelay(InetSocketAddress target, long delayMicros) throws IOException {
		this.target = target;
		this.delayNanos = TimeUnit.MICROSECONDS.toNanos(delayMicros);
		this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
		Thread acceptor = new Thread(this::accept, "relay-accept");
		acceptor.setDaemon(true);
		acceptor.start();
	}

	/** The connect string of the relay. */
	String connectString() {
		return InetAddress.getLoopbackAddress().getHostAddress() + ":" + this.listener.getLocalPort();
	}

	long delayMicros() {
		return TimeUnit.NANOSECONDS.toMicros(this.delayNanos);
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
		Map<String, long[]> result = new java.util.TreeMap<>();
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

	private void accept() {
		while (!this.closed) {
			try {
				Socket client = this.listener.accept();
				Socket server = new Socket();
				server.connect(this.target);
				client.setTcpNoDelay(true);
				server.setTcpNoDelay(true);
				this.sockets.add(client);
				this.sockets.add(server);
				Connection connection = new Connection();
				String name = "relay-" + client.getPort();
				pipe(name + "-up", client, server, connection::requestSent, null);
				pipe(name + "-down", server, client, null, connection::answerRead);
			}
			catch (IOException ex) {
				if (!this.closed) {
					System.err.println("relay: " + ex);
				}
			}
		}
	}

	/**
	 * Forward one direction. {@code beforeWrite} sees each chunk just before it is
	 * written to {@code to} (and {@code parse} as it was read), {@code afterRead} each
	 * chunk right after it was read from {@code from}.
	 */
	private void pipe(String name, Socket from, Socket to, @Nullable ChunkListener beforeWrite,
			@Nullable ChunkListener afterRead) throws IOException {
		InputStream in = from.getInputStream();
		OutputStream out = to.getOutputStream();
		if (this.delayNanos == 0) {
			start(name, from, to, () -> {
				byte[] buffer = new byte[64 * 1024];
				for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
					long now = System.nanoTime();
					if (afterRead != null) {
						afterRead.chunk(buffer, n, now);
					}
					if (beforeWrite != null) {
						beforeWrite.chunk(buffer, n, System.nanoTime());
					}
					out.write(buffer, 0, n);
				}
			});
			return;
		}
		LinkedBlockingQueue<Chunk> queue = new LinkedBlockingQueue<>();
		start(name + "-read", from, to, () -> {
			byte[] buffer = new byte[64 * 1024];
			for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
				long now = System.nanoTime();
				if (afterRead != null) {
					afterRead.chunk(buffer, n, now);
				}
				queue.put(new Chunk(now + this.delayNanos, now, Arrays.copyOf(buffer, n)));
			}
			queue.put(Chunk.END);
		});
		start(name + "-write", from, to, () -> {
			Waiter waiter = new Waiter();
			for (Chunk chunk = queue.take(); chunk != Chunk.END; chunk = queue.take()) {
				waiter.awaitNanoTime(chunk.due);
				long now = System.nanoTime();
				recordHeld(now - chunk.read);
				if (beforeWrite != null) {
					beforeWrite.chunk(chunk.bytes, chunk.bytes.length, now);
				}
				out.write(chunk.bytes);
			}
		});
	}

	// When one side of a connection closes, both sockets close, so that the other side
	// sees it (the client then reconnects, as after a network failure).
	private void start(String name, Socket from, Socket to, IoTask task) {
		Thread thread = new Thread(() -> {
			try {
				task.run();
			}
			catch (IOException ex) {
				// The connection closed.
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			finally {
				closeQuietly(from);
				closeQuietly(to);
			}
		}, name);
		thread.setDaemon(true);
		thread.start();
	}

	private static void closeQuietly(Socket socket) {
		try {
			socket.close();
		}
		catch (IOException ex) {
			// closing anyway
		}
	}

	@Override
	public void close() throws IOException {
		this.closed = true;
		this.listener.close();
		for (Socket socket : this.sockets) {
			socket.close();
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

	/** A chunk of bytes read at one time, and when to write it. */
	private record Chunk(long due, long read, byte[] bytes) {

		static final Chunk END = new Chunk(0, 0, new byte[0]);

	}

	@FunctionalInterface
	private interface IoTask {

		void run() throws IOException, InterruptedException;

	}

	@FunctionalInterface
	private interface ChunkListener {

		void chunk(byte[] bytes, int length, long nanoTime);

	}

	/**
	 * Waits until a point in time without spinning (on a machine of two CPUs a spinning
	 * relay takes the time it should measure): it parks for the time left less how late a
	 * park usually returns on this machine (Linux's timer slack and the wake-up), so that
	 * on average it wakes on time. Late samples are clipped before they are averaged, so
	 * that a rare long stall does not make every later chunk early.
	 */
	private static final class Waiter {

		private static final long MAX_LATE_SAMPLE = 200_000;

		// How much later than asked a park returns, smoothed (starts at Linux's usual
		// 50 us timer slack).
		private long lateness = 55_000;

		void awaitNanoTime(long due) {
			long park = (due - System.nanoTime()) - this.lateness;
			if (park > 0) {
				long start = System.nanoTime();
				LockSupport.parkNanos(park);
				long late = Math.min(MAX_LATE_SAMPLE, Math.max(0, (System.nanoTime() - start) - park));
				this.lateness += (late - this.lateness) / 16;
			}
		}

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
	private final class Connection {

		private final FrameReader up = new FrameReader(8);

		private final FrameReader down = new FrameReader(16);

		// Requests sent and not answered, by xid.
		private final Map<Integer, Request> pending = new ConcurrentHashMap<>();

		private volatile long session;

		// Requests, as they are written to the server.
		void requestSent(byte[] bytes, int length, long nanoTime) {
			this.up.read(bytes, length, (header, frameNumber) -> {
				if (frameNumber == 0) {
					return;
				}
				int xid = readInt(header, 0);
				int op = readInt(header, 4);
				Request request = new Request(op, nanoTime);
				this.pending.put(xid, request);
				if (LatencyRelay.this.recording) {
					List<Request> sent = LatencyRelay.this.requests.computeIfAbsent(this.session,
							(s) -> new ArrayList<>());
					synchronized (sent) {
						sent.add(request);
					}
				}
			});
		}

		// Answers, as they are read from the server.
		void answerRead(byte[] bytes, int length, long nanoTime) {
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
				if (request != null && LatencyRelay.this.recording) {
					LatencyRelay.this.answers.computeIfAbsent(this.session, (s) -> new ConcurrentHashMap<>())
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
		parts.add(String.format(java.util.Locale.ROOT, "n %d", sorted.length));
		parts.add(String.format(java.util.Locale.ROOT, "mean %.0f us", mean(sorted) / 1000));
		parts.add(String.format(java.util.Locale.ROOT, "p50 %d us", percentile(sorted, 0.5) / 1000));
		parts.add(String.format(java.util.Locale.ROOT, "p99 %d us", percentile(sorted, 0.99) / 1000));
		return parts;
	}

}
