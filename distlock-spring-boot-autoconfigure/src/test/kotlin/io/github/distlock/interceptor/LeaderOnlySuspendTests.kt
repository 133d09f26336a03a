package io.github.distlock.interceptor

import io.github.distlock.annotation.LeaderOnly
import io.github.distlock.annotation.OnNotLeader
import io.github.distlock.core.Leadership
import io.github.distlock.core.NotLeaderException
import io.github.distlock.testsupport.ZooKeeperExtension
import kotlinx.coroutines.delay
import kotlinx.coroutines.runBlocking
import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.api.Assertions.assertThatExceptionOfType
import org.awaitility.Awaitility.await
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.extension.RegisterExtension
import org.springframework.boot.SpringApplication
import org.springframework.boot.WebApplicationType
import org.springframework.context.ConfigurableApplicationContext
import java.time.Duration
import java.util.concurrent.TimeUnit

/**
 * `@LeaderOnly` on Kotlin `suspend` functions, on two instances: the leader runs the
 * body across its suspensions, the other skips it (or fails with `NotLeaderException`).
 */
class LeaderOnlySuspendTests {

    companion object {

        @JvmField
        @RegisterExtension
        val zookeeper = ZooKeeperExtension()

    }

    private fun start(): ConfigurableApplicationContext {
        val application = SpringApplication(LeaderOnlyAnnotationTests.Infrastructure::class.java,
                SuspendJob::class.java)
        application.setWebApplicationType(WebApplicationType.NONE)
        return application.run("--distlock.zookeeper.connect-string=" + zookeeper.connectString(),
                "--distlock.zookeeper.namespace=suspend")
    }

    @Test
    fun suspendFunctionRunsOnTheLeaderOnly() {
        start().use { first ->
            first.getBean(Leadership::class.java).awaitLeadership("suspending").get(30, TimeUnit.SECONDS)
            start().use { second ->
                await().atMost(Duration.ofSeconds(30)).ignoreExceptions().until {
                    second.getBean(Leadership::class.java).inspect("suspending").participants().size == 2
                }
                runBlocking {
                    assertThat(first.getBean(SuspendJob::class.java).work()).isEqualTo("ran")
                    assertThat(second.getBean(SuspendJob::class.java).work()).isNull()
                }
                assertThatExceptionOfType(NotLeaderException::class.java).isThrownBy {
                    runBlocking { second.getBean(SuspendJob::class.java).strict() }
                }
                assertThat(second.getBean(SuspendJob::class.java).bodies()).isZero()
            }
        }
    }

    open class SuspendJob {

        private val bodies = java.util.concurrent.atomic.AtomicInteger()

        open fun bodies() = bodies.get()

        @LeaderOnly("suspending")
        open suspend fun work(): String? {
            bodies.incrementAndGet()
            delay(20)
            return "ran"
        }

        @LeaderOnly(group = "suspending", onNotLeader = OnNotLeader.THROW)
        open suspend fun strict(): String {
            bodies.incrementAndGet()
            delay(20)
            return "ran"
        }

    }

}
