package io.github.distlock.autoconfigure;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import reactor.core.publisher.Mono;

import org.springframework.boot.ApplicationRunner;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;

import io.github.distlock.annotation.DistributedLock;
import io.github.distlock.annotation.Semaphore;
import io.github.distlock.core.LockHandle;
import io.github.distlock.core.Locks;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A non-web application that takes locks (synchronously, through annotations on
 * synchronous, {@code CompletableFuture} and {@code Mono} methods, and with
 * {@code acquireAsync}) on the embedded ZooKeeper server ends by itself once its runner
 * has finished, like any Spring Boot application: neither the embedded server's threads
 * nor the threads of asynchronous completions keep its JVM alive. Run for real, with
 * {@link SpringApplication#run}, in a JVM of its own.
 */
class NonWebApplicationExitTests {

	@Test
	void commandLineApplicationThatTakesLocksExitsWhenItsRunnerHasFinished(@TempDir Path directory) throws Exception {
		Path output = directory.resolve("output.txt");
		String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
		Process process = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
				CommandLineApplication.class.getName(), "--distlock.zookeeper.embedded.enabled=true",
				"--distlock.zookeeper.embedded.port=0", "--spring.main.banner-mode=off")
			.redirectErrorStream(true)
			.redirectOutput(output.toFile())
			.start();
		try {
			// Measured from the runner's end, not from the start, which takes what a
			// loaded machine gives it: an application kept alive by an idle thread pool
			// would end a minute after its runner (Boot's keep-alive), and one kept alive
			// by the embedded server never.
			Awaitility.await()
				.atMost(Duration.ofMinutes(3))
				.pollInterval(Duration.ofMillis(100))
				.until(() -> !process.isAlive()
						|| Files.readString(output, StandardCharsets.UTF_8).contains("runner finished:"));
			boolean exited = process.waitFor(30, TimeUnit.SECONDS);
			String log = Files.readString(output, StandardCharsets.UTF_8);
			assertThat(exited).as("exited by itself; output:%n%s", log).isTrue();
			assertThat(process.exitValue()).as("exit code; output:%n%s", log).isZero();
			assertThat(log)
				.contains("runner finished: sync, annotated, future on distlock-task-, mono on distlock-task-, "
						+ "acquireAsync, semaphore");
		}
		finally {
			process.destroyForcibly();
		}
	}

	/** What the JVM of the test runs: a command-line application that takes locks. */
	@SpringBootApplication(proxyBeanMethods = false)
	public static class CommandLineApplication {

		public static void main(String[] args) {
			SpringApplication application = new SpringApplication(CommandLineApplication.class);
			application.setWebApplicationType(WebApplicationType.NONE);
			application.run(args);
		}

		@Bean
		Jobs jobs() {
			return new Jobs();
		}

		@Bean
		ApplicationRunner takeLocks(Locks locks, Jobs jobs) {
			return (args) -> {
				List<String> done = new ArrayList<>();
				try (LockHandle lock = locks.mutex("cli/sync").acquire(Duration.ofSeconds(10))) {
					done.add("sync");
				}
				done.add(jobs.annotated());
				done.add(jobs.future().get(10, TimeUnit.SECONDS));
				done.add(jobs.mono().block(Duration.ofSeconds(10)));
				try (LockHandle lock = locks.readWrite("cli/rw")
					.writeLock()
					.acquireAsync(Duration.ofSeconds(10))
					.get(10, TimeUnit.SECONDS)) {
					done.add("acquireAsync");
				}
				done.add(jobs.semaphore());
				System.out.println("runner finished: " + String.join(", ", done));
			};
		}

	}

	/** Locked methods of each shape. */
	public static class Jobs {

		@DistributedLock("cli/annotated")
		public String annotated() {
			return "annotated";
		}

		@DistributedLock("cli/future")
		public CompletableFuture<String> future() {
			return CompletableFuture.completedFuture("future on " + threadPrefix());
		}

		@DistributedLock("cli/mono")
		public Mono<String> mono() {
			return Mono.fromSupplier(() -> "mono on " + threadPrefix());
		}

		@Semaphore(value = "cli/semaphore", permits = 2)
		public String semaphore() {
			return "semaphore";
		}

		private static String threadPrefix() {
			String name = Thread.currentThread().getName();
			return name.substring(0, name.lastIndexOf('-') + 1);
		}

	}

}
