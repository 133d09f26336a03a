package io.github.distlock.interceptor;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

import org.springframework.aop.support.AopUtils;
import org.springframework.core.BridgeMethodResolver;
import org.springframework.core.MethodClassKey;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.core.annotation.AnnotationUtils;
import org.springframework.expression.common.LiteralExpression;
import org.springframework.util.ClassUtils;
import org.springframework.util.ReflectionUtils;

import io.github.distlock.annotation.LeaderOnly;
import io.github.distlock.core.Leadership;
import io.github.distlock.core.LockConfigurationException;

/**
 * {@link LockOperationSource} reading {@link LeaderOnly @LeaderOnly} on a method (the
 * class method or a method it overrides or implements) or on its class (every public
 * method), directly or as a meta-annotation. Operations are cached per method and target
 * class; a group that cannot work fails at startup, naming the method. It remembers every
 * group it found, so that the application joins their elections once it has started.
 */
public class LeaderOnlyOperationSource implements LockOperationSource {

	private static final Optional<LockOperation> NO_OPERATION = Optional.empty();

	private final Map<MethodClassKey, Optional<LockOperation>> operations = new ConcurrentHashMap<>(256);

	private final Map<Class<?>, Boolean> classes = new ConcurrentHashMap<>(256);

	private final Set<String> groups = ConcurrentHashMap.newKeySet();

	private final Supplier<Leadership> leadership;

	/**
	 * Create a source.
	 * @param leadership the leader election, asked for on the first call
	 */
	public LeaderOnlyOperationSource(Supplier<Leadership> leadership) {
		this.leadership = leadership;
	}

	/** The groups named by the annotated methods found so far, sorted. */
	public Set<String> groups() {
		return new TreeSet<>(this.groups);
	}

	@Override
	public boolean hasOperations(Class<?> targetClass) {
		Boolean cached = this.classes.get(targetClass);
		if (cached != null) {
			return cached;
		}
		boolean found = false;
		if (AnnotationUtils.isCandidateClass(targetClass, LeaderOnly.class)) {
			Class<?> userClass = ClassUtils.getUserClass(targetClass);
			List<Method> methods = new ArrayList<>();
			ReflectionUtils.doWithMethods(userClass, methods::add, ReflectionUtils.USER_DECLARED_METHODS);
			for (Class<?> ifc : ClassUtils.getAllInterfacesForClassAsSet(userClass)) {
				methods.addAll(Arrays.asList(ifc.getMethods()));
			}
			for (Method method : methods) {
				found |= getOperation(method, userClass) != null;
			}
		}
		this.classes.put(targetClass, found);
		return found;
	}

	@Override
	public @Nullable LockOperation getOperation(Method method, @Nullable Class<?> targetClass) {
		if (ReflectionUtils.isObjectMethod(method)) {
			return null;
		}
		MethodClassKey key = new MethodClassKey(method, targetClass);
		Optional<LockOperation> operation = this.operations.get(key);
		if (operation == null) {
			LockOperation computed = computeOperation(method, targetClass);
			operation = (computed != null) ? Optional.of(computed) : NO_OPERATION;
			this.operations.put(key, operation);
		}
		return operation.orElse(null);
	}

	private @Nullable LockOperation computeOperation(Method method, @Nullable Class<?> targetClass) {
		Class<?> userClass = (targetClass != null) ? ClassUtils.getUserClass(targetClass) : null;
		Method specificMethod = BridgeMethodResolver
			.findBridgedMethod(AopUtils.getMostSpecificMethod(method, userClass));
		LeaderOnly annotation = AnnotatedElementUtils.findMergedAnnotation(specificMethod, LeaderOnly.class);
		if (annotation == null && specificMethod != method) {
			annotation = AnnotatedElementUtils.findMergedAnnotation(method, LeaderOnly.class);
		}
		if (annotation == null && Modifier.isPublic(specificMethod.getModifiers())
				&& !Modifier.isStatic(specificMethod.getModifiers())) {
			Class<?> declaring = (userClass != null) ? userClass : specificMethod.getDeclaringClass();
			annotation = AnnotatedElementUtils.findMergedAnnotation(declaring, LeaderOnly.class);
		}
		if (annotation == null) {
			return null;
		}
		String group = annotation.group();
		String description = "@LeaderOnly(\"" + group + "\") on " + MethodDescriptions.describe(specificMethod);
		if (group.isBlank()) {
			throw new LockConfigurationException(
					description + ": no group; name one, such as @LeaderOnly(\"billing\")");
		}
		if (group.contains("#{") || group.contains("${")) {
			throw new LockConfigurationException(description + ": the group '" + group
					+ "' must be a constant (an election is joined at startup, before any call), not an "
					+ "expression or a placeholder; name it literally, such as 'billing' or 'jobs/reports'");
		}
		int modifiers = specificMethod.getModifiers();
		if (Modifier.isPrivate(modifiers) || Modifier.isStatic(modifiers)) {
			throw new LockConfigurationException(
					description + ": a proxy cannot intercept a private or static method; make it public");
		}
		LockPathTemplate path = LockPathTemplate.of(group, new LiteralExpression(group), description);
		// Rejects return types no executor can run (a plain Future), at startup.
		LockedReturnType returnType = LockedReturnType.of(specificMethod, description);
		this.groups.add(group);
		return new LeaderOnlyOperation(specificMethod, description, returnType, path, annotation.onNotLeader(),
				this.leadership);
	}

}
