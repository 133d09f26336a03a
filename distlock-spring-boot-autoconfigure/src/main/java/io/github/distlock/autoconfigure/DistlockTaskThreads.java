package io.github.distlock.autoconfigure;

import java.time.Duration;
import java.util.concurrent.Executor;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.task.ThreadPoolTaskExecutorBuilder;
import org.springframework.scheduling.concurrent.ThreadPoolTaskExecutor;

/**
 * Where the auto-configured locks complete asynchronous acquisitions, and so where the
 * methods of asynchronous locked calls run.
 * <p>
 * The application's task executor when its threads end with their work (virtual threads,
 * or an executor that is not a pool). A pool of platform threads, such as the one Spring
 * Boot configures without virtual threads, keeps idle threads alive for a minute, and
 * they are not daemons: a command-line application or batch job whose runners took an
 * asynchronous lock stayed alive that long after its work was done. For such a pool
 * distlock builds one of its own with Spring Boot's builder, so with the same
 * {@code spring.task.execution.*} settings and task decorator, whose threads
 * ({@code distlock-task-N}) end one second after their last task. They are not daemons:
 * work in progress still keeps the application alive.
 */
final class DistlockTaskThreads implements AutoCloseable {

	static final Duration KEEP_ALIVE = Duration.ofSeconds(1);

	static final String THREAD_NAME_PREFIX = "distlock-task-";

	private final @Nullable Executor executor;

	private final @Nullable ThreadPoolTaskExecutor own;

	private DistlockTaskThreads(@Nullable Executor executor, @Nullable ThreadPoolTaskExecutor own) {
		this.executor = executor;
		this.own = own;
	}

	static DistlockTaskThreads of(@Nullable Executor applicationTaskExecutor,
			@Nullable ThreadPoolTaskExecutorBuilder builder) {
		if (applicationTaskExecutor instanceof ThreadPoolTaskExecutor && builder != null) {
			ThreadPoolTaskExecutor own = builder.threadNamePrefix(THREAD_NAME_PREFIX)
				.allowCoreThreadTimeOut(true)
				.keepAlive(KEEP_ALIVE)
				.build();
			own.initialize();
			return new DistlockTaskThreads(own, own);
		}
		return new DistlockTaskThreads(applicationTaskExecutor, null);
	}

	/**
	 * The executor to give the locks; {@code null} for the locks' own daemon threads.
	 * @return the executor or {@code null}
	 */
	@Nullable Executor executor() {
		return this.executor;
	}

	@Override
	public void close() {
		if (this.own != null) {
			this.own.destroy();
		}
	}

}
