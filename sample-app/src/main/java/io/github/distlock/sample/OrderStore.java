package io.github.distlock.sample;

import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.support.GeneratedKeyHolder;
import org.springframework.jdbc.support.KeyHolder;
import org.springframework.stereotype.Repository;

/**
 * The {@code orders} and {@code order_lines} tables.
 */
@Repository
public class OrderStore {

	private final JdbcClient jdbc;

	public OrderStore(JdbcClient jdbc) {
		this.jdbc = jdbc;
	}

	/**
	 * Record an order.
	 * @param instanceId the instance that took it
	 * @param lines its lines
	 * @return the order's id
	 */
	public long insert(String instanceId, List<OrderLine> lines) {
		KeyHolder key = new GeneratedKeyHolder();
		this.jdbc.sql("insert into orders (instance_id, created_at) values (?, ?)")
			.params(instanceId, Timestamp.from(Instant.now()))
			.update(key, "id");
		long id = key.getKeyAs(Long.class);
		for (OrderLine line : lines) {
			this.jdbc.sql("insert into order_lines (order_id, sku, quantity) values (?, ?, ?)")
				.params(id, line.sku(), line.quantity())
				.update();
		}
		return id;
	}

	/**
	 * Return how many items of a SKU all orders together bought.
	 * @param sku the stock keeping unit
	 * @return the number sold
	 */
	public int sold(String sku) {
		return this.jdbc.sql("select coalesce(sum(quantity), 0) from order_lines where sku = ?")
			.param(sku)
			.query(Integer.class)
			.single();
	}

}
