package io.github.distlock.interceptor;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.github.distlock.annotation.DistributedLock;
import io.github.distlock.annotation.OnTimeout;
import io.github.distlock.core.LockPath;
import io.github.distlock.core.LockReentryException;
import io.github.distlock.core.Locks;
import io.github.distlock.testsupport.LockTestContexts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * {@code @DistributedLock(reentrant = false)} and {@code @DistributedLock} on one path
 * are one lock, on one node and across nodes: reentrancy is the caller's policy, not
 * another queue.
 */
class BothMutexFormsOneLockTests {

	@RegisterExtension
	static final LockTestContexts contexts = new LockTestContexts();

	@Test
	void reentrantAndNonReentrantMethodsOnOnePathExcludeEachOther() throws Exception {
		Jobs first = contexts.start(JobsConfiguration.class).getBean(Jobs.class);
		AnnotationConfigApplicationContext secondNode = contexts.start(JobsConfiguration.class);
		Jobs second = secondNode.getBean(Jobs.class);
		CountDownLatch inside = new CountDownLatch(1);
		CountDownLatch leave = new CountDownLatch(1);
		CompletableFuture<Boolean> holding = CompletableFuture.supplyAsync(() -> first.reentrant(inside, leave));
		try {
			assertThat(inside.await(10, TimeUnit.SECONDS)).isTrue();
			// The other form, on this node and on another, finds the lock taken.
			assertThat(first.nonReentrantTry()).isFalse();
			assertThat(second.nonReentrantTry()).isFalse();
		}
		finally {
			leave.countDown();
		}
		assertThat(holding.get(10, TimeUnit.SECONDS)).isTrue();
		// The release is sent as the method returns; another node sees it once ZooKeeper
		// applied it.
		Locks locks = secondNode.getBean(Locks.class);
		await().atMost(Duration.ofSeconds(5)).until(() -> locks.inspect(LockPath.parse("jobs/nightly")).isEmpty());
		assertThat(second.nonReentrantTry()).isTrue();
		// The refused tries never ran.
		assertThat(first.runs()).isZero();
		assertThat(second.runs()).isEqualTo(1);
	}

	@Test
	void holderOfTheReentrantFormAskingForTheNonReentrantFormFailsFast() {
		Jobs jobs = contexts.start(JobsConfiguration.class).getBean(Jobs.class);
		assertThatExceptionOfType(LockReentryException.class).isThrownBy(jobs::reentrantCallingNonReentrant)
			.withMessageContaining("'jobs/nightly'");
	}

	@Configuration(proxyBeanMethods = false)
	static class JobsConfiguration {

		@Bean
		Jobs jobs() {
			return new Jobs();
		}

	}

	static class Jobs {

		private final AtomicInteger runs = new AtomicInteger();

		public int runs() {
			return this.runs.get();
		}

		private Jobs self;

		@org.springframework.beans.factory.annotation.Autowired
		void setSelf(@org.springframework.context.annotation.Lazy Jobs self) {
			this.self = self;
		}

		@DistributedLock(value = "jobs/nightly", waitTime = "5s")
		public boolean reentrant(CountDownLatch inside, CountDownLatch leave) {
			inside.countDown();
			try {
				return leave.await(10, TimeUnit.SECONDS);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return false;
			}
		}

		@DistributedLock(value = "jobs/nightly", reentrant = false, waitTime = "0", onTimeout = OnTimeout.SKIP)
		public boolean nonReentrantTry() {
			this.runs.incrementAndGet();
			return true;
		}

		@DistributedLock(value = "jobs/nightly", waitTime = "5s")
		public void reentrantCallingNonReentrant() {
			this.self.nonReentrantTry();
		}

	}

}
