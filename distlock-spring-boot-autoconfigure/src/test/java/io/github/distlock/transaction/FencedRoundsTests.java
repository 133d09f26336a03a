package io.github.distlock.transaction;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;

import io.github.distlock.core.LockHandle;
import io.github.distlock.core.StaleFencingTokenException;
import io.github.distlock.curator.CuratorLocks;
import io.github.distlock.testsupport.Faults;
import io.github.distlock.testsupport.NodeOptions;
import io.github.distlock.testsupport.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Randomized rounds of holders that lose their lock while their fenced transaction is
 * open: in each round several holders of one lock take it one after the other (each
 * losing it before the next takes it: released, or its session ended on the server), all
 * with their transactions open, and then commit in a random order. The database must
 * accept exactly the commits whose token is not lower than one committed before: no stale
 * commit accepted, no rightful commit refused, and the row holds the value of the newest
 * committed holder.
 */
class FencedRoundsTests {

	// 1 000 rounds (-Ddistlock.fenced.rounds=1000) take about three minutes on a loaded
	// machine, most of it in the sessions ended on the server; the build runs fewer.
	private static final int ROUNDS = Integer.getInteger("distlock.fenced.rounds", 250);

	private static final int NODES = 3;

	@RegisterExtension
	final ZooKeeperExtension zookeeper = new ZooKeeperExtension(
			NodeOptions.defaults().withNamespace("fenced-rounds").withDefaultWaitTime(Duration.ofSeconds(10)));

	private final FencedDatabase database = FencedDatabase.h2();

	private final ExecutorService holders = Executors.newCachedThreadPool();

	@AfterEach
	void stop() {
		this.holders.shutdownNow();
		this.database.shutdown();
	}

	@Test
	void noStaleCommitAcceptedAndNoRightfulCommitRefused() throws Exception {
		DataSourceTransactionManager transactionManager = new DataSourceTransactionManager(this.database.dataSource());
		JdbcTransactionFencing fencing = new JdbcTransactionFencing(transactionManager::getDataSource,
				() -> transactionManager, new FenceTable(FenceTable.DEFAULT_NAME, Clock.systemUTC()));
		transactionManager.addListener(fencing);
		FencedTransactions fenced = new FencedTransactions(transactionManager, fencing);
		JdbcTemplate jdbc = new JdbcTemplate(transactionManager.getDataSource());
		List<CuratorLocks> nodes = new ArrayList<>();
		for (int i = 0; i < NODES; i++) {
			nodes.add(this.zookeeper.newNode());
		}
		long seed = System.nanoTime();
		Random random = new Random(seed);
		int staleAccepted = 0;
		int rightfulRefused = 0;
		int commits = 0;
		int refusals = 0;
		int sessionsKilled = 0;
		long started = System.nanoTime();
		for (int round = 0; round < ROUNDS; round++) {
			String sku = "sku-" + (round % 7);
			int holderCount = 2 + random.nextInt(3);
			List<Holder> inRound = new ArrayList<>();
			for (int h = 0; h < holderCount; h++) {
				CuratorLocks node = nodes.get(random.nextInt(NODES));
				LockHandle handle = node.mutex("stock/" + sku).acquire(Duration.ofSeconds(10));
				Holder holder = new Holder(handle, round * 10 + h);
				holder.start(fenced, jdbc, sku, this.holders);
				inRound.add(holder);
				holder.opened.await(10, TimeUnit.SECONDS);
				// The holder loses its lock, its transaction still open.
				if (h < holderCount - 1 && random.nextInt(25) == 0) {
					Faults.killSession(node.client());
					sessionsKilled++;
				}
				// Closed either way: a lost hold stays this thread's until closed.
				handle.close();
			}
			List<Holder> commitOrder = new ArrayList<>(inRound);
			Collections.shuffle(commitOrder, random);
			Long committedToken = this.database.fence("mutex/stock/" + sku);
			long highest = (committedToken != null) ? committedToken : 0;
			Holder newest = null;
			for (Holder holder : commitOrder) {
				boolean rightful = holder.handle.fencingToken() >= highest;
				holder.commit.countDown();
				boolean committed = holder.outcome.get(10, TimeUnit.SECONDS);
				if (committed) {
					commits++;
					highest = holder.handle.fencingToken();
					newest = holder;
					if (!rightful) {
						staleAccepted++;
					}
				}
				else {
					refusals++;
					if (rightful) {
						rightfulRefused++;
					}
				}
			}
			if (newest != null) {
				assertThat(this.database.quantity(sku)).isEqualTo(newest.value);
			}
		}
		long tookMs = Duration.ofNanos(System.nanoTime() - started).toMillis();
		System.out.printf(
				"Fenced rounds: %d rounds in %d ms (seed %d): %d commits, %d refused as stale, "
						+ "%d sessions killed; stale accepted %d, rightful refused %d%n",
				ROUNDS, tookMs, seed, commits, refusals, sessionsKilled, staleAccepted, rightfulRefused);
		assertThat(staleAccepted).as("stale commits accepted (seed %d)", seed).isZero();
		assertThat(rightfulRefused).as("rightful commits refused (seed %d)", seed).isZero();
		assertThat(refusals).as("some rounds must refuse").isPositive();
	}

	/** One holder: its fenced transaction, open until told to write and commit. */
	private static final class Holder {

		final LockHandle handle;

		final int value;

		final CountDownLatch opened = new CountDownLatch(1);

		final CountDownLatch commit = new CountDownLatch(1);

		CompletableFuture<Boolean> outcome;

		Holder(LockHandle handle, int value) {
			this.handle = handle;
			this.value = value;
		}

		void start(FencedTransactions fenced, JdbcTemplate jdbc, String sku, ExecutorService executor) {
			this.outcome = CompletableFuture.supplyAsync(() -> {
				try {
					fenced.execute(this.handle, (status) -> {
						this.opened.countDown();
						awaitQuietly(this.commit);
						// Written only now: an open transaction holding the row's
						// lock would make the next holder's write wait.
						return jdbc.update("merge into stock (sku, quantity) key (sku) values (?, ?)", sku, this.value);
					});
					return true;
				}
				catch (StaleFencingTokenException ex) {
					return false;
				}
			}, executor);
		}

	}

	private static void awaitQuietly(CountDownLatch latch) {
		try {
			if (!latch.await(30, TimeUnit.SECONDS)) {
				throw new IllegalStateException("not told to commit");
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

}
