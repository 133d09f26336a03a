package io.github.distlock.transaction

import io.github.distlock.annotation.DistributedLock
import io.github.distlock.core.CoroutineLockContext
import io.github.distlock.core.LockPath
import io.github.distlock.core.StaleFencingTokenException
import io.github.distlock.testsupport.LockTestContexts
import io.r2dbc.h2.H2ConnectionFactory
import io.r2dbc.spi.ConnectionFactory
import kotlinx.coroutines.currentCoroutineContext
import kotlinx.coroutines.runBlocking
import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.api.Assertions.assertThatExceptionOfType
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.extension.RegisterExtension
import org.springframework.context.annotation.Bean
import org.springframework.context.annotation.Configuration
import org.springframework.core.io.ClassPathResource
import org.springframework.r2dbc.connection.R2dbcTransactionManager
import org.springframework.r2dbc.connection.init.ResourceDatabasePopulator
import org.springframework.r2dbc.core.DatabaseClient
import org.springframework.r2dbc.core.await
import org.springframework.r2dbc.core.awaitOne
import org.springframework.r2dbc.core.awaitRowsUpdated
import org.springframework.transaction.ReactiveTransactionManager
import org.springframework.transaction.annotation.EnableTransactionManagement
import org.springframework.transaction.annotation.Transactional
import java.time.Duration
import java.util.UUID
import java.util.function.Supplier

/**
 * A fenced Kotlin `suspend` function (R2DBC on H2): its transaction advances the lock's
 * fence row when it commits, and is rolled back with a [StaleFencingTokenException] when
 * a newer holder's token committed first.
 */
class SuspendFencedTransactionTests {

    companion object {

        @JvmField
        @RegisterExtension
        val contexts = LockTestContexts()

    }

    private val connectionFactory: ConnectionFactory = H2ConnectionFactory.inMemory("fenced-suspend-" + UUID.randomUUID())

    private val database = DatabaseClient.create(connectionFactory)

    @Test
    fun suspendFunctionCommitsWithItsTokenAndIsRefusedWhenStale() {
        runBlocking {
            ResourceDatabasePopulator(ClassPathResource("io/github/distlock/transaction/schema-h2.sql"))
                .populate(connectionFactory).block(Duration.ofSeconds(30))
            database.sql("create table stock (sku varchar(64) primary key, quantity int not null)").await()
            database.sql("insert into stock values ('plums', 0)").await()
        }
        val factory = connectionFactory
        val stock = contexts.start({ context ->
            context.registerBean(ConnectionFactory::class.java, Supplier { factory })
        }, SuspendFencedConfiguration::class.java).getBean(SuspendStock::class.java)

        val token = runBlocking { stock.set("plums", 3) }
        assertThat(fence()).isEqualTo(token)

        runBlocking {
            database.sql("update distlock_fence set token = :token where lock_path = 'mutex/stock/plums'")
                .bind("token", Long.MAX_VALUE - 1).await()
        }
        assertThatExceptionOfType(StaleFencingTokenException::class.java)
            .isThrownBy { runBlocking { stock.set("plums", 7) } }
            .satisfies({ stale -> assertThat(stale.path).isEqualTo(LockPath.of("stock/plums")) })
        assertThat(quantity()).isEqualTo(3)
    }

    private fun fence(): Long = runBlocking {
        database.sql("select token from distlock_fence where lock_path = 'mutex/stock/plums'")
            .map { row -> row.get(0, java.lang.Long::class.java)!!.toLong() }.awaitOne()
    }

    private fun quantity(): Int = runBlocking {
        database.sql("select quantity from stock where sku = 'plums'")
            .map { row -> row.get(0, java.lang.Integer::class.java)!!.toInt() }.awaitOne()
    }

    open class SuspendStock(private val database: DatabaseClient) {

        @DistributedLock(value = "stock/#{#sku}", fenced = true)
        @Transactional
        open suspend fun set(sku: String, quantity: Int): Long {
            database.sql("update stock set quantity = :quantity where sku = :sku")
                .bind("quantity", quantity).bind("sku", sku).fetch().awaitRowsUpdated()
            return CoroutineLockContext.of(currentCoroutineContext()).fencingToken()
        }

    }

    @Configuration(proxyBeanMethods = false)
    @EnableTransactionManagement
    open class SuspendFencedConfiguration {

        @Bean
        open fun transactionManager(connectionFactory: ConnectionFactory): ReactiveTransactionManager =
            R2dbcTransactionManager(connectionFactory)

        @Bean
        open fun suspendStock(connectionFactory: ConnectionFactory): SuspendStock =
            SuspendStock(DatabaseClient.create(connectionFactory))

    }

}
