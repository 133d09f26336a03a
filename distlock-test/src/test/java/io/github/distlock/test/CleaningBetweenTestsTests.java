package io.github.distlock.test;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.annotation.DirtiesContext;

import io.github.distlock.core.LockPath;
import io.github.distlock.test.app.TicketApplication;
import io.github.distlock.test.app.TicketOffice;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A test that leaves a mess (locks held, semaphore leases, a stopped server, a node cut
 * off) leaves none of it for the next test.
 */
class CleaningBetweenTestsTests {

	@Nested
	@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
	class WithTheExtension {

		@RegisterExtension
		static DistlockZooKeeperExtension zookeeper = new DistlockZooKeeperExtension();

		static DistlockNode cutOff;

		@Test
		@Order(1)
		void leaveAMess(TestZooKeeper server) {
			DistlockNode node = server.newNode();
			onAThreadOfItsOwn(() -> {
				node.getLocks().mutex(LockPath.of("orders", "1")).acquire(Duration.ofSeconds(5));
				node.getLocks().semaphore(LockPath.of("reports"), 2).acquire(Duration.ofSeconds(5));
			});
			cutOff = server.newNode();
			server.startNodes(1, TicketApplication.class).first().getBean(TicketOffice.class).sell("gala");
			assertThat(server.getLockPaths()).isNotEmpty();
			server.cutOff(cutOff);
			server.stop();
		}

		@Test
		@Order(2)
		void findNoneOfIt(TestZooKeeper server) {
			assertThat(server.isRunning()).isTrue();
			assertThat(server.getLockPaths()).isEmpty();
			assertThat(server.getNodes()).isEmpty();
			assertThat(cutOff.isClosed()).isTrue();
		}

	}

	@Nested
	@SpringBootTest(classes = TicketApplication.class)
	@AutoConfigureDistlockZooKeeper
	@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
	class WithTheAnnotation {

		@Autowired
		TestZooKeeper zookeeper;

		@Autowired
		DistlockNode node;

		@Autowired
		LockRecorder recorder;

		@Autowired
		TicketOffice tickets;

		@Test
		@Order(1)
		void leaveAMess() {
			this.tickets.sell("gala");
			onAThreadOfItsOwn(
					() -> this.node.getLocks().mutex(LockPath.of("orders", "1")).acquire(Duration.ofSeconds(5)));
			this.zookeeper.startNodes(1, TicketApplication.class);
			assertThat(this.zookeeper.getLockPaths()).isNotEmpty();
			this.zookeeper.cutOff(this.node);
			this.zookeeper.stop();
		}

		@Test
		@Order(2)
		void findNoneOfIt() {
			assertThat(this.zookeeper.isRunning()).isTrue();
			assertThat(this.zookeeper.getLockPaths()).isEmpty();
			// The contexts of other test classes in Spring's cache share the server: only
			// the nodes the test started are gone.
			assertThat(this.zookeeper.getNodes()).contains(this.node).noneMatch(DistlockNode::isOwned);
			assertThat(this.node.isConnected()).isTrue();
			assertThat(this.recorder.getAcquisitions()).isEmpty();
		}

	}

	@Nested
	@SpringBootTest(classes = TicketApplication.class)
	@AutoConfigureDistlockZooKeeper
	@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_EACH_TEST_METHOD)
	@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
	class WithADirtiedContext {

		@Autowired
		TestZooKeeper zookeeper;

		@Autowired
		TicketOffice tickets;

		@Test
		@Order(1)
		void leaveAMess() {
			this.tickets.sell("gala");
			assertThat(this.zookeeper.getLockPaths()).isNotEmpty();
		}

		@Test
		@Order(2)
		void findNoneOfItInTheNextContext() {
			assertThat(this.zookeeper.getLockPaths()).isEmpty();
		}

	}

	/**
	 * Leave the mess's handles on a thread that ends, not on the test's thread: a handle
	 * never closed stays in its thread's lock context, where later tests of the JVM would
	 * find it.
	 */
	static void onAThreadOfItsOwn(Runnable mess) {
		Thread thread = new Thread(mess, "mess");
		AtomicReference<Throwable> failure = new AtomicReference<>();
		thread.setUncaughtExceptionHandler((t, ex) -> failure.set(ex));
		thread.start();
		try {
			thread.join();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
		if (failure.get() != null) {
			throw new AssertionError("Could not leave the mess", failure.get());
		}
	}

}
