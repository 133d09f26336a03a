package io.github.distlock.test;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.locks.LockSupport;

/**
 * A loopback TCP relay in front of a ZooKeeper server, through which one node connects,
 * so that a test can break that node's network and nobody else's. It can
 * <ul>
 * <li>{@link #cut() cut} the node off: every connection is closed and new ones are
 * refused until {@link #restore()} (the client notices at once and keeps trying);</li>
 * <li>{@link #pause() pause}: stop forwarding while keeping the connections open (a hung
 * network path: the client notices only by its own timeouts);</li>
 * <li>add {@link #setLatency(Duration) latency} to each direction (a slow network: every
 * byte still arrives, in order, later);</li>
 * <li>{@link #dropConnections() drop} the connections once (the client reconnects at
 * once).</li>
 * </ul>
 * Clients connect to {@link #getConnectString()}. The relay follows the server across a
 * restart on the same port.
 */
public final class TcpRelay implements AutoCloseable {

	private final int targetPort;

	private final ServerSocket listener;

	private final List<Socket> sockets = new CopyOnWriteArrayList<>();

	private final Object gate = new Object();

	private boolean paused;

	private volatile boolean cut;

	private volatile long latencyNanos;

	/**
	 * Start relaying to a port on the loopback address.
	 * @param targetPort the port to forward to
	 */
	public TcpRelay(int targetPort) {
		this.targetPort = targetPort;
		try {
			this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not open a relay to port " + targetPort, ex);
		}
		Thread acceptor = new Thread(this::accept, "distlock-relay-" + getPort());
		acceptor.setDaemon(true);
		acceptor.start();
	}

	/** The port clients connect to. */
	public int getPort() {
		return this.listener.getLocalPort();
	}

	/** The connect string clients use to reach the server through the relay. */
	public String getConnectString() {
		return "127.0.0.1:" + getPort();
	}

	/** Close every connection and refuse new ones until {@link #restore()}. */
	public void cut() {
		this.cut = true;
		dropConnections();
	}

	/** Accept connections again after {@link #cut()}. */
	public void restore() {
		this.cut = false;
	}

	/** Whether the relay is {@link #cut()}. */
	public boolean isCut() {
		return this.cut;
	}

	/** Stop forwarding, keeping the connections open. */
	public void pause() {
		synchronized (this.gate) {
			this.paused = true;
		}
	}

	/** Forward again what was held back and what comes next. */
	public void resume() {
		synchronized (this.gate) {
			this.paused = false;
			this.gate.notifyAll();
		}
	}

	/**
	 * Delay everything that passes the relay, in each direction.
	 * @param oneWay the delay per direction; zero for none
	 */
	public void setLatency(Duration oneWay) {
		this.latencyNanos = oneWay.toNanos();
	}

	/** The delay per direction. */
	public Duration getLatency() {
		return Duration.ofNanos(this.latencyNanos);
	}

	/** Close every connection made so far; new ones are accepted unless cut. */
	public void dropConnections() {
		for (Socket socket : this.sockets) {
			closeQuietly(socket);
		}
		this.sockets.clear();
	}

	/** Undo every fault: restore, resume, no latency. */
	public void heal() {
		restore();
		setLatency(Duration.ZERO);
		resume();
	}

	private void accept() {
		while (!this.listener.isClosed()) {
			Socket inbound;
			try {
				inbound = this.listener.accept();
			}
			catch (IOException ex) {
				return;
			}
			if (this.cut) {
				closeQuietly(inbound);
				continue;
			}
			Socket outbound;
			try {
				outbound = new Socket(InetAddress.getLoopbackAddress(), this.targetPort);
			}
			catch (IOException ex) {
				// The server is down: the client sees its connection closed.
				closeQuietly(inbound);
				continue;
			}
			this.sockets.add(inbound);
			this.sockets.add(outbound);
			pump(inbound, outbound);
			pump(outbound, inbound);
		}
	}

	private void pump(Socket from, Socket to) {
		BlockingQueue<Chunk> chunks = new LinkedBlockingQueue<>();
		Thread reader = new Thread(() -> {
			byte[] buffer = new byte[8192];
			try (InputStream in = from.getInputStream()) {
				int read;
				while ((read = in.read(buffer)) >= 0) {
					chunks.put(new Chunk(System.nanoTime() + this.latencyNanos, Arrays.copyOf(buffer, read)));
				}
			}
			catch (IOException | InterruptedException ex) {
				// closed
			}
			finally {
				chunks.add(Chunk.END);
			}
		}, "distlock-relay-read");
		Thread writer = new Thread(() -> {
			try (OutputStream out = to.getOutputStream()) {
				while (true) {
					Chunk chunk = chunks.take();
					if (chunk == Chunk.END) {
						break;
					}
					long wait;
					while ((wait = chunk.deliverAt - System.nanoTime()) > 0) {
						LockSupport.parkNanos(wait);
					}
					synchronized (this.gate) {
						while (this.paused) {
							this.gate.wait();
						}
					}
					out.write(chunk.bytes);
					out.flush();
				}
			}
			catch (IOException | InterruptedException ex) {
				// closed
			}
			finally {
				// One side gone: the other goes too, as a real connection would.
				closeQuietly(from);
				closeQuietly(to);
			}
		}, "distlock-relay-write");
		reader.setDaemon(true);
		writer.setDaemon(true);
		reader.start();
		writer.start();
	}

	private record Chunk(long deliverAt, byte[] bytes) {

		static final Chunk END = new Chunk(0, new byte[0]);

	}

	private static void closeQuietly(Socket socket) {
		try {
			socket.close();
		}
		catch (IOException ex) {
			// already closed
		}
	}

	@Override
	public void close() {
		resume();
		closeQuietly(this.listener);
		dropConnections();
	}

	private static void closeQuietly(ServerSocket socket) {
		try {
			socket.close();
		}
		catch (IOException ex) {
			// already closed
		}
	}

}
