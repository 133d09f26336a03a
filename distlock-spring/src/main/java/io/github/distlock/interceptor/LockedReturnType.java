package io.github.distlock.interceptor;

import java.lang.reflect.Array;
import java.lang.reflect.Method;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;
import java.util.concurrent.Future;

import org.jspecify.annotations.Nullable;

import org.springframework.core.KotlinDetector;
import org.springframework.core.MethodParameter;
import org.springframework.core.ReactiveAdapter;
import org.springframework.core.ReactiveAdapterRegistry;
import org.springframework.core.ResolvableType;
import org.springframework.util.ClassUtils;

import io.github.distlock.core.LockConfigurationException;

/**
 * How long a locked method's work lasts, told by what the method returns, and so how long
 * its lock is held: until the method returns ({@link Synchronous}), until the returned
 * stage completes ({@link Stage}), or until the returned publisher, or the Kotlin
 * {@code suspend} function, ends ({@link Reactive}). Decided once per method when its
 * annotation is parsed, and kept on its {@link LockOperation}; a return type whose end
 * cannot be observed is refused then.
 */
public sealed interface LockedReturnType {

	/** The lock is held while the method runs. */
	LockedReturnType SYNCHRONOUS = new Synchronous();

	/**
	 * Return what a skipped call returns: the empty value of the method's return type.
	 * @param method the method called, whose return type the caller expects
	 * @return the empty value
	 */
	@Nullable Object emptyValue(Method method);

	/**
	 * Classify a method by its return type.
	 * @param method the locked method
	 * @param description the annotation and method, for messages
	 * @return how its lock is held
	 * @throws LockConfigurationException if the method returns something whose end cannot
	 * be observed, or needs a library that is missing
	 */
	static LockedReturnType of(Method method, String description) {
		Class<?> returnType = method.getReturnType();
		boolean reactorPresent = isPresent("reactor.core.publisher.Mono");
		if (KotlinDetector.isSuspendingFunction(method)) {
			// Spring calls suspend functions through a Mono, with
			// kotlinx-coroutines-reactor's help.
			if (!reactorPresent || !isPresent("kotlinx.coroutines.reactor.MonoKt")) {
				throw new LockConfigurationException(description + ": the method is a Kotlin suspend function, but "
						+ "kotlinx-coroutines-reactor (and reactor-core) are not on the class path: Spring calls "
						+ "suspend functions through them, and without them the lock would be released at the "
						+ "function's first suspension; add org.jetbrains.kotlinx:kotlinx-coroutines-reactor");
			}
			if (!KotlinDetector.isKotlinReflectPresent()) {
				throw new LockConfigurationException(description + ": the method is a Kotlin suspend function, but "
						+ "kotlin-reflect is not on the class path: Spring needs it to call suspend functions; add "
						+ "org.jetbrains.kotlin:kotlin-reflect");
			}
			boolean flow = "kotlinx.coroutines.flow.Flow"
				.equals(new MethodParameter(method, -1).getParameterType().getName());
			return Reactive.suspending(flow);
		}
		if (CompletionStage.class.isAssignableFrom(returnType)) {
			if (!returnType.isAssignableFrom(CompletableFuture.class)) {
				throw new LockConfigurationException(description + ": the method returns " + returnType.getName()
						+ ", a CompletionStage the lock cannot stand in for (the locked call returns a "
						+ "CompletableFuture that completes after the lock is released); declare the return "
						+ "type as CompletableFuture or CompletionStage");
			}
			ResolvableType value = ResolvableType.forMethodReturnType(method).as(CompletionStage.class).getGeneric(0);
			return new Stage(value.resolve() == Optional.class);
		}
		if (Future.class.isAssignableFrom(returnType)) {
			throw new LockConfigurationException(description + ": the method returns " + returnType.getName()
					+ ", a Future whose end cannot be observed without blocking a thread, so the lock would be "
					+ "released while the work still runs; return a CompletableFuture or CompletionStage (the "
					+ "lock is then held until it completes), or a plain value");
		}
		if (reactorPresent) {
			ReactiveAdapter adapter = ReactiveAdapterRegistry.getSharedInstance().getAdapter(returnType);
			if (adapter != null) {
				return new Reactive(adapter, false);
			}
		}
		else if (Flow.Publisher.class.isAssignableFrom(returnType) || isReactiveStreamsPublisher(returnType)
				|| ReactiveAdapterRegistry.getSharedInstance().getAdapter(returnType) != null) {
			throw new LockConfigurationException(description + ": the method returns " + returnType.getName()
					+ ", a reactive type, but Project Reactor is not on the class path: the lock of a reactive "
					+ "method is held through Reactor until the publisher ends; add io.projectreactor:reactor-core");
		}
		return SYNCHRONOUS;
	}

	private static boolean isPresent(String className) {
		return ClassUtils.isPresent(className, LockedReturnType.class.getClassLoader());
	}

	private static boolean isReactiveStreamsPublisher(Class<?> type) {
		for (Class<?> candidate = type; candidate != null; candidate = candidate.getSuperclass()) {
			for (Class<?> ifc : ClassUtils.getAllInterfacesForClassAsSet(candidate)) {
				if (ifc.getName().equals("org.reactivestreams.Publisher")) {
					return true;
				}
			}
		}
		return false;
	}

	/** The method's work ends when it returns. */
	record Synchronous() implements LockedReturnType {

		/** {@code null}, {@code Optional.empty()} or the primitive default. */
		@Override
		public @Nullable Object emptyValue(Method method) {
			Class<?> type = method.getReturnType();
			if (type == Optional.class) {
				return Optional.empty();
			}
			if (type.isPrimitive() && type != void.class) {
				return Array.get(Array.newInstance(type, 1), 0);
			}
			return null;
		}

	}

	/**
	 * The method returns a {@link CompletionStage}: its work ends when the stage
	 * completes.
	 *
	 * @param optional whether the stage's value is an {@link Optional}, so that a skipped
	 * call gives {@code Optional.empty()} rather than {@code null}
	 */
	record Stage(boolean optional) implements LockedReturnType {

		/** A completed stage with {@code null}, or with {@code Optional.empty()}. */
		@Override
		public CompletableFuture<?> emptyValue(Method method) {
			return CompletableFuture.completedFuture(this.optional ? Optional.empty() : null);
		}

	}

	/**
	 * The method returns a type Spring's {@link ReactiveAdapterRegistry} adapts, or it is
	 * a Kotlin {@code suspend} function (which Spring calls as a {@code Mono}, or a
	 * {@code Flux} for one returning a {@code Flow}): its work ends when the publisher
	 * terminates or is cancelled.
	 *
	 * @param adapter adapts the method's return type to a publisher and back
	 * @param suspending whether the method is a Kotlin {@code suspend} function
	 */
	record Reactive(ReactiveAdapter adapter, boolean suspending) implements LockedReturnType {

		static Reactive suspending(boolean flow) {
			// Spring's AOP proxies turn a suspend function's invocation into a Mono (a
			// Flux for a Flow) and await what the interceptors return.
			ReactiveAdapter adapter = ReactiveAdapterRegistry.getSharedInstance()
				.getAdapter(ClassUtils.resolveClassName(
						flow ? "reactor.core.publisher.Flux" : "reactor.core.publisher.Mono",
						LockedReturnType.class.getClassLoader()));
			if (adapter == null) {
				throw new IllegalStateException("No reactive adapter for " + (flow ? "Flux" : "Mono"));
			}
			return new Reactive(adapter, true);
		}

		/**
		 * {@code null}, which the reactive executor turns into an empty publisher, as it
		 * does a method that returned {@code null}.
		 */
		@Override
		public @Nullable Object emptyValue(Method method) {
			return null;
		}

		/** Whether the publisher gives at most one value. */
		boolean singleValue() {
			return !this.adapter.isMultiValue();
		}

	}

}
