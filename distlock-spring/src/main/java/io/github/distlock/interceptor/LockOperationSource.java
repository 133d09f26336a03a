package io.github.distlock.interceptor;

import java.lang.reflect.Method;

import org.jspecify.annotations.Nullable;

/**
 * Finds the lock operation of a method, parsed and validated once.
 */
public interface LockOperationSource {

	/**
	 * Whether any method of the given class carries a lock annotation. Implementations
	 * validate every annotated method of the class here, so that a misconfigured
	 * annotation fails when its bean is proxied, at startup, and not at its first call.
	 * @param targetClass the class
	 * @return whether the class has lock operations
	 * @throws io.github.distlock.core.LockConfigurationException if an annotation of the
	 * class cannot work
	 */
	boolean hasOperations(Class<?> targetClass);

	/**
	 * Return the lock operation of a method.
	 * @param method the method, possibly an interface method
	 * @param targetClass the target class, or {@code null}
	 * @return the operation, or {@code null} if the method is not locked
	 * @throws io.github.distlock.core.LockConfigurationException if the annotation cannot
	 * work
	 */
	@Nullable LockOperation getOperation(Method method, @Nullable Class<?> targetClass);

}
