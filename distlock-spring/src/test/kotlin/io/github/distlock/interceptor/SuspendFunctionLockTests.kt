package io.github.distlock.interceptor

import io.github.distlock.annotation.DistributedLock
import io.github.distlock.annotation.OnTimeout
import io.github.distlock.core.CoroutineLockContext
import io.github.distlock.core.LockContext
import io.github.distlock.core.LockHandle
import io.github.distlock.core.LockKind
import io.github.distlock.core.LockPath
import io.github.distlock.core.LockReentryException
import io.github.distlock.core.LockTimeoutException
import io.github.distlock.curator.CuratorLocks
import io.github.distlock.testsupport.LockTestContexts
import io.github.distlock.testsupport.PathCounters
import io.github.distlock.testsupport.ThreadPeak
import kotlinx.coroutines.CoroutineStart
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.async
import kotlinx.coroutines.awaitAll
import kotlinx.coroutines.awaitCancellation
import kotlinx.coroutines.currentCoroutineContext
import kotlinx.coroutines.delay
import kotlinx.coroutines.flow.Flow
import kotlinx.coroutines.flow.flow
import kotlinx.coroutines.flow.toList
import kotlinx.coroutines.launch
import kotlinx.coroutines.runBlocking
import kotlinx.coroutines.withTimeout
import org.apache.curator.framework.CuratorFramework
import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.api.Assertions.assertThatExceptionOfType
import org.awaitility.Awaitility.await
import org.junit.jupiter.api.BeforeAll
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.extension.RegisterExtension
import org.springframework.beans.factory.ObjectProvider
import org.springframework.context.annotation.Bean
import org.springframework.context.annotation.Configuration
import org.springframework.scheduling.concurrent.ThreadPoolTaskExecutor
import java.time.Duration
import java.util.concurrent.atomic.AtomicInteger

/**
 * A locked Kotlin `suspend` function holds its lock across its suspensions until it
 * returns or is cancelled, on two nodes (two application contexts, two ZooKeeper
 * sessions). Before, such a function was neither rejected nor locked: the lock was
 * released as soon as the function was called, before its body ran.
 */
class SuspendFunctionLockTests {

    companion object {

        @JvmField
        @RegisterExtension
        val contexts = LockTestContexts()

        val counters = PathCounters()

        lateinit var node1: CoroutineService
        lateinit var node2: CoroutineService
        lateinit var locks1: CuratorLocks
        lateinit var locks2: CuratorLocks
        lateinit var observer: CuratorFramework

        @BeforeAll
        @JvmStatic
        fun startNodes() {
            val first = contexts.start(CoroutineConfiguration::class.java)
            val second = contexts.start(CoroutineConfiguration::class.java)
            node1 = first.getBean(CoroutineService::class.java)
            node2 = second.getBean(CoroutineService::class.java)
            locks1 = first.getBean(CuratorLocks::class.java)
            locks2 = second.getBean(CuratorLocks::class.java)
            observer = contexts.zookeeper().newClient()
        }

        fun tryOnce(locks: CuratorLocks, path: String): Boolean {
            val handle = locks.mutex(path).tryAcquire(Duration.ZERO)
            handle.ifPresent(LockHandle::close)
            return handle.isPresent
        }

        fun lockNodes(path: String): List<String> {
            val node = "/" + LockKind.MUTEX.subtree() + "/" + LockPath.parse(path).value()
            return if (observer.checkExists().forPath(node) != null) observer.children.forPath(node) else listOf()
        }
    }

    @Test
    fun twoNodesTimesOneHundredCoroutinesOverFivePathsNeverOverlapAndCountExactly() {
        exclusion("few", callsPerNode = 100, paths = 5)
    }

    @Test
    fun twoNodesTimesTwoHundredCoroutinesOverTenPathsNeverOverlapAndWaitingCostsNoThread() {
        ThreadPeak { locks1.waitingCount() + locks2.waitingCount() }.use { peak ->
            exclusion("many", callsPerNode = 200, paths = 10)
            // Hundreds of coroutines waited at once, on a handful of threads.
            assertThat(peak.mostSampled()).`as`(peak.toString()).isGreaterThanOrEqualTo(100)
            assertThat(peak.growth()).`as`(peak.toString()).isLessThan(40)
        }
        // The bodies ran on the coroutines' dispatcher, never on a ZooKeeper thread.
        assertThat(counters.threads()).isNotEmpty.allMatch({ it.startsWith("DefaultDispatcher-worker") }, "a worker")
    }

    private fun exclusion(prefix: String, callsPerNode: Int, paths: Int) {
        val entriesBefore = counters.entries()
        runBlocking(Dispatchers.Default) {
            (0 until callsPerNode).flatMap { i ->
                listOf(node1, node2).map { node -> async { node.increment("$prefix-${i % paths}") } }
            }.awaitAll()
        }
        for (path in 0 until paths) {
            assertThat(counters.value("$prefix-$path")).`as`("counter of path %d", path)
                .isEqualTo(2 * callsPerNode / paths)
        }
        assertThat(counters.entries() - entriesBefore).isEqualTo(2 * callsPerNode)
        assertThat(counters.mostInsideOnePath()).isEqualTo(1)
    }

    @Test
    fun cancelledWaitingCoroutineEndsAtOnceAndLeavesNoLockNode() {
        val path = "coroutine-waiting"
        val bodies = node1.bodies()
        locks2.mutex(path).acquire(Duration.ofSeconds(5)).use {
            runBlocking(Dispatchers.Default) {
                val waiting = launch { node1.hold(path) }
                await().atMost(Duration.ofSeconds(10)).until { locks1.waitingCount() == 1 }
                assertThat(lockNodes(path)).hasSize(2)
                withTimeout(1000) {
                    waiting.cancel()
                    waiting.join()
                }
            }
            await().atMost(Duration.ofSeconds(2)).until { locks1.waitingCount() == 0 && lockNodes(path).size == 1 }
        }
        assertThat(node1.bodies()).isEqualTo(bodies)
        assertThat(locks1.heldCount()).isZero()
    }

    @Test
    fun cancelledHoldingCoroutineReleasesTheLockAtOnce() {
        val path = "coroutine-holding"
        val cancelled = node1.cancelled()
        runBlocking(Dispatchers.Default) {
            val holding = launch { node1.hold(path) }
            await().atMost(Duration.ofSeconds(10)).until { locks1.heldCount() == 1 }
            assertThat(tryOnce(locks2, path)).isFalse()
            holding.cancel()
            holding.join()
        }
        await().atMost(Duration.ofSeconds(2)).until { tryOnce(locks2, path) }
        assertThat(node1.cancelled()).isEqualTo(cancelled + 1)
        assertThat(locks1.heldCount()).isZero()
    }

    @Test
    fun timedOutCallsNeverRunTheFunction() {
        val path = "coroutine-busy"
        val bodies = node1.bodies()
        locks2.mutex(path).acquire(Duration.ofSeconds(5)).use {
            runBlocking {
                assertThatExceptionOfType(LockTimeoutException::class.java)
                    .isThrownBy { runBlocking { node1.failOnTimeout(path) } }
                    .withMessageContaining("CoroutineService.failOnTimeout(String, Continuation)")
                assertThat(node1.skipOnTimeout(path)).isNull()
                assertThat(node1.fallbackOnTimeout(path)).isEqualTo("fallback for $path after LockTimeoutException")
            }
        }
        assertThat(node1.bodies()).isEqualTo(bodies)
    }

    @Test
    fun nestedCallOnTheSamePathReentersInOneCoroutineAndSeesTheLocks() {
        val (outer, inner) = runBlocking(Dispatchers.Default) { node1.outer() }
        assertThat(outer.locks()).hasSize(1)
        assertThat(inner.locks()).hasSize(2)
        assertThat(inner.fencingToken()).isEqualTo(outer.fencingToken()).isPositive()
        assertThat(locks1.heldCount()).isZero()
    }

    @Test
    fun nonReentrantLockTakenAgainInOneCoroutineFailsFast() {
        val started = System.nanoTime()
        assertThatExceptionOfType(LockReentryException::class.java)
            .isThrownBy { runBlocking { node1.outerNonReentrant() } }
            .withMessageContaining("CoroutineService.innerNonReentrant(Continuation)")
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(10))
        await().atMost(Duration.ofSeconds(2)).until { tryOnce(locks2, "coroutine-single") }
    }

    @Test
    fun flowIsLockedWhileItIsCollected() {
        val entriesBefore = counters.entries()
        val collected = runBlocking(Dispatchers.Default) {
            (0 until 20).flatMap { i ->
                listOf(node1, node2).map { node -> async(start = CoroutineStart.DEFAULT) { node.steps("flow-${i % 2}").toList() } }
            }.awaitAll()
        }
        assertThat(collected).allMatch { it.size == 4 }
        assertThat(counters.value("flow-0") + counters.value("flow-1")).isEqualTo(40)
        assertThat(counters.entries() - entriesBefore).isEqualTo(40)
        assertThat(counters.mostInsideOnePath()).isEqualTo(1)
    }

    open class CoroutineService(private val self: ObjectProvider<CoroutineService>) {

        private val bodies = AtomicInteger()

        private val cancelled = AtomicInteger()

        open fun bodies() = bodies.get()

        open fun cancelled() = cancelled.get()

        @DistributedLock(value = "coroutines/#{#path}", waitTime = "2m")
        open suspend fun increment(path: String): Int {
            // Read before the first suspension: the body must not start before the lock is held.
            val read = counters.enter(path)
            delay(3)
            return counters.leave(path, read)
        }

        @DistributedLock(value = "#{#path}", waitTime = "30s")
        open suspend fun hold(path: String) {
            bodies.incrementAndGet()
            try {
                awaitCancellation()
            } finally {
                cancelled.incrementAndGet()
            }
        }

        @DistributedLock(value = "#{#path}", waitTime = "100ms")
        open suspend fun failOnTimeout(path: String): String = body()

        @DistributedLock(value = "#{#path}", waitTime = "100ms", onTimeout = OnTimeout.SKIP)
        open suspend fun skipOnTimeout(path: String): String? = body()

        @DistributedLock(value = "#{#path}", waitTime = "100ms", fallback = "fallback")
        open suspend fun fallbackOnTimeout(path: String): String = body()

        open suspend fun fallback(path: String, ex: LockTimeoutException): String {
            delay(1)
            return "fallback for $path after ${ex.javaClass.simpleName}"
        }

        private suspend fun body(): String {
            bodies.incrementAndGet()
            delay(1)
            return "body"
        }

        @DistributedLock(value = "coroutine-nest", waitTime = "5s")
        open suspend fun outer(): Pair<LockContext, LockContext> {
            val outer = CoroutineLockContext.of(currentCoroutineContext())
            delay(1)
            return outer to self.getObject().inner()
        }

        @DistributedLock(value = "coroutine-nest", waitTime = "0")
        open suspend fun inner(): LockContext {
            delay(1)
            return CoroutineLockContext.of(currentCoroutineContext())
        }

        @DistributedLock(value = "coroutine-single", reentrant = false)
        open suspend fun outerNonReentrant() {
            delay(1)
            self.getObject().innerNonReentrant()
        }

        @DistributedLock(value = "coroutine-single", reentrant = false, waitTime = "30s")
        open suspend fun innerNonReentrant() {
            bodies.incrementAndGet()
        }

        @DistributedLock(value = "coroutines/#{#path}", waitTime = "2m")
        open fun steps(path: String): Flow<Int> = flow {
            val read = counters.enter(path)
            for (step in 1..3) {
                delay(1)
                emit(step)
            }
            emit(counters.leave(path, read))
        }
    }

    @Configuration(proxyBeanMethods = false)
    open class CoroutineConfiguration {

        @Bean
        open fun coroutineService(self: ObjectProvider<CoroutineService>) = CoroutineService(self)

        @Bean(name = [LockTestContexts.APPLICATION_TASK_EXECUTOR])
        open fun applicationTaskExecutor() = ThreadPoolTaskExecutor().apply {
            corePoolSize = 4
            setThreadNamePrefix("app-")
        }
    }
}
