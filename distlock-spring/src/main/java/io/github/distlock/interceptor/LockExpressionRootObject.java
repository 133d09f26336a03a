package io.github.distlock.interceptor;

import java.lang.reflect.Method;

import org.jspecify.annotations.Nullable;

/**
 * The root object of lock path and wait time expressions: {@code #root.method},
 * {@code #root.methodName}, {@code #root.args}, {@code #root.target} and
 * {@code #root.targetClass}.
 */
public final class LockExpressionRootObject {

	private final Method method;

	private final @Nullable Object[] args;

	private final @Nullable Object target;

	private final Class<?> targetClass;

	LockExpressionRootObject(Method method, @Nullable Object[] args, @Nullable Object target, Class<?> targetClass) {
		this.method = method;
		this.args = args;
		this.target = target;
		this.targetClass = targetClass;
	}

	/** The annotated method. */
	public Method getMethod() {
		return this.method;
	}

	/** Name of the annotated method. */
	public String getMethodName() {
		return this.method.getName();
	}

	/** Arguments of the call. */
	public @Nullable Object[] getArgs() {
		return this.args;
	}

	/** The target object (not the proxy). */
	public @Nullable Object getTarget() {
		return this.target;
	}

	/** Class of the target object. */
	public Class<?> getTargetClass() {
		return this.targetClass;
	}

}
