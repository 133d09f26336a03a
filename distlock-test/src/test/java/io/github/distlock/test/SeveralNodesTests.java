package io.github.distlock.test;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import io.github.distlock.testsupport.ConcurrencyProbe;
import io.github.distlock.test.app.TicketApplication;
import io.github.distlock.test.app.TicketOffice;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * {@link TestZooKeeper#startNodes} starts several instances of an application, each its
 * own session, with one call; a {@link ConcurrencyProbe} shared by them sees the lock
 * hold across instances.
 */
class SeveralNodesTests {

	@RegisterExtension
	static DistlockZooKeeperExtension zookeeper = new DistlockZooKeeperExtension();

	@Test
	void threeInstancesSellOneAtATimeAcrossTheCluster(TestZooKeeper server) throws Exception {
		ConcurrencyProbe probe = new ConcurrencyProbe("ticket sale");
		try (DistlockNodes cluster = server.startNodes(3,
				(index) -> new SpringApplicationBuilder(TicketApplication.class)
					.initializers((ConfigurableApplicationContext context) -> context.getBeanFactory()
						.registerSingleton("ticketProbe", probe)))) {
			Set<Long> sessions = new HashSet<>();
			cluster.forEach((node) -> sessions.add(node.getSessionId()));
			assertThat(sessions).hasSize(3).allMatch(server::hasSession);

			List<TicketOffice> offices = cluster.getBeans(TicketOffice.class);
			ExecutorService callers = Executors.newFixedThreadPool(6);
			try {
				List<Callable<Long>> sales = new ArrayList<>();
				for (int i = 0; i < 30; i++) {
					TicketOffice office = offices.get(i % 3);
					sales.add(() -> office.sell("gala"));
				}
				List<Long> tokens = new ArrayList<>();
				for (Future<Long> sale : callers.invokeAll(sales)) {
					tokens.add(sale.get());
				}
				assertThat(new HashSet<>(tokens)).hasSize(30);
			}
			finally {
				callers.shutdownNow();
			}
			probe.assertNeverConcurrent();
			probe.assertEveryCallHeld("events/gala");
			assertThat(probe.getCalls()).isEqualTo(30);
			assertThat(offices).extracting((office) -> office.sold("gala")).containsOnly(10);
		}
		assertThat(server.getNodes()).isEmpty();
	}

	@Test
	void theProbeReportsCallersThatWereInsideTogether() throws Exception {
		ConcurrencyProbe probe = new ConcurrencyProbe("stock update");
		ConcurrencyProbe.Section first = probe.enter();
		Thread other = new Thread(() -> probe.run(() -> {
		}), "second-caller");
		other.start();
		other.join();
		first.close();
		assertThat(probe.getMostConcurrent()).isEqualTo(2);
		assertThatExceptionOfType(AssertionError.class).isThrownBy(probe::assertNeverConcurrent)
			.withMessageStartingWith(
					"Expected at most 1 caller(s) inside 'stock update' at once, but 2 were (of 2 calls):")
			.withMessageContaining("second-caller entered at +")
			.withMessageContaining("holding no lock");
		assertThatExceptionOfType(AssertionError.class).isThrownBy(() -> probe.assertEveryCallHeld("stock/widget"))
			.withMessageContaining("2 of 2 did not");
	}

}
