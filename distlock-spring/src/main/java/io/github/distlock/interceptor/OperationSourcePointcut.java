package io.github.distlock.interceptor;

import java.lang.reflect.Method;

import org.jspecify.annotations.Nullable;

import org.springframework.aop.ClassFilter;
import org.springframework.aop.support.StaticMethodMatcherPointcut;

/**
 * Matches the methods for which an {@link OperationSource} has an operation. Its class
 * filter asks the source about the whole class, which validates every annotated method of
 * a bean when the bean is proxied.
 */
final class OperationSourcePointcut extends StaticMethodMatcherPointcut {

	private final OperationSource<?> source;

	OperationSourcePointcut(OperationSource<?> source) {
		this.source = source;
		setClassFilter(new OperationSourceClassFilter());
	}

	@Override
	public boolean matches(Method method, Class<?> targetClass) {
		return this.source.getOperation(method, targetClass) != null;
	}

	@Override
	public boolean equals(@Nullable Object other) {
		return (this == other) || (other instanceof OperationSourcePointcut that && this.source == that.source);
	}

	@Override
	public int hashCode() {
		return OperationSourcePointcut.class.hashCode();
	}

	@Override
	public String toString() {
		return getClass().getName() + ": " + this.source;
	}

	private final class OperationSourceClassFilter implements ClassFilter {

		@Override
		public boolean matches(Class<?> clazz) {
			return OperationSourcePointcut.this.source.hasOperations(clazz);
		}

	}

}
