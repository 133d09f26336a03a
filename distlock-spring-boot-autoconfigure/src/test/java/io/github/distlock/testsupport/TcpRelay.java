package io.github.distlock.testsupport;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
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
 * A loopback TCP relay in front of a server, for faults of the network rather than of the
 * server: it can stop forwarding while keeping the connections open (a hung server, a
 * stalled network path: the client notices only by its own timeouts), it can hold back
 * the server's replies only (requests are carried out, their answers lost once the
 * connection drops), and it can drop every connection at once (the client notices at once
 * and reconnects through the relay), and it can add latency to each direction (a slow
 * network: every request still arrives, in order, later). Clients connect to
 * {@link #connectString()}.
 */
public final class TcpRelay implements AutoCloseable {

	private final int target;

	private final ServerSocket listener;

	private final List<Socket> sockets = new CopyOnWriteArrayList<>();

	private final Object gate = new Object();

	private boolean paused;

	private boolean holdingReplies;

	private volatile long latencyNanos;

	/**
	 * Start relaying to a port on the loopback address.
	 * @param target the port to forward to
	 */
	public TcpRelay(int target) throws IOException {
		this.target = target;
		this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
		Thread acceptor = new Thread(this::accept, "relay-accept");
		acceptor.setDaemon(true);
		acceptor.start();
	}

	/** The port clients connect to. */
	public int port() {
		return this.listener.getLocalPort();
	}

	/** The connect string clients use to reach the server through the relay. */
	public String connectString() {
		return "127.0.0.1:" + port();
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
	 * Stop forwarding the server's replies, keeping the connections open and forwarding
	 * the client's requests: the server carries them out, and the client learns nothing
	 * of it (a reply lost on its way, once the connection drops).
	 */
	public void holdReplies() {
		synchronized (this.gate) {
			this.holdingReplies = true;
		}
	}

	/** Forward the server's replies again, those held back first. */
	public void releaseReplies() {
		synchronized (this.gate) {
			this.holdingReplies = false;
			this.gate.notifyAll();
		}
	}

	/**
	 * Delay everything that passes the relay, in each direction, by the given time.
	 * @param oneWay the delay per direction; zero for none
	 */
	public void setLatency(Duration oneWay) {
		this.latencyNanos = oneWay.toNanos();
	}

	/** Close every connection made so far; new connections are still accepted. */
	public void dropConnections() {
		for (Socket socket : this.sockets) {
			closeQuietly(socket);
		}
		this.sockets.clear();
	}

	private void accept() {
		try {
			while (true) {
				Socket inbound = this.listener.accept();
				Socket outbound;
				try {
					outbound = new Socket(InetAddress.getLoopbackAddress(), this.target);
				}
				catch (IOException ex) {
					// The server is down: the client sees its connection refused.
					closeQuietly(inbound);
					continue;
				}
				this.sockets.add(inbound);
				this.sockets.add(outbound);
				pump(inbound, outbound, false);
				pump(outbound, inbound, true);
			}
		}
		catch (IOException ex) {
			// closed
		}
	}

	private void pump(Socket from, Socket to, boolean replies) {
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
		}, "relay-read");
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
						while (this.paused || (replies && this.holdingReplies)) {
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
				// One side gone: the other side of the connection goes too.
				closeQuietly(from);
				closeQuietly(to);
			}
		}, "relay-write");
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
	public void close() throws IOException {
		resume();
		this.listener.close();
		dropConnections();
	}

}
