package io.github.distlock.relay;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.github.distlock.relay.TcpRelay.Direction;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The relay in front of a real loopback echo server. Every wait is for a condition (a
 * counter of the relay or of the server, a byte read with a timeout) within a deadline.
 */
class TcpRelayTests {

	private static final Duration DEADLINE = Duration.ofSeconds(10);

	private final List<AutoCloseable> closeables = new CopyOnWriteArrayList<>();

	private EchoServer echo;

	@BeforeEach
	void startEchoServer() throws IOException {
		this.echo = closing(new EchoServer());
	}

	@AfterEach
	void closeAll() throws Exception {
		for (AutoCloseable closeable : this.closeables) {
			closeable.close();
		}
	}

	@Test
	void forwardsBothWaysAndCounts() throws IOException {
		TcpRelay relay = closing(new TcpRelay(this.echo.port()));
		Socket client = connect(relay);
		assertThat(roundTrip(client, "hello")).isEqualTo("hello");
		assertThat(roundTrip(client, "again")).isEqualTo("again");
		assertThat(relay.getAcceptedConnections()).isOne();
		assertThat(relay.getOpenConnections()).isOne();
		assertThat(relay.getRefusedConnections()).isZero();
		// A chunk is counted once written: the peer may have read it a moment before.
		for (Direction direction : Direction.values()) {
			await().atMost(DEADLINE).until(() -> relay.getForwardedBytes(direction) == 10);
			assertThat(relay.getReceivedBytes(direction)).isEqualTo(10);
		}
		assertThat(relay.getConnectString()).isEqualTo("127.0.0.1:" + relay.getPort());
		assertThat(relay.getTargetPort()).isEqualTo(this.echo.port());
	}

	@Test
	void pauseHoldsTheBytesAndResumeDeliversThemInOrder() throws IOException {
		TcpRelay relay = closing(new TcpRelay(this.echo.port()));
		Socket client = connect(relay);
		assertThat(roundTrip(client, "ready")).isEqualTo("ready");
		await().atMost(DEADLINE).until(() -> relay.getForwardedBytes(Direction.TO_SERVER) == 5);
		relay.pause();
		send(client, "one ");
		send(client, "two ");
		send(client, "three");
		await().atMost(DEADLINE).until(() -> relay.getReceivedBytes(Direction.TO_SERVER) == 5 + 13);
		assertThat(relay.getForwardedBytes(Direction.TO_SERVER)).isEqualTo(5);
		assertThat(this.echo.received()).isEqualTo(5);
		assertThat(client.getInputStream().available()).isZero();
		assertThat(relay.isPaused(Direction.TO_SERVER)).isTrue();
		assertThat(relay.isPaused(Direction.TO_CLIENT)).isTrue();

		relay.resume();
		assertThat(read(client, 13)).isEqualTo("one two three");
		assertThat(relay.getOpenConnections()).isOne();
		// Once held bytes are all delivered, the relay forwards at once again.
		assertThat(roundTrip(client, "after")).isEqualTo("after");
	}

	@Test
	void pausingTheRepliesLetsTheRequestsThrough() throws IOException {
		TcpRelay relay = closing(new TcpRelay(this.echo.port()));
		Socket client = connect(relay);
		relay.pause(Direction.TO_CLIENT);
		send(client, "request");
		// The server got the request and answered; the answer is held.
		await().atMost(DEADLINE).until(() -> relay.getReceivedBytes(Direction.TO_CLIENT) == 7);
		assertThat(this.echo.received()).isEqualTo(7);
		assertThat(relay.getForwardedBytes(Direction.TO_CLIENT)).isZero();
		assertThat(client.getInputStream().available()).isZero();
		assertThat(relay.isPaused(Direction.TO_SERVER)).isFalse();

		relay.resume(Direction.TO_CLIENT);
		assertThat(read(client, 7)).isEqualTo("request");
	}

	@Test
	void dropConnectionsCutsLiveConnectionsAndTheirHeldBytes() throws IOException {
		TcpRelay relay = closing(new TcpRelay(this.echo.port()));
		Socket first = connect(relay);
		Socket second = connect(relay);
		assertThat(roundTrip(first, "a")).isEqualTo("a");
		assertThat(roundTrip(second, "b")).isEqualTo("b");
		relay.pause();
		send(first, "held");
		await().atMost(DEADLINE).until(() -> relay.getReceivedBytes(Direction.TO_SERVER) == 6);

		relay.dropConnections();
		assertClosed(first);
		assertClosed(second);
		await().atMost(DEADLINE).until(() -> this.echo.closed() == 2);
		assertThat(relay.getOpenConnections()).isZero();
		assertThat(this.echo.received()).isEqualTo(2);

		// New connections are relayed, paused until resumed.
		Socket third = connect(relay);
		send(third, "c");
		await().atMost(DEADLINE).until(() -> relay.getReceivedBytes(Direction.TO_SERVER) == 7);
		relay.resume();
		assertThat(read(third, 1)).isEqualTo("c");
		assertThat(relay.getAcceptedConnections()).isEqualTo(3);
	}

	@Test
	void cutClosesEveryConnectionAndRefusesNewOnesUntilRestored() throws IOException {
		TcpRelay relay = closing(new TcpRelay(this.echo.port()));
		Socket before = connect(relay);
		assertThat(roundTrip(before, "a")).isEqualTo("a");

		relay.cut();
		assertThat(relay.isCut()).isTrue();
		assertClosed(before);
		Socket during = connect(relay);
		assertClosed(during);
		assertThat(relay.getRefusedConnections()).isOne();
		assertThat(this.echo.accepted()).isOne();

		relay.restore();
		assertThat(relay.isCut()).isFalse();
		Socket after = connect(relay);
		assertThat(roundTrip(after, "b")).isEqualTo("b");
		assertThat(relay.getAcceptedConnections()).isEqualTo(2);
	}

	@Test
	void connectionToAServerThatIsDownIsClosedAtOnce() throws IOException {
		int port;
		try (ServerSocket unused = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			port = unused.getLocalPort();
		}
		TcpRelay relay = closing(new TcpRelay(port));
		assertClosed(connect(relay));
		assertThat(relay.getRefusedConnections()).isOne();
		assertThat(relay.getAcceptedConnections()).isZero();
	}

	@Test
	void latencyDelaysEachDirectionAndKeepsTheOrder() throws IOException {
		List<long[]> held = new CopyOnWriteArrayList<>();
		TcpRelay relay = closing(new TcpRelay(this.echo.port(), () -> (direction, bytes, length, readNanos,
				writeNanos) -> held.add(new long[] { direction.ordinal(), writeNanos - readNanos })));
		Socket client = connect(relay);
		assertThat(roundTrip(client, "warm")).isEqualTo("warm");
		Duration oneWay = Duration.ofMillis(150);
		relay.setLatency(oneWay);
		assertThat(relay.getLatency()).isEqualTo(oneWay);
		held.clear();

		long start = System.nanoTime();
		send(client, "1");
		send(client, "2");
		send(client, "3");
		assertThat(read(client, 3)).isEqualTo("123");
		Duration roundTrip = Duration.ofNanos(System.nanoTime() - start);
		// The relay wakes a little early on average rather than late: a margin of 1 ms
		// a hop.
		assertThat(roundTrip).isGreaterThanOrEqualTo(oneWay.multipliedBy(2).minusMillis(2));
		assertThat(held).isNotEmpty()
			.allSatisfy((chunk) -> assertThat(chunk[1]).isGreaterThanOrEqualTo(oneWay.minusMillis(1).toNanos()));
		assertThat(held).anySatisfy((chunk) -> assertThat(chunk[0]).isEqualTo(Direction.TO_SERVER.ordinal()))
			.anySatisfy((chunk) -> assertThat(chunk[0]).isEqualTo(Direction.TO_CLIENT.ordinal()));

		relay.heal();
		assertThat(relay.getLatency()).isZero();
		held.clear();
		assertThat(roundTrip(client, "fast")).isEqualTo("fast");
		assertThat(held).allSatisfy((chunk) -> assertThat(chunk[1]).isLessThan(oneWay.toNanos()));
	}

	@Test
	void tapSeesEveryChunkOfItsConnection() throws IOException {
		List<String> seen = new CopyOnWriteArrayList<>();
		AtomicInteger connections = new AtomicInteger();
		TcpRelay relay = closing(new TcpRelay(this.echo.port(), () -> {
			int connection = connections.incrementAndGet();
			return (direction, bytes, length, readNanos, writeNanos) -> {
				assertThat(writeNanos).isGreaterThanOrEqualTo(readNanos);
				seen.add(connection + " " + direction + " " + new String(bytes, 0, length, StandardCharsets.US_ASCII));
			};
		}));
		assertThat(roundTrip(connect(relay), "ping")).isEqualTo("ping");
		assertThat(roundTrip(connect(relay), "pong")).isEqualTo("pong");
		assertThat(seen).containsExactly("1 TO_SERVER ping", "1 TO_CLIENT ping", "2 TO_SERVER pong",
				"2 TO_CLIENT pong");
	}

	@Test
	void closeEndsTheConnectionsAndTheRelaysThreads() throws IOException {
		TcpRelay relay = new TcpRelay(this.echo.port());
		Socket client = connect(relay);
		assertThat(roundTrip(client, "a")).isEqualTo("a");
		relay.setLatency(Duration.ofMinutes(1));
		send(client, "late");
		await().atMost(DEADLINE).until(() -> relay.getReceivedBytes(Direction.TO_SERVER) == 5);
		String prefix = "relay-" + relay.getPort() + "-";
		assertThat(relayThreads(prefix)).isNotEmpty();

		relay.close();
		assertThat(relayThreads(prefix)).isEmpty();
		assertClosed(client);
		Socket refused = new Socket();
		closing(refused);
		try {
			refused.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), relay.getPort()), 1000);
			assertClosed(refused);
		}
		catch (IOException ex) {
			// Refused: nobody listens any more.
		}
	}

	private static List<Thread> relayThreads(String prefix) {
		return Thread.getAllStackTraces()
			.keySet()
			.stream()
			.filter((thread) -> thread.getName().startsWith(prefix) && thread.isAlive())
			.toList();
	}

	private Socket connect(TcpRelay relay) throws IOException {
		Socket socket = closing(new Socket(InetAddress.getLoopbackAddress(), relay.getPort()));
		socket.setSoTimeout((int) DEADLINE.toMillis());
		return socket;
	}

	private static void send(Socket socket, String text) throws IOException {
		OutputStream out = socket.getOutputStream();
		out.write(text.getBytes(StandardCharsets.US_ASCII));
		out.flush();
	}

	private static String read(Socket socket, int length) throws IOException {
		byte[] bytes = socket.getInputStream().readNBytes(length);
		return new String(bytes, StandardCharsets.US_ASCII);
	}

	private static String roundTrip(Socket socket, String text) throws IOException {
		send(socket, text);
		return read(socket, text.length());
	}

	/** The relay closed the socket: a read ends (or fails) before the deadline. */
	private static void assertClosed(Socket socket) throws IOException {
		try {
			assertThat(socket.getInputStream().read()).isEqualTo(-1);
		}
		catch (SocketException ex) {
			// Reset by the relay: closed too.
		}
	}

	private <T extends AutoCloseable> T closing(T closeable) {
		this.closeables.add(0, closeable);
		return closeable;
	}

	/** Echoes every byte back on the connection it came from, and counts. */
	private static final class EchoServer implements AutoCloseable {

		private final ServerSocket listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());

		private final List<Socket> sockets = new CopyOnWriteArrayList<>();

		private final AtomicInteger accepted = new AtomicInteger();

		private final AtomicInteger closed = new AtomicInteger();

		private final AtomicInteger received = new AtomicInteger();

		EchoServer() throws IOException {
			Thread acceptor = new Thread(this::accept, "echo-accept");
			acceptor.setDaemon(true);
			acceptor.start();
		}

		int port() {
			return this.listener.getLocalPort();
		}

		int accepted() {
			return this.accepted.get();
		}

		int closed() {
			return this.closed.get();
		}

		int received() {
			return this.received.get();
		}

		private void accept() {
			try {
				while (true) {
					Socket socket = this.listener.accept();
					this.sockets.add(socket);
					this.accepted.incrementAndGet();
					Thread echo = new Thread(() -> echo(socket), "echo");
					echo.setDaemon(true);
					echo.start();
				}
			}
			catch (IOException ex) {
				// closed
			}
		}

		private void echo(Socket socket) {
			try (socket; InputStream in = socket.getInputStream(); OutputStream out = socket.getOutputStream()) {
				byte[] buffer = new byte[1024];
				for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
					this.received.addAndGet(n);
					out.write(buffer, 0, n);
				}
			}
			catch (IOException ex) {
				// closed
			}
			finally {
				this.closed.incrementAndGet();
			}
		}

		@Override
		public void close() throws IOException {
			this.listener.close();
			for (Socket socket : this.sockets) {
				socket.close();
			}
		}

	}

}
