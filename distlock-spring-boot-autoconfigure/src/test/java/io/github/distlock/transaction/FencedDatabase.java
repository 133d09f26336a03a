package io.github.distlock.transaction;

import java.util.UUID;

import javax.sql.DataSource;

import org.jspecify.annotations.Nullable;

import org.springframework.core.io.ClassPathResource;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DriverManagerDataSource;
import org.springframework.jdbc.datasource.init.ResourceDatabasePopulator;

/**
 * An in-memory H2 database shared by the nodes of a test (each opens its own connections
 * to it by URL): the fence table from the schema distlock ships, and a {@code stock}
 * table the fenced methods write.
 */
final class FencedDatabase {

	private final String url = "jdbc:h2:mem:fenced-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1";

	private final JdbcTemplate jdbc = new JdbcTemplate(dataSource());

	FencedDatabase() {
		new ResourceDatabasePopulator(new ClassPathResource("io/github/distlock/transaction/schema-h2.sql"))
			.execute(this.jdbc.getDataSource());
		this.jdbc
			.execute("create table stock (sku varchar(64) primary key, quantity int not null, writer varchar(64))");
	}

	/** A new data source on the database, as one node has. */
	DataSource dataSource() {
		return new DriverManagerDataSource(this.url);
	}

	String url() {
		return this.url;
	}

	JdbcTemplate jdbc() {
		return this.jdbc;
	}

	@Nullable Integer quantity(String sku) {
		return this.jdbc.query("select quantity from stock where sku = ?", (rs) -> rs.next() ? rs.getInt(1) : null,
				sku);
	}

	@Nullable Long fence(String key) {
		return this.jdbc.query("select token from distlock_fence where lock_path = ?",
				(rs) -> rs.next() ? rs.getLong(1) : null, key);
	}

	void shutdown() {
		this.jdbc.execute("shutdown");
	}

}
