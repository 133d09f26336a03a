package io.github.distlock.benchmarks;

import org.apache.curator.framework.CuratorFramework;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

import io.github.distlock.core.LockEventListener;
import io.github.distlock.curator.CuratorLocks;

/**
 * distlock's {@code @DistributedLock} on a Spring bean ({@link AnnotatedLocks}) proxied
 * by distlock's proxy configuration, the path resolved from a {@code #{#p0}} template on
 * every call.
 */
final class AnnotationContender implements MutexContender {

	static final String NAME = "distlock-annotation";

	private final AnnotationConfigApplicationContext context;

	private final AnnotatedLocks locks;

	private final CuratorLocks curatorLocks;

	AnnotationContender() {
		CuratorLocks curatorLocks = CuratorLocks.builder(BenchmarkClients.start())
			.defaultWaitTime(WAIT)
			.applicationName("benchmarks")
			.build();
		this.curatorLocks = curatorLocks;
		this.context = new AnnotationConfigApplicationContext();
		this.context.registerBean(CuratorLocks.class, () -> curatorLocks);
		this.context.register(ProxyInfrastructure.class, AnnotatedLocks.class);
		this.context.refresh();
		this.locks = this.context.getBean(AnnotatedLocks.class);
	}

	/** The annotated bean, for the scenarios other than the mutex ones. */
	AnnotatedLocks annotated() {
		return this.locks;
	}

	@Override
	public void cycle(String key) {
		this.locks.cycle(key);
	}

	@Override
	public boolean tryOnce(String key) {
		return this.locks.tryOnce(key);
	}

	@Override
	public void hold(String key) {
		this.context.getBean(CuratorLocks.class).mutex(key).acquire(WAIT);
	}

	@Override
	public CuratorFramework client() {
		return this.curatorLocks.client();
	}

	@Override
	public void addEventListener(LockEventListener listener) {
		this.curatorLocks.addEventListener(listener);
	}

	@Override
	public void close() {
		CuratorLocks curatorLocks = this.context.getBean(CuratorLocks.class);
		this.context.close();
		curatorLocks.client().close();
	}

	@Configuration(proxyBeanMethods = false)
	@Import(ProxyConfigurationImport.class)
	static class ProxyInfrastructure {

	}

}
