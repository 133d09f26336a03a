package io.github.distlock.transaction;

import java.util.UUID;

import javax.sql.DataSource;

import org.jspecify.annotations.Nullable;

import org.springframework.core.io.ClassPathResource;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DriverManagerDataSource;
import org.springframework.jdbc.datasource.init.ResourceDatabasePopulator;

import io.github.distlock.testsupport.EmbeddedPostgresExtension;

/**
 * A database shared by the nodes of a test (each opens its own connections to it by URL):
 * the fence table from the schema distlock ships, and a {@code stock} table the fenced
 * methods write. An in-memory H2 database of its own, or the test class's database on the
 * embedded PostgreSQL, whose tables are created anew for each test.
 */
final class FencedDatabase {

	private final String url;

	private final boolean inMemory;

	private final JdbcTemplate jdbc;

	private FencedDatabase(String url, String schema, boolean inMemory) {
		this.url = url;
		this.inMemory = inMemory;
		this.jdbc = new JdbcTemplate(dataSource());
		this.jdbc.execute("drop table if exists distlock_fence");
		this.jdbc.execute("drop table if exists stock");
		new ResourceDatabasePopulator(new ClassPathResource("io/github/distlock/transaction/schema-" + schema + ".sql"))
			.execute(this.jdbc.getDataSource());
		this.jdbc
			.execute("create table stock (sku varchar(64) primary key, quantity int not null, writer varchar(64))");
	}

	/** A new in-memory H2 database. */
	static FencedDatabase h2() {
		return new FencedDatabase("jdbc:h2:mem:fenced-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1", "h2", true);
	}

	/** The class's database on the embedded PostgreSQL, with its tables created anew. */
	static FencedDatabase postgres(EmbeddedPostgresExtension postgres) {
		return new FencedDatabase(postgres.jdbcUrl(), "postgresql", false);
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

	/**
	 * Set a row's quantity, inserting the row if there is none (SQL both databases run).
	 */
	static void write(JdbcTemplate jdbc, String sku, int quantity) {
		if (jdbc.update("update stock set quantity = ? where sku = ?", quantity, sku) == 0) {
			jdbc.update("insert into stock (sku, quantity) values (?, ?)", sku, quantity);
		}
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
		if (this.inMemory) {
			this.jdbc.execute("shutdown");
		}
	}

}
