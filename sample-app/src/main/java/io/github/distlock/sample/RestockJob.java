package io.github.distlock.sample;

import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

import io.github.distlock.annotation.DistributedLock;
import io.github.distlock.annotation.OnTimeout;

/**
 * Refills SKUs that run low, once per period across all instances of the shop, as
 * docs/scheduled-jobs.md describes.
 * <p>
 * Every instance fires at the same moment (cron). The lock is tried once
 * ({@code waitTime = "0"}): the instance that gets it runs the period, the others skip at
 * once ({@code onTimeout = SKIP}). {@code holdAtLeast} keeps the lock for
 * {@code shop.restock.hold-at-least} after it was taken, also when the run took 100 ms,
 * so an instance whose schedule fires a little later still finds it taken and skips. Each
 * run is recorded in {@code restock_runs} with its period, and checked under the lock: an
 * instance that fires later than {@code holdAtLeast} (a long GC pause, a clock that
 * jumped) skips a period that already ran instead of running it twice.
 */
@Component
public class RestockJob {

	private static final Log logger = LogFactory.getLog(RestockJob.class);

	private final InventoryService inventory;

	private final StockStore stock;

	private final JdbcClient jdbc;

	private final ShopProperties properties;

	private final Clock clock;

	public RestockJob(InventoryService inventory, StockStore stock, JdbcClient jdbc, ShopProperties properties) {
		this.inventory = inventory;
		this.stock = stock;
		this.jdbc = jdbc;
		this.properties = properties;
		this.clock = Clock.systemUTC();
	}

	/**
	 * Run the job for the current period, unless it already ran.
	 */
	@Scheduled(cron = "${shop.restock.cron:0 * * * * *}")
	@DistributedLock(value = "jobs/restock", waitTime = "0", onTimeout = OnTimeout.SKIP,
			holdAtLeast = "${shop.restock.hold-at-least:30s}")
	public void restock() {
		Instant now = this.clock.instant();
		long period = now.toEpochMilli() / this.properties.restock().period().toMillis();
		if (ranIn(period)) {
			return;
		}
		Duration workTime = this.properties.restock().workTime();
		if (!workTime.isZero()) {
			LockSupport.parkNanos(workTime.toNanos());
		}
		int refilled = 0;
		for (String sku : this.stock.skusBelow(this.properties.restock().below())) {
			refilled += this.inventory.refill(sku, this.properties.restock().upTo());
		}
		this.jdbc.sql("insert into restock_runs (period, instance_id, started_at, refilled) values (?, ?, ?, ?)")
			.params(period, this.properties.instanceId(), Timestamp.from(now), refilled)
			.update();
		if (refilled > 0) {
			logger.info("Restock of period " + period + ": " + refilled + " items refilled");
		}
	}

	/**
	 * Return the runs of the job, newest first.
	 * @param limit how many at most
	 * @return the runs
	 */
	public List<Run> runs(int limit) {
		return this.jdbc
			.sql("select period, instance_id, started_at, refilled from restock_runs order by period desc, id desc "
					+ "limit ?")
			.param(limit)
			.query((rs, row) -> new Run(rs.getLong(1), rs.getString(2), rs.getTimestamp(3).toInstant(), rs.getInt(4)))
			.list();
	}

	private boolean ranIn(long period) {
		return this.jdbc.sql("select count(*) from restock_runs where period = ?")
			.param(period)
			.query(Integer.class)
			.single() > 0;
	}

	/**
	 * One run of the job.
	 *
	 * @param period the period, {@code epochMillis / shop.restock.period}
	 * @param instanceId the instance that ran it
	 * @param startedAt when it started
	 * @param refilled how many items it added
	 */
	public record Run(long period, String instanceId, Instant startedAt, int refilled) {
	}

}
