package io.github.distlock.interceptor;

import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.stream.Collectors;

import org.springframework.util.ClassUtils;

/**
 * Names methods in error messages the way a developer would search for them:
 * {@code OrderService.ship(Order, int)}.
 */
final class MethodDescriptions {

	private MethodDescriptions() {
	}

	static String describe(Method method) {
		return ClassUtils.getShortName(method.getDeclaringClass()) + "." + method.getName() + "("
				+ Arrays.stream(method.getParameterTypes())
					.map(ClassUtils::getShortName)
					.collect(Collectors.joining(", "))
				+ ")";
	}

}
