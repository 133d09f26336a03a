package io.github.distlock.autoconfigure;

import java.time.Duration;
import java.util.UUID;

import javax.sql.DataSource;

import io.r2dbc.spi.ConnectionFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DriverManagerDataSource;
import org.springframework.r2dbc.core.DatabaseClient;

import io.github.distlock.core.LockConfigurationException;
import io.github.distlock.testsupport.EmbeddedPostgresExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The fence table is created by Spring Boot's convention
 * ({@code distlock.fencing.initialize-schema}): by default in an embedded database only,
 * on a real PostgreSQL with {@code always}, never with {@code never}; through JDBC and
 * through R2DBC.
 */
class DistlockFenceSchemaAutoConfigurationTests {

	@RegisterExtension
	static final EmbeddedPostgresExtension postgres = new EmbeddedPostgresExtension();

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DistlockFenceSchemaAutoConfiguration.class));

	@Test
	void embeddedDatabaseGetsTheTableByDefault() {
		DataSource h2 = new DriverManagerDataSource("jdbc:h2:mem:schema-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
		this.runner.withBean(DataSource.class, () -> h2).run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(tableExists(h2)).isTrue();
		});
	}

	@Test
	void realDatabaseIsLeftAloneByDefaultAndGetsTheTableWithAlways() {
		DataSource dataSource = postgres.dataSource();
		dropTable(dataSource);
		this.runner.withBean(DataSource.class, () -> dataSource).run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(tableExists(dataSource)).isFalse();
		});
		this.runner.withBean(DataSource.class, () -> dataSource)
			.withPropertyValues("distlock.fencing.initialize-schema=never")
			.run((context) -> assertThat(tableExists(dataSource)).isFalse());
		this.runner.withBean(DataSource.class, () -> dataSource)
			.withPropertyValues("distlock.fencing.initialize-schema=always")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(tableExists(dataSource)).isTrue();
			});
		// The schema is idempotent: a second start finds the table and leaves it.
		this.runner.withBean(DataSource.class, () -> dataSource)
			.withPropertyValues("distlock.fencing.initialize-schema=always")
			.run((context) -> assertThat(context).hasNotFailed());
		dropTable(dataSource);
	}

	@Test
	void reactiveDatabaseGetsTheTableWithAlways() {
		DataSource dataSource = postgres.dataSource();
		dropTable(dataSource);
		ConnectionFactory connectionFactory = postgres.connectionFactory();
		this.runner.withBean(ConnectionFactory.class, () -> connectionFactory)
			.withPropertyValues("distlock.fencing.initialize-schema=always")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				Long rows = DatabaseClient.create(connectionFactory)
					.sql("select count(*) from distlock_fence")
					.map((row) -> row.get(0, Long.class))
					.one()
					.block(Duration.ofSeconds(30));
				assertThat(rows).isZero();
			});
		dropTable(dataSource);
	}

	@Test
	void alwaysWithATableOfAnotherNameIsRefusedAtStartup() {
		DataSource dataSource = postgres.dataSource();
		this.runner.withBean(DataSource.class, () -> dataSource)
			.withPropertyValues("distlock.fencing.initialize-schema=always", "distlock.fencing.table=my_fence")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.isInstanceOf(LockConfigurationException.class)
				.hasMessageContaining("distlock.fencing.initialize-schema=always")
				.hasMessageContaining("'my_fence'"));
	}

	private static boolean tableExists(DataSource dataSource) {
		return new JdbcTemplate(dataSource).queryForObject(
				"select count(*) from information_schema.tables where lower(table_name) = 'distlock_fence'",
				Integer.class) > 0;
	}

	private static void dropTable(DataSource dataSource) {
		new JdbcTemplate(dataSource).execute("drop table if exists distlock_fence");
	}

}
