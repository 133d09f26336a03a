package io.github.distlock.interceptor;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.github.distlock.annotation.DistributedLock;
import io.github.distlock.annotation.OnTimeout;
import io.github.distlock.core.LockHandle;
import io.github.distlock.core.LockTimeoutException;
import io.github.distlock.core.Locks;
import io.github.distlock.testsupport.LockTestContexts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * What a locked method does when another node holds its lock: the body never runs, and
 * THROW, SKIP or the fallback decide the outcome.
 */
class TimeoutPolicyTests {

	@RegisterExtension
	static final LockTestContexts contexts = new LockTestContexts();

	private static BusyService service;

	private static Locks otherNode;

	private LockHandle held;

	@BeforeAll
	static void start() throws Exception {
		service = contexts.start(BusyConfiguration.class).getBean(BusyService.class);
		otherNode = contexts.start().getBean(Locks.class);
	}

	@BeforeEach
	void holdLockOnOtherNode() {
		this.held = otherNode.mutex("busy/42").acquire(Duration.ofSeconds(5));
		service.bodyRuns().set(0);
	}

	@AfterEach
	void release() {
		this.held.close();
	}

	@Test
	void throwNamesMethodTemplateAndPath() {
		assertThatExceptionOfType(LockTimeoutException.class).isThrownBy(() -> service.throwing(42))
			.withMessageContaining("BusyService.throwing(long)")
			.withMessageContaining("busy/#{#id}")
			.withMessageContaining("'busy/42'")
			.satisfies((ex) -> assertThat(ex.getCause()).isInstanceOf(LockTimeoutException.class))
			.satisfies((ex) -> assertThat(ex.getWaitTime()).isEqualTo(Duration.ofMillis(100)));
		assertThat(service.bodyRuns()).hasValue(0);
	}

	@Test
	void skipReturnsNullOptionalEmptyAndPrimitiveDefaults() {
		assertThat(service.skipString(42)).isNull();
		assertThat(service.skipOptional(42)).isEmpty();
		assertThat(service.skipInt(42)).isZero();
		assertThat(service.skipBoolean(42)).isFalse();
		assertThat(service.skipChar(42)).isEqualTo('\0');
		service.skipVoid(42);
		assertThat(service.bodyRuns()).hasValue(0);
	}

	@Test
	void fallbackWithoutExceptionGetsTheArguments() {
		assertThat(service.withPlainFallback(42, "x")).isEqualTo("plain fallback 42 x");
		assertThat(service.bodyRuns()).hasValue(0);
	}

	@Test
	void fallbackWithExceptionGetsTheTimeout() {
		assertThat(service.withExceptionFallback(42)).startsWith("fallback 42 after ")
			.contains("BusyService.withExceptionFallback(long)")
			.contains("'busy/42'");
		assertThat(service.bodyRuns()).hasValue(0);
	}

	@Test
	void bodyRunsOnceTheOtherNodeReleases() {
		// Released, and ZooKeeper confirmed it: the calls below come from
		// another session.
		this.held.closeAsync().join();
		// Try-once waits for ZooKeeper's answer; the two with a wait time are given one
		// no loaded machine's round trip outlasts, since their policies' 50 and 100 ms
		// would time out on a slow answer rather than on a holder.
		assertThat(service.skipString(42)).isEqualTo("ran");
		assertThat(service.throwingWithRoom(42)).isEqualTo("ran");
		assertThat(service.withExceptionFallbackWithRoom(42)).isEqualTo("ran");
		assertThat(service.bodyRuns()).hasValue(3);
		this.held = otherNode.mutex("busy/42").acquire(Duration.ofSeconds(5));
	}

	static class BusyService {

		private final AtomicInteger bodyRuns = new AtomicInteger();

		public AtomicInteger bodyRuns() {
			return this.bodyRuns;
		}

		@DistributedLock(value = "busy/#{#id}", waitTime = "100ms")
		public String throwing(long id) {
			return ran();
		}

		@DistributedLock(value = "busy/#{#id}", waitTime = "0", onTimeout = OnTimeout.SKIP)
		public String skipString(long id) {
			return ran();
		}

		@DistributedLock(value = "busy/#{#id}", waitTime = "0", onTimeout = OnTimeout.SKIP)
		public Optional<String> skipOptional(long id) {
			return Optional.of(ran());
		}

		@DistributedLock(value = "busy/#{#id}", waitTime = "0", onTimeout = OnTimeout.SKIP)
		public int skipInt(long id) {
			ran();
			return 7;
		}

		@DistributedLock(value = "busy/#{#id}", waitTime = "0", onTimeout = OnTimeout.SKIP)
		public boolean skipBoolean(long id) {
			ran();
			return true;
		}

		@DistributedLock(value = "busy/#{#id}", waitTime = "0", onTimeout = OnTimeout.SKIP)
		public char skipChar(long id) {
			ran();
			return 'x';
		}

		@DistributedLock(value = "busy/#{#id}", waitTime = "0", onTimeout = OnTimeout.SKIP)
		public void skipVoid(long id) {
			ran();
		}

		@DistributedLock(value = "busy/#{#p0}", waitTime = "#{50}", fallback = "plainFallback")
		public String withPlainFallback(long id, String other) {
			return ran();
		}

		String plainFallback(long id, String other) {
			return "plain fallback " + id + " " + other;
		}

		@DistributedLock(value = "busy/#{#a0}", waitTime = "#{T(java.time.Duration).ofMillis(50)}",
				fallback = "exceptionFallback")
		public String withExceptionFallback(long id) {
			return ran();
		}

		@DistributedLock(value = "busy/#{#id}", waitTime = "10s")
		public String throwingWithRoom(long id) {
			return ran();
		}

		@DistributedLock(value = "busy/#{#a0}", waitTime = "10s", fallback = "exceptionFallback")
		public String withExceptionFallbackWithRoom(long id) {
			return ran();
		}

		private String exceptionFallback(long id, LockTimeoutException ex) {
			return "fallback " + id + " after " + ex.getMessage();
		}

		private String ran() {
			this.bodyRuns.incrementAndGet();
			return "ran";
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class BusyConfiguration {

		@Bean
		BusyService busyService() {
			return new BusyService();
		}

	}

}
