package io.github.distlock.interceptor;

import org.jspecify.annotations.Nullable;

import org.springframework.aot.hint.MemberCategory;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;

import io.github.distlock.annotation.DistributedLock;
import io.github.distlock.annotation.LeaderOnly;
import io.github.distlock.annotation.PartitionOwner;
import io.github.distlock.annotation.ReadLock;
import io.github.distlock.annotation.Semaphore;
import io.github.distlock.annotation.WriteLock;

/**
 * Runtime hints (for Spring AOT and GraalVM native images) of what the lock annotations
 * reach by reflection whatever the application: the attributes of the annotations, read
 * through their methods, and the root object of path and wait time expressions
 * ({@code #root.method}, {@code #root.args}, ...). What depends on the application's
 * beans (their annotated methods, fallback methods) is registered by
 * {@link LockOperationBeanRegistrationAotProcessor}.
 */
class LockRuntimeHints implements RuntimeHintsRegistrar {

	@Override
	public void registerHints(RuntimeHints hints, @Nullable ClassLoader classLoader) {
		for (Class<?> annotation : new Class<?>[] { DistributedLock.class, ReadLock.class, WriteLock.class,
				Semaphore.class, LeaderOnly.class, PartitionOwner.class }) {
			hints.reflection().registerType(annotation, MemberCategory.INVOKE_PUBLIC_METHODS);
		}
		hints.reflection().registerType(LockExpressionRootObject.class, MemberCategory.INVOKE_PUBLIC_METHODS);
	}

}
