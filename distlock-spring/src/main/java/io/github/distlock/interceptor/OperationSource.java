package io.github.distlock.interceptor;

import java.lang.reflect.Method;

import org.jspecify.annotations.Nullable;

/**
 * Finds the operation an annotation declares for a method, parsed and validated once:
 * what an {@link OperationSourceAdvisor} matches and its interceptor runs.
 *
 * @param <O> the type of operation
 */
public interface OperationSource<O> {

	/**
	 * Whether any method of the given class has an operation. Implementations validate
	 * every annotated method of the class here, so that a misconfigured annotation fails
	 * when its bean is proxied, at startup, and not at its first call.
	 * @param targetClass the class
	 * @return whether the class has operations
	 * @throws io.github.distlock.core.LockConfigurationException if an annotation of the
	 * class cannot work
	 */
	boolean hasOperations(Class<?> targetClass);

	/**
	 * Return the operation of a method.
	 * @param method the method, possibly an interface method
	 * @param targetClass the target class, or {@code null}
	 * @return the operation, or {@code null} if the method has none
	 * @throws io.github.distlock.core.LockConfigurationException if the annotation cannot
	 * work
	 */
	@Nullable O getOperation(Method method, @Nullable Class<?> targetClass);

}
