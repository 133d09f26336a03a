package io.github.distlock.autoconfigure;

import java.util.List;
import java.util.Locale;

import javax.sql.DataSource;

import io.r2dbc.spi.ConnectionFactory;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.jdbc.init.DataSourceScriptDatabaseInitializer;
import org.springframework.boot.jdbc.init.PlatformPlaceholderDatabaseDriverResolver;
import org.springframework.boot.r2dbc.init.R2dbcScriptDatabaseInitializer;
import org.springframework.boot.sql.init.DatabaseInitializationMode;
import org.springframework.boot.sql.init.DatabaseInitializationSettings;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.github.distlock.core.LockConfigurationException;
import io.github.distlock.transaction.FenceTable;

/**
 * Creates the fence table of fenced transactions by Spring Boot's convention for a
 * library's schema (as Spring Session JDBC and Spring Batch do):
 * {@code distlock.fencing.initialize-schema} is {@code embedded} (the default: only in an
 * embedded database), {@code always} or {@code never}, and the script is the one distlock
 * ships for the database's platform,
 * {@code io/github/distlock/transaction/schema-<platform>.sql}. Boot's
 * {@link DataSourceScriptDatabaseInitializer} (or {@link R2dbcScriptDatabaseInitializer})
 * runs it, so beans that depend on database initialization wait for it. The scripts
 * create {@code distlock_fence}: a table named otherwise by
 * {@code distlock.fencing.table} is the application's to create ({@code always} is then
 * refused at startup).
 */
@AutoConfiguration(afterName = { "org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration",
		"org.springframework.boot.r2dbc.autoconfigure.R2dbcAutoConfiguration" })
@ConditionalOnClass(name = "io.github.distlock.transaction.FenceTable")
@ConditionalOnBooleanProperty(name = "distlock.enabled", matchIfMissing = true)
@EnableConfigurationProperties(DistlockProperties.class)
public class DistlockFenceSchemaAutoConfiguration {

	private static final String SCHEMA = "classpath:io/github/distlock/transaction/schema-@@platform@@.sql";

	static DatabaseInitializationSettings settings(DistlockProperties.Fencing fencing, List<String> locations) {
		DatabaseInitializationMode mode = fencing.getInitializeSchema();
		if (!FenceTable.DEFAULT_NAME.equals(fencing.getTable())) {
			if (mode == DatabaseInitializationMode.ALWAYS) {
				throw new LockConfigurationException("distlock.fencing.initialize-schema=always creates the table "
						+ FenceTable.DEFAULT_NAME + " from the schema distlock ships, but distlock.fencing.table "
						+ "names '" + fencing.getTable() + "'; create that table yourself (docs/failure-model.md"
						+ "#the-fence-table gives the DDL) and set distlock.fencing.initialize-schema=never");
			}
			mode = DatabaseInitializationMode.NEVER;
		}
		DatabaseInitializationSettings settings = new DatabaseInitializationSettings();
		settings.setSchemaLocations(locations);
		settings.setMode(mode);
		return settings;
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass({ DataSourceScriptDatabaseInitializer.class, DataSource.class })
	@ConditionalOnSingleCandidate(DataSource.class)
	static class JdbcFenceSchemaConfiguration {

		@Bean
		@ConditionalOnMissingBean(name = "distlockFenceSchemaInitializer")
		DataSourceScriptDatabaseInitializer distlockFenceSchemaInitializer(DataSource dataSource,
				DistlockProperties properties) {
			List<String> locations = new PlatformPlaceholderDatabaseDriverResolver().resolveAll(dataSource, SCHEMA);
			return new DataSourceScriptDatabaseInitializer(dataSource, settings(properties.getFencing(), locations));
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass({ R2dbcScriptDatabaseInitializer.class, ConnectionFactory.class })
	@ConditionalOnSingleCandidate(ConnectionFactory.class)
	static class R2dbcFenceSchemaConfiguration {

		@Bean
		@ConditionalOnMissingBean(name = "distlockReactiveFenceSchemaInitializer")
		R2dbcScriptDatabaseInitializer distlockReactiveFenceSchemaInitializer(ConnectionFactory connectionFactory,
				DistlockProperties properties) {
			// The R2DBC driver's name, such as "H2" or "PostgreSQL", is the platform.
			String platform = connectionFactory.getMetadata().getName().toLowerCase(Locale.ROOT);
			List<String> locations = List.of(SCHEMA.replace("@@platform@@", platform));
			return new R2dbcScriptDatabaseInitializer(connectionFactory, settings(properties.getFencing(), locations));
		}

	}

}
