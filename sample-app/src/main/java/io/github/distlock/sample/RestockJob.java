package io.github.distlock.sample;

import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

import io.github.distlock.annotation.ScheduledOnce;
import io.github.distlock.core.JobRun;

/**
 * Refills SKUs that run low, once per slot of its schedule across all instances of the
 * shop, as docs/scheduled-jobs.md describes.
 * <p>
 * Every instance fires at the same moment (cron). {@code @ScheduledOnce} claims the slot
 * in ZooKeeper under the job's lock: the instance whose firing claims it runs, the others
 * skip, also an instance whose clock is off or whose scheduler fires late (a long GC
 * pause, a clock that jumped). Each run is logged in {@code restock_runs} for
 * {@code GET /api/restock/runs}; that log decides nothing.
 */
@Component
public class RestockJob {

	private static final Log logger = LogFactory.getLog(RestockJob.class);

	private final InventoryService inventory;

	private final StockStore stock;

	private final JdbcClient jdbc;

	private final ShopProperties properties;

	public RestockJob(InventoryService inventory, StockStore stock, JdbcClient jdbc, ShopProperties properties) {
		this.inventory = inventory;
		this.stock = stock;
		this.jdbc = jdbc;
		this.properties = properties;
	}

	/**
	 * Run the job for the current slot, on one instance.
	 */
	@Scheduled(cron = "${shop.restock.cron:0 * * * * *}", zone = "UTC")
	@ScheduledOnce("restock")
	public void restock() {
		JobRun run = JobRun.current().orElseThrow();
		long period = run.slot().toEpochMilli() / this.properties.restock().period().toMillis();
		Duration workTime = this.properties.restock().workTime();
		if (!workTime.isZero()) {
			LockSupport.parkNanos(workTime.toNanos());
		}
		int refilled = 0;
		for (String sku : this.stock.skusBelow(this.properties.restock().below())) {
			refilled += this.inventory.refill(sku, this.properties.restock().upTo());
		}
		this.jdbc.sql("insert into restock_runs (period, instance_id, started_at, refilled) values (?, ?, ?, ?)")
			.params(period, this.properties.instanceId(), Timestamp.from(run.startedAt()), refilled)
			.update();
		if (refilled > 0) {
			logger.info("Restock of slot " + run.slot() + ": " + refilled + " items refilled");
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

	/**
	 * One run of the job.
	 *
	 * @param period the period, {@code slotEpochMillis / shop.restock.period}
	 * @param instanceId the instance that ran it
	 * @param startedAt when it started
	 * @param refilled how many items it added
	 */
	public record Run(long period, String instanceId, Instant startedAt, int refilled) {
	}

}
