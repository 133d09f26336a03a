package io.github.distlock.interceptor;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import org.apache.curator.framework.CuratorFramework;

import org.springframework.aop.framework.ProxyFactory;
import org.springframework.util.ClassUtils;
import org.springframework.util.ReflectionUtils;

import io.github.distlock.annotation.DistributedLock;
import io.github.distlock.core.LockConfigurationException;
import io.github.distlock.curator.CuratorLocks;
import io.github.distlock.testsupport.NodeOptions;

/**
 * What {@link WithoutReactorTests} runs in a class loader without Reactor: a proxied bean
 * with a synchronous and a {@code CompletableFuture} method on real locks, and the
 * validation of a method returning a publisher. Gives one line per finding.
 */
public class WithoutReactorScenario implements Function<String, List<String>> {

	@Override
	public List<String> apply(String connectString) {
		List<String> findings = new ArrayList<>();
		findings.add(ClassUtils.isPresent("reactor.core.publisher.Mono", getClass().getClassLoader())
				? "reactor-core present" : "no reactor-core");
		NodeOptions options = NodeOptions.defaults();
		try (CuratorFramework client = options.startClient(connectString);
				CuratorLocks locks = options.createLocks(client)) {
			AnnotationLockOperationSource source = new AnnotationLockOperationSource();
			ProxyFactory factory = new ProxyFactory(new Work(locks));
			factory.setProxyTargetClass(true);
			factory.addAdvice(new LockInterceptor(source, () -> locks));
			Work work = (Work) factory.getProxy(getClass().getClassLoader());
			findings.add("synchronous: " + work.synchronous());
			findings.add("stage: " + work.stage().get(10, TimeUnit.SECONDS)
					+ ((locks.heldCount() == 0) ? ", released after" : ", still held"));
			try {
				source.getOperation(ReflectionUtils.findMethod(Work.class, "publisher"), Work.class);
				findings.add("publisher accepted");
			}
			catch (LockConfigurationException ex) {
				String message = ex.getMessage();
				findings.add("publisher refused: " + message.substring(message.indexOf("the method returns"),
						message.indexOf(" on the class path") + " on the class path".length()));
			}
		}
		catch (Exception ex) {
			throw new IllegalStateException(ex);
		}
		return findings;
	}

	public static class Work {

		private final CuratorLocks locks;

		public Work(CuratorLocks locks) {
			this.locks = locks;
		}

		@DistributedLock(value = "plain", waitTime = "5s")
		public String synchronous() {
			return (this.locks.heldCount() == 1) ? "held while running" : "not held";
		}

		@DistributedLock(value = "stage", waitTime = "5s")
		public CompletableFuture<String> stage() {
			return CompletableFuture.supplyAsync(
					() -> (this.locks.heldCount() == 1) ? "held while running" : "not held",
					CompletableFuture.delayedExecutor(50, TimeUnit.MILLISECONDS));
		}

		@DistributedLock(value = "publisher", waitTime = "5s")
		public Flow.Publisher<String> publisher() {
			return (subscriber) -> {
			};
		}

	}

}
