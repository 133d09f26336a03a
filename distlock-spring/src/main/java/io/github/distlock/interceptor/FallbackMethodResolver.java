package io.github.distlock.interceptor;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

import org.springframework.core.KotlinDetector;
import org.springframework.util.ClassUtils;
import org.springframework.util.ReflectionUtils;

import io.github.distlock.core.LockConfigurationException;
import io.github.distlock.core.LockTimeoutException;

/**
 * Finds the fallback method named by a lock annotation on the same class: the same
 * parameters as the locked method, optionally followed by the timeout exception (before
 * the continuation, for a Kotlin {@code suspend} function), returning what the locked
 * method returns. A candidate taking the exception is preferred.
 */
final class FallbackMethodResolver {

	/**
	 * Find and check the fallback method.
	 * @param fallback the name of the fallback method
	 * @param method the locked method
	 * @param targetClass the class the fallback is looked up on
	 * @param description the annotation and method, for messages
	 * @return the fallback policy
	 * @throws LockConfigurationException if there is no such method, or no single one of
	 * the right shape
	 */
	TimeoutPolicy.Fallback resolve(String fallback, Method method, Class<?> targetClass, String description) {
		boolean suspending = KotlinDetector.isSuspendingFunction(method);
		List<Class<?>> parameters = valueParameters(method, suspending);
		List<Method> sameName = Arrays.asList(ReflectionUtils.getUniqueDeclaredMethods(targetClass,
				(candidate) -> candidate.getName().equals(fallback)));
		List<Method> plain = new ArrayList<>();
		List<Method> withException = new ArrayList<>();
		for (Method candidate : sameName) {
			if (suspending != KotlinDetector.isSuspendingFunction(candidate)) {
				continue;
			}
			List<Class<?>> types = valueParameters(candidate, suspending);
			if (types.equals(parameters)) {
				plain.add(candidate);
			}
			else if (types.size() == parameters.size() + 1 && types.subList(0, parameters.size()).equals(parameters)
					&& types.get(parameters.size()).isAssignableFrom(LockTimeoutException.class)) {
				withException.add(candidate);
			}
		}
		String expected = expected(fallback, parameters, suspending);
		if (sameName.isEmpty()) {
			throw new LockConfigurationException(description + ": fallback method '" + fallback + "' not found on "
					+ targetClass.getName() + "; declare " + expected + " returning "
					+ (suspending ? "what the locked function returns" : method.getReturnType().getSimpleName())
					+ " on the same bean");
		}
		List<Method> matching = withException.isEmpty() ? plain : withException;
		if (matching.isEmpty()) {
			throw new LockConfigurationException(
					description + ": fallback method '" + fallback + "' has the wrong parameters ("
							+ sameName.stream().map(MethodDescriptions::describe).collect(Collectors.joining(", "))
							+ "); it must take the same parameters as the locked method, optionally followed by the "
							+ "timeout exception: " + expected);
		}
		if (matching.size() > 1) {
			throw new LockConfigurationException(description + ": fallback '" + fallback + "' is ambiguous ("
					+ matching.stream().map(MethodDescriptions::describe).collect(Collectors.joining(", "))
					+ "); keep one of these methods or rename it");
		}
		Method chosen = matching.get(0);
		if (method.getReturnType() != void.class
				&& !ClassUtils.isAssignable(method.getReturnType(), chosen.getReturnType())) {
			throw new LockConfigurationException(
					description + ": fallback method " + MethodDescriptions.describe(chosen) + " returns "
							+ chosen.getReturnType().getName() + ", which cannot be returned as "
							+ method.getReturnType().getName() + "; make it return the locked method's type");
		}
		ReflectionUtils.makeAccessible(chosen);
		return new TimeoutPolicy.Fallback(chosen, !withException.isEmpty());
	}

	/**
	 * The parameters a caller passes: those of the method, without the continuation of a
	 * {@code suspend} function.
	 */
	private static List<Class<?>> valueParameters(Method method, boolean suspending) {
		List<Class<?>> types = Arrays.asList(method.getParameterTypes());
		return (suspending && !types.isEmpty()) ? types.subList(0, types.size() - 1) : types;
	}

	private static String expected(String fallback, List<Class<?>> parameters, boolean suspending) {
		String prefix = suspending ? "suspend fun " : "";
		String plain = parameters.stream().map(ClassUtils::getShortName).collect(Collectors.joining(", "));
		String withException = parameters.stream()
			.map((type) -> ClassUtils.getShortName(type) + ", ")
			.collect(Collectors.joining()) + "LockTimeoutException";
		return prefix + fallback + "(" + plain + ") or " + prefix + fallback + "(" + withException + ")";
	}

}
