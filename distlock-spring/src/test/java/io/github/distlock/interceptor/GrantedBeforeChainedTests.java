package io.github.distlock.interceptor;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import reactor.core.publisher.Mono;

import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.concurrent.ThreadPoolTaskExecutor;

import io.github.distlock.annotation.DistributedLock;
import io.github.distlock.core.ClusterLock;
import io.github.distlock.core.ClusterReadWriteLock;
import io.github.distlock.core.HeldLock;
import io.github.distlock.core.LockHandle;
import io.github.distlock.core.LockPath;
import io.github.distlock.core.LockScope;
import io.github.distlock.core.Locks;
import io.github.distlock.testsupport.ForwardingLock;
import io.github.distlock.testsupport.LockTestContexts;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An acquisition can be granted before the interceptor chains the method to it (a loaded
 * machine leaves the caller behind a fast grant; here the real lock is handed back
 * already granted): the method still runs on the engine's completion executor, never on
 * the caller's thread. A loaded run of {@code AsyncLockAcceptanceTests} once saw a body
 * run on {@code main}.
 */
class GrantedBeforeChainedTests {

	@RegisterExtension
	static final LockTestContexts contexts = new LockTestContexts();

	@Test
	void stageAndMonoMethodsRunOnTheCompletionExecutorWhenTheLockWasGrantedBeforeTheyWereChained() throws Exception {
		AnnotationConfigApplicationContext context = contexts.start(Configuration_.class);
		Work work = context.getBean(Work.class);
		String caller = Thread.currentThread().getName();
		assertThat(work.stage().get(10, TimeUnit.SECONDS)).startsWith("app-").isNotEqualTo(caller);
		assertThat(work.mono().block(Duration.ofSeconds(10))).startsWith("app-").isNotEqualTo(caller);
	}

	@Configuration(proxyBeanMethods = false)
	static class Configuration_ {

		@Bean
		Work work() {
			return new Work();
		}

		@Bean(name = LockTestContexts.APPLICATION_TASK_EXECUTOR)
		ThreadPoolTaskExecutor applicationTaskExecutor() {
			ThreadPoolTaskExecutor executor = new ThreadPoolTaskExecutor();
			executor.setCorePoolSize(2);
			executor.setThreadNamePrefix("app-");
			return executor;
		}

		@Bean
		static BeanPostProcessor grantedBeforeReturned() {
			return new BeanPostProcessor() {
				@Override
				public Object postProcessAfterInitialization(Object bean, String beanName) {
					return (bean instanceof Locks locks && !(bean instanceof GrantedFirst)) ? new GrantedFirst(locks)
							: bean;
				}
			};
		}

	}

	static class Work {

		@DistributedLock("granted-first/stage")
		public CompletableFuture<String> stage() {
			return CompletableFuture.completedFuture(Thread.currentThread().getName());
		}

		@DistributedLock("granted-first/mono")
		public Mono<String> mono() {
			return Mono.just(Thread.currentThread().getName());
		}

	}

	/** The real locks, whose asynchronous acquisitions are handed back once granted. */
	record GrantedFirst(Locks locks) implements Locks {

		@Override
		public ClusterLock mutex(LockPath path) {
			return new GrantedLock(this.locks.mutex(path));
		}

		@Override
		public ClusterLock nonReentrantMutex(LockPath path) {
			return new GrantedLock(this.locks.nonReentrantMutex(path));
		}

		@Override
		public ClusterReadWriteLock readWrite(LockPath path) {
			return this.locks.readWrite(path);
		}

		@Override
		public ClusterLock semaphore(LockPath path, int permits) {
			return new GrantedLock(this.locks.semaphore(path, permits));
		}

		@Override
		public List<HeldLock> heldLocks() {
			return this.locks.heldLocks();
		}

		@Override
		public Duration defaultWaitTime() {
			return this.locks.defaultWaitTime();
		}

		@Override
		public java.util.concurrent.Executor completionExecutor() {
			return this.locks.completionExecutor();
		}

	}

	/** Hands back asynchronous acquisitions only once they are granted. */
	static final class GrantedLock extends ForwardingLock {

		GrantedLock(ClusterLock lock) {
			super(lock);
		}

		@Override
		public CompletableFuture<LockHandle> acquireAsync(Duration waitTime) {
			return granted(delegate().acquireAsync(waitTime));
		}

		@Override
		public CompletableFuture<LockHandle> acquireAsync(Duration waitTime, LockScope scope) {
			return granted(delegate().acquireAsync(waitTime, scope));
		}

		private static CompletableFuture<LockHandle> granted(CompletableFuture<LockHandle> acquisition) {
			// Waited for here, so that the caller gets it complete.
			acquisition.join();
			return acquisition;
		}

	}

}
