package io.github.distlock.relay;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;

/**
 * A TCP relay on the loopback address in front of one server, for faults of the network
 * rather than of the server. Clients connect to {@link #getConnectString()}; for each
 * client connection the relay opens one to the server and forwards the bytes both ways.
 * On demand it
 * <ul>
 * <li>{@link #pause() pauses}: it stops forwarding, in both directions or in one
 * ({@link #pause(Direction)}), and holds what it reads while the connections stay open (a
 * hung server or a stalled network path: a client notices only by its own timeouts).
 * {@link #resume()} forwards what was held, in order, then what comes next. Holding only
 * the server's replies ({@link Direction#TO_CLIENT}) lets the server carry out the
 * requests while the client learns nothing of it;</li>
 * <li>{@link #dropConnections() drops} every connection once (the client notices at once
 * and connects again through the relay);</li>
 * <li>{@link #cut() cuts}: drops every connection and closes each new one at once, until
 * {@link #restore()};</li>
 * <li>adds {@link #setLatency(Duration) latency} to each direction (a slow network: every
 * byte still arrives, in order, later).</li>
 * </ul>
 * {@link #heal()} undoes all of these. Counters tell what passed (bytes
 * {@link #getReceivedBytes(Direction) received} and {@link #getForwardedBytes(Direction)
 * forwarded} per direction, connections {@link #getAcceptedConnections() accepted},
 * {@link #getOpenConnections() open} and {@link #getRefusedConnections() refused}), so
 * that a test can wait for a condition rather than for a time. A {@link Tap} sees every
 * chunk as it is forwarded, with the times it was read and written (a benchmark reads a
 * protocol's frames from it).
 * <p>
 * Each direction of a connection is a thread that reads and, while nothing is delayed or
 * held, writes what it read at once. A chunk to be delayed or held is queued for a second
 * thread of that direction, started when first needed, that writes the chunks in order,
 * each once its time has come and the direction is not paused. It parks for the time left
 * less how late a park usually returns on this machine (learnt as it runs), so that
 * chunks leave on time on average without spinning on a CPU that the measured code needs.
 * When either side of a connection closes, the relay closes the other side too, as a real
 * connection would; when the server cannot be reached (it is down), the client's
 * connection is closed at once. Each connection connects to the server anew, so the relay
 * follows the server across a restart on the same port.
 * <p>
 * All methods are thread-safe. The relay's threads are daemon threads named
 * {@code relay-<port>-...}; {@link #close()} ends them.
 */
public final class TcpRelay implements AutoCloseable {

	/** The way a chunk travels through the relay. */
	public enum Direction {

		/** From the client to the server: the client's requests. */
		TO_SERVER,

		/** From the server to the client: the server's replies. */
		TO_CLIENT

	}

	/**
	 * Sees each chunk of one connection just before the relay writes it on. It is called
	 * on the thread of the chunk's direction, in order within a direction; the two
	 * directions of a connection call it concurrently. An exception it throws closes the
	 * connection.
	 */
	@FunctionalInterface
	public interface Tap {

		/**
		 * A chunk is about to be written.
		 * @param direction the way the chunk travels
		 * @param bytes the chunk, from index 0; valid during the call only
		 * @param length the chunk's length
		 * @param readNanos when the relay read the chunk, in {@link System#nanoTime()}
		 * terms
		 * @param writeNanos when it writes it, in the same terms
		 */
		void forwarding(Direction direction, byte[] bytes, int length, long readNanos, long writeNanos);

	}

	private static final Tap NO_TAP = (direction, bytes, length, readNanos, writeNanos) -> {
	};

	private static final int BUFFER_SIZE = 64 * 1024;

	private static final int CONNECT_TIMEOUT_MILLIS = 10_000;

	private static final long CLOSE_TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(10);

	private final InetSocketAddress target;

	private final Supplier<? extends Tap> taps;

	private final ServerSocket listener;

	// Guards connections, cut, closed and the changes of paused; the monitor that held
	// chunks wait on.
	private final Object lock = new Object();

	private final Set<Connection> connections = new HashSet<>();

	private volatile boolean cut;

	private boolean closed;

	// One bit per direction, by ordinal.
	private volatile int paused;

	private volatile long latencyNanos;

	private final Set<Thread> threads = ConcurrentHashMap.newKeySet();

	private final AtomicLong accepted = new AtomicLong();

	private final AtomicLong refused = new AtomicLong();

	private final AtomicLongArray received = new AtomicLongArray(2);

	private final AtomicLongArray forwarded = new AtomicLongArray(2);

	/**
	 * Start relaying to a port on the loopback address.
	 * @param targetPort the server's port
	 * @throws UncheckedIOException if the relay cannot listen
	 */
	public TcpRelay(int targetPort) {
		this(targetPort, () -> NO_TAP);
	}

	/**
	 * Start relaying to a port on the loopback address, with a tap on each connection.
	 * @param targetPort the server's port
	 * @param taps gives the tap of each new connection
	 * @throws UncheckedIOException if the relay cannot listen
	 */
	public TcpRelay(int targetPort, Supplier<? extends Tap> taps) {
		this.target = new InetSocketAddress(InetAddress.getLoopbackAddress(), targetPort);
		this.taps = Objects.requireNonNull(taps, "taps");
		try {
			this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not open a relay to port " + targetPort, ex);
		}
		start("relay-" + getPort() + "-accept", this::accept);
	}

	/** The port clients connect to. */
	public int getPort() {
		return this.listener.getLocalPort();
	}

	/**
	 * The address clients connect to, as {@code host:port}: a ZooKeeper connect string.
	 */
	public String getConnectString() {
		InetAddress address = this.listener.getInetAddress();
		String host = address.getHostAddress();
		return ((address instanceof Inet6Address) ? "[" + host + "]" : host) + ":" + getPort();
	}

	/** The port of the server the relay forwards to. */
	public int getTargetPort() {
		return this.target.getPort();
	}

	/**
	 * Stop forwarding in both directions, keeping the connections open; what is read
	 * meanwhile is held.
	 */
	public void pause() {
		setPaused(bit(Direction.TO_SERVER) | bit(Direction.TO_CLIENT), true);
	}

	/**
	 * Stop forwarding in one direction, keeping the connections open; what is read
	 * meanwhile is held. A chunk the relay was writing as this was called may still
	 * arrive.
	 * @param direction the direction to stop
	 */
	public void pause(Direction direction) {
		setPaused(bit(direction), true);
	}

	/** Forward again in both directions: what was held first, in order. */
	public void resume() {
		setPaused(bit(Direction.TO_SERVER) | bit(Direction.TO_CLIENT), false);
	}

	/**
	 * Forward again in one direction: what was held first, in order.
	 * @param direction the direction to resume
	 */
	public void resume(Direction direction) {
		setPaused(bit(direction), false);
	}

	/**
	 * Whether one direction is {@link #pause(Direction) paused}.
	 * @param direction the direction
	 * @return whether it is paused
	 */
	public boolean isPaused(Direction direction) {
		return (this.paused & bit(direction)) != 0;
	}

	/**
	 * Delay everything that passes the relay from now on, in each direction, by the given
	 * time. Chunks keep their order: after the latency is lowered, a chunk waits for
	 * those read before it.
	 * @param oneWay the delay per direction; zero for none
	 */
	public void setLatency(Duration oneWay) {
		if (oneWay.isNegative()) {
			throw new IllegalArgumentException("A latency cannot be negative: " + oneWay);
		}
		this.latencyNanos = oneWay.toNanos();
	}

	/** The delay per direction, zero for none. */
	public Duration getLatency() {
		return Duration.ofNanos(this.latencyNanos);
	}

	/**
	 * Close every open connection, with what it held; new ones are accepted unless the
	 * relay is {@link #cut()}.
	 */
	public void dropConnections() {
		List<Connection> open;
		synchronized (this.lock) {
			open = List.copyOf(this.connections);
		}
		for (Connection connection : open) {
			connection.close();
		}
	}

	/**
	 * Close every connection and close each new one at once until {@link #restore()}: the
	 * client sees its connection end as soon as it is made.
	 */
	public void cut() {
		synchronized (this.lock) {
			this.cut = true;
		}
		dropConnections();
	}

	/** Relay new connections again after {@link #cut()}. */
	public void restore() {
		this.cut = false;
	}

	/** Whether the relay is {@link #cut()}. */
	public boolean isCut() {
		return this.cut;
	}

	/** Undo every fault: {@link #restore()}, no latency, {@link #resume()}. */
	public void heal() {
		restore();
		setLatency(Duration.ZERO);
		resume();
	}

	/** How many client connections were relayed to the server so far. */
	public long getAcceptedConnections() {
		return this.accepted.get();
	}

	/** How many relayed connections are open now. */
	public int getOpenConnections() {
		synchronized (this.lock) {
			return this.connections.size();
		}
	}

	/**
	 * How many client connections were closed at once so far: the relay was cut or the
	 * server could not be reached.
	 */
	public long getRefusedConnections() {
		return this.refused.get();
	}

	/**
	 * How many bytes the relay read in one direction so far, forwarded or not.
	 * @param direction the direction
	 * @return the bytes read
	 */
	public long getReceivedBytes(Direction direction) {
		return this.received.get(direction.ordinal());
	}

	/**
	 * How many bytes the relay wrote on in one direction so far.
	 * @param direction the direction
	 * @return the bytes written
	 */
	public long getForwardedBytes(Direction direction) {
		return this.forwarded.get(direction.ordinal());
	}

	/**
	 * Stop listening, close every connection, and wait (up to ten seconds) until the
	 * relay's threads have ended.
	 */
	@Override
	public void close() {
		synchronized (this.lock) {
			this.closed = true;
		}
		closeQuietly(this.listener);
		dropConnections();
		long deadline = System.nanoTime() + CLOSE_TIMEOUT_NANOS;
		for (Thread thread : this.threads) {
			long left = deadline - System.nanoTime();
			if (left <= 0) {
				return;
			}
			if (thread != Thread.currentThread()) {
				try {
					thread.join(TimeUnit.NANOSECONDS.toMillis(left) + 1);
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
					return;
				}
			}
		}
	}

	@Override
	public String toString() {
		return "TcpRelay " + getConnectString() + " -> " + this.target.getPort();
	}

	private static int bit(Direction direction) {
		return 1 << direction.ordinal();
	}

	private void setPaused(int bits, boolean pause) {
		synchronized (this.lock) {
			if (pause) {
				this.paused |= bits;
			}
			else {
				this.paused &= ~bits;
				this.lock.notifyAll();
			}
		}
	}

	private void accept() {
		while (true) {
			Socket client;
			try {
				client = this.listener.accept();
			}
			catch (IOException ex) {
				return;
			}
			if (this.cut) {
				refuse(client);
				continue;
			}
			Socket server = new Socket();
			try {
				server.connect(this.target, CONNECT_TIMEOUT_MILLIS);
				server.setTcpNoDelay(true);
				client.setTcpNoDelay(true);
			}
			catch (IOException ex) {
				// The server is down: the client sees its connection end.
				closeQuietly(server);
				refuse(client);
				continue;
			}
			Connection connection = new Connection(client, server, this.taps.get());
			boolean open;
			synchronized (this.lock) {
				open = !this.cut && !this.closed;
				if (open) {
					this.connections.add(connection);
				}
			}
			if (!open) {
				closeQuietly(server);
				refuse(client);
				continue;
			}
			this.accepted.incrementAndGet();
			connection.start();
		}
	}

	private void refuse(Socket client) {
		this.refused.incrementAndGet();
		closeQuietly(client);
	}

	private Thread start(String name, Runnable task) {
		// Ended threads are forgotten here rather than by themselves, so that close()
		// joins every thread until it has really ended.
		this.threads.removeIf((thread) -> !thread.isAlive());
		Thread thread = new Thread(task, name);
		thread.setDaemon(true);
		this.threads.add(thread);
		thread.start();
		return thread;
	}

	private static void closeQuietly(AutoCloseable closeable) {
		try {
			closeable.close();
		}
		catch (Exception ex) {
			// closing anyway
		}
	}

	/** One client connection and its connection to the server. */
	private final class Connection {

		private final Socket client;

		private final Socket server;

		private final Pipe toServer;

		private final Pipe toClient;

		private volatile boolean closed;

		Connection(Socket client, Socket server, Tap tap) {
			this.client = client;
			this.server = server;
			this.toServer = new Pipe(this, Direction.TO_SERVER, client, server, tap);
			this.toClient = new Pipe(this, Direction.TO_CLIENT, server, client, tap);
		}

		void start() {
			this.toServer.start();
			this.toClient.start();
		}

		boolean isClosed() {
			return this.closed;
		}

		/** Close both sides and wake the threads waiting to write. */
		void close() {
			synchronized (TcpRelay.this.lock) {
				if (this.closed) {
					return;
				}
				this.closed = true;
				TcpRelay.this.connections.remove(this);
				TcpRelay.this.lock.notifyAll();
			}
			closeQuietly(this.client);
			closeQuietly(this.server);
			this.toServer.wake();
			this.toClient.wake();
		}

	}

	/**
	 * One direction of a connection: a reader that writes at once what it need not delay
	 * or hold, and a writer, started when first needed, for the chunks queued.
	 */
	private final class Pipe {

		private final Connection connection;

		private final Direction direction;

		private final Socket from;

		private final Socket to;

		private final Tap tap;

		private final String name;

		private final BlockingQueue<Chunk> queue = new LinkedBlockingQueue<>();

		// Chunks queued and not yet written: the reader adds, the writer takes away once
		// written, so at zero the reader may write itself without passing one.
		private final AtomicInteger pending = new AtomicInteger();

		private volatile Thread writer;

		Pipe(Connection connection, Direction direction, Socket from, Socket to, Tap tap) {
			this.connection = connection;
			this.direction = direction;
			this.from = from;
			this.to = to;
			this.tap = tap;
			this.name = "relay-" + getPort() + "-" + connection.client.getPort() + "-"
					+ ((direction == Direction.TO_SERVER) ? "to-server" : "to-client");
		}

		void start() {
			TcpRelay.this.start(this.name, this::read);
		}

		private void read() {
			boolean handedOver = false;
			try {
				InputStream in = this.from.getInputStream();
				OutputStream out = this.to.getOutputStream();
				byte[] buffer = new byte[BUFFER_SIZE];
				for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
					long now = System.nanoTime();
					TcpRelay.this.received.addAndGet(this.direction.ordinal(), n);
					long latency = TcpRelay.this.latencyNanos;
					if (latency == 0 && this.pending.get() == 0 && !isPaused(this.direction)) {
						write(out, buffer, n, now);
					}
					else {
						this.pending.incrementAndGet();
						this.queue.add(new Chunk(now + latency, now, Arrays.copyOf(buffer, n)));
						startWriter();
					}
				}
				// The sender is done: the writer closes the connection once it has
				// written what was queued.
				if (this.writer != null) {
					this.queue.add(Chunk.END);
					handedOver = true;
				}
			}
			catch (IOException | RuntimeException ex) {
				// The connection closed (or the tap failed).
			}
			finally {
				if (!handedOver) {
					this.connection.close();
					// The writer may have missed the close's wake-up, if it started as
					// the connection closed.
					if (this.writer != null) {
						this.queue.add(Chunk.END);
					}
				}
			}
		}

		private void startWriter() {
			if (this.writer == null) {
				this.writer = TcpRelay.this.start(this.name + "-writer", this::write);
			}
		}

		private void write() {
			Waiter waiter = new Waiter();
			try {
				OutputStream out = this.to.getOutputStream();
				for (Chunk chunk = this.queue.take(); chunk != Chunk.END; chunk = this.queue.take()) {
					waiter.awaitNanoTime(chunk.due, this.connection);
					if (!awaitForwarding()) {
						return;
					}
					write(out, chunk.bytes, chunk.bytes.length, chunk.read);
					this.pending.decrementAndGet();
				}
			}
			catch (IOException | RuntimeException ex) {
				// The connection closed (or the tap failed).
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			finally {
				this.connection.close();
			}
		}

		/** Wait while the direction is paused; false once the connection is closed. */
		private boolean awaitForwarding() throws InterruptedException {
			synchronized (TcpRelay.this.lock) {
				while (isPaused(this.direction) && !this.connection.isClosed()) {
					TcpRelay.this.lock.wait();
				}
			}
			return !this.connection.isClosed();
		}

		private void write(OutputStream out, byte[] bytes, int length, long readNanos) throws IOException {
			this.tap.forwarding(this.direction, bytes, length, readNanos, System.nanoTime());
			out.write(bytes, 0, length);
			TcpRelay.this.forwarded.addAndGet(this.direction.ordinal(), length);
		}

		/**
		 * Wake the writer from waiting for a chunk's time, once the connection closed.
		 */
		void wake() {
			Thread thread = this.writer;
			if (thread != null) {
				this.queue.add(Chunk.END);
				LockSupport.unpark(thread);
			}
		}

	}

	/** A chunk of bytes read at one time, and when to write it. */
	private record Chunk(long due, long read, byte[] bytes) {

		static final Chunk END = new Chunk(0, 0, new byte[0]);

	}

	/**
	 * Waits until a point in time without spinning: it parks for the time left less how
	 * late a park usually returns on this machine (Linux's timer slack and the wake-up),
	 * so that on average it wakes on time. Late samples are clipped before they are
	 * averaged, so that a rare long stall does not make every later chunk early.
	 */
	private static final class Waiter {

		private static final long MAX_LATE_SAMPLE = 200_000;

		// How much later than asked a park returns, smoothed; it starts at Linux's usual
		// timer slack of 50 us and a little more.
		private long lateness = 55_000;

		void awaitNanoTime(long due, Connection connection) {
			long wakeAt = due - this.lateness;
			while (!connection.isClosed()) {
				long park = wakeAt - System.nanoTime();
				if (park <= 0) {
					return;
				}
				long start = System.nanoTime();
				LockSupport.parkNanos(park);
				long late = (System.nanoTime() - start) - park;
				if (late >= 0) {
					this.lateness += (Math.min(MAX_LATE_SAMPLE, late) - this.lateness) / 16;
					return;
				}
				// Woken early (the connection closed, or spuriously): wait on.
			}
		}

	}

}
