package io.github.distlock.sample;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;

import io.github.distlock.annotation.Semaphore;
import io.github.distlock.core.LockTimeoutException;

/**
 * An expensive sales report: at most {@code shop.reports.parallelism} of them run at once
 * across all instances, so that a burst of report requests cannot starve the database.
 */
@Service
public class ReportService {

	private final JdbcClient jdbc;

	private final ShopProperties properties;

	private final ConcurrencyProbe probe;

	public ReportService(JdbcClient jdbc, ShopProperties properties, ConcurrencyProbe probe) {
		this.jdbc = jdbc;
		this.properties = properties;
		this.probe = probe;
	}

	/**
	 * Build the sales report, holding one of the cluster's report permits; when none
	 * frees up within two seconds, answer with the fallback instead.
	 * @return the report
	 */
	@Semaphore(value = "reports", permitsString = "${shop.reports.parallelism:2}", waitTime = "2s", fallback = "busy")
	public SalesReport sales() {
		return this.probe.writing("reports", this::build);
	}

	private SalesReport build() {
		Duration cost = this.properties.reportTime();
		if (!cost.isZero()) {
			LockSupport.parkNanos(cost.toNanos());
		}
		List<SalesReport.Line> lines = this.jdbc
			.sql("select s.sku, coalesce(sum(l.quantity), 0), s.available from stock s "
					+ "left join order_lines l on l.sku = s.sku group by s.sku, s.available order by s.sku")
			.query((rs, row) -> new SalesReport.Line(rs.getString(1), rs.getInt(2), rs.getInt(3)))
			.list();
		return new SalesReport(true, lines);
	}

	SalesReport busy(LockTimeoutException ex) {
		return new SalesReport(false, List.of());
	}

	/**
	 * The sales report.
	 *
	 * @param complete {@code false} when all report permits were taken and no report was
	 * built
	 * @param lines one line per SKU, sorted by SKU
	 */
	public record SalesReport(boolean complete, List<Line> lines) {

		/**
		 * Sales of one SKU.
		 *
		 * @param sku the stock keeping unit
		 * @param sold items sold
		 * @param available items left
		 */
		public record Line(String sku, int sold, int available) {
		}

	}

}
