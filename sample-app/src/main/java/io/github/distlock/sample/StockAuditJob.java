package io.github.distlock.sample;

import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

import io.github.distlock.annotation.LeaderOnly;
import io.github.distlock.core.LockContext;

/**
 * Counts the units in stock and records the count, on the leader of the group
 * {@code shop/audit} only, as docs/leadership.md describes: every instance schedules the
 * job, the one that leads runs it, the others skip at once. When the leader stops,
 * another instance leads at once and goes on; each run records the epoch of the tenure it
 * ran under, which grows from one leader to the next.
 */
@Component
public class StockAuditJob {

	private static final Log logger = LogFactory.getLog(StockAuditJob.class);

	private final JdbcClient jdbc;

	private final ShopProperties properties;

	public StockAuditJob(JdbcClient jdbc, ShopProperties properties) {
		this.jdbc = jdbc;
		this.properties = properties;
	}

	/** Count the stock and record the count, if this instance leads. */
	@Scheduled(fixedDelayString = "${shop.audit.interval:1m}", initialDelayString = "${shop.audit.interval:1m}")
	@LeaderOnly("shop/audit")
	public void audit() {
		long epoch = LockContext.current().fencingToken();
		long units = this.jdbc.sql("select coalesce(sum(available), 0) from stock").query(Long.class).single();
		this.jdbc.sql("insert into audit_runs (epoch, instance_id, started_at, units) values (?, ?, ?, ?)")
			.params(epoch, this.properties.instanceId(), Timestamp.from(Instant.now()), units)
			.update();
		logger.debug("Stock audit (epoch " + epoch + "): " + units + " units");
	}

	/**
	 * Return the runs of the audit, oldest first.
	 * @return the runs
	 */
	public List<Run> runs() {
		return this.jdbc.sql("select epoch, instance_id from audit_runs order by id")
			.query((rs, row) -> new Run(rs.getLong(1), rs.getString(2)))
			.list();
	}

	/**
	 * One run of the audit.
	 *
	 * @param epoch the epoch of the tenure it ran under
	 * @param instanceId the instance that ran it
	 */
	public record Run(long epoch, String instanceId) {
	}

}
