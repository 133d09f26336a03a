package io.github.distlock.interceptor;

import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

import org.jspecify.annotations.Nullable;

import org.springframework.aop.support.AopUtils;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanFactoryAware;
import org.springframework.core.BridgeMethodResolver;
import org.springframework.core.MethodClassKey;
import org.springframework.core.annotation.AnnotationConfigurationException;
import org.springframework.core.annotation.AnnotationUtils;
import org.springframework.core.annotation.MergedAnnotation;
import org.springframework.core.annotation.MergedAnnotations;
import org.springframework.core.annotation.MergedAnnotations.SearchStrategy;
import org.springframework.core.annotation.RepeatableContainers;
import org.springframework.util.ClassUtils;
import org.springframework.util.ReflectionUtils;

import io.github.distlock.annotation.DistributedLock;
import io.github.distlock.annotation.ReadLock;
import io.github.distlock.annotation.Semaphore;
import io.github.distlock.annotation.WriteLock;
import io.github.distlock.core.LockConfigurationException;

/**
 * {@link LockOperationSource} reading {@link DistributedLock @DistributedLock},
 * {@link ReadLock @ReadLock}, {@link WriteLock @WriteLock} and
 * {@link Semaphore @Semaphore}, directly or as meta-annotations, on the class method or
 * on a method it overrides or implements (the nearest declaration wins). Operations are
 * cached per method and target class, with a marker for "no operation here"; the
 * annotation itself is turned into an operation by a {@link LockAnnotationParser}, which
 * reports every problem that can be known before a call with a
 * {@link LockConfigurationException} naming the method, the annotation, the bad value and
 * the fix. Two annotations of one kind whose paths can nest (such as {@code orders} and
 * {@code orders/#{#id}}) are refused too.
 */
public class AnnotationLockOperationSource implements LockOperationSource, BeanFactoryAware {

	private static final Optional<LockOperation> NO_OPERATION = Optional.empty();

	private static final Set<Class<? extends Annotation>> LOCK_ANNOTATIONS = Set.of(DistributedLock.class,
			ReadLock.class, WriteLock.class, Semaphore.class);

	private final Map<MethodClassKey, Optional<LockOperation>> operations = new ConcurrentHashMap<>(1024);

	private final Map<Class<?>, Boolean> classes = new ConcurrentHashMap<>(256);

	private final LockExpressionEvaluator evaluator = new LockExpressionEvaluator();

	private final LockAnnotationParser parser = new LockAnnotationParser(this.evaluator);

	private final LockPathNesting nesting = new LockPathNesting();

	@Override
	public void setBeanFactory(BeanFactory beanFactory) {
		this.parser.setBeanFactory(beanFactory);
	}

	/**
	 * The evaluator that parsed the operations' expressions: the interceptor creates its
	 * evaluation contexts with it too, so that one evaluator serves both.
	 */
	LockExpressionEvaluator expressionEvaluator() {
		return this.evaluator;
	}

	@Override
	public boolean hasOperations(Class<?> targetClass) {
		Boolean cached = this.classes.get(targetClass);
		if (cached != null) {
			return cached;
		}
		boolean found = false;
		if (AnnotationUtils.isCandidateClass(targetClass, LOCK_ANNOTATIONS)) {
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
			// A failure is not cached: it is thrown again if asked again.
			LockOperation computed = computeOperation(method, targetClass);
			if (computed != null) {
				this.nesting.register(computed);
			}
			operation = (computed != null) ? Optional.of(computed) : NO_OPERATION;
			this.operations.put(key, operation);
		}
		return operation.orElse(null);
	}

	private @Nullable LockOperation computeOperation(Method method, @Nullable Class<?> targetClass) {
		Class<?> userClass = (targetClass != null) ? ClassUtils.getUserClass(targetClass) : null;
		Method specificMethod = BridgeMethodResolver
			.findBridgedMethod(AopUtils.getMostSpecificMethod(method, userClass));
		MergedAnnotation<Annotation> annotation = findAnnotation(specificMethod);
		if (annotation == null && specificMethod != method) {
			annotation = findAnnotation(BridgeMethodResolver.findBridgedMethod(method));
		}
		if (annotation == null) {
			return null;
		}
		Class<?> evaluationClass = (userClass != null) ? userClass : specificMethod.getDeclaringClass();
		try {
			return this.parser.parse(annotation, specificMethod, evaluationClass);
		}
		catch (AnnotationConfigurationException ex) {
			throw new LockConfigurationException("@" + annotation.getType().getSimpleName() + " on "
					+ MethodDescriptions.describe(specificMethod) + " is malformed: " + ex.getMessage());
		}
	}

	private @Nullable MergedAnnotation<Annotation> findAnnotation(Method method) {
		List<MergedAnnotation<Annotation>> found = MergedAnnotations
			.from(method, SearchStrategy.TYPE_HIERARCHY, RepeatableContainers.none())
			.stream()
			.filter((annotation) -> LOCK_ANNOTATIONS.contains(annotation.getType()))
			.toList();
		if (found.isEmpty()) {
			return null;
		}
		// The nearest declaration wins: the class method over the interface method.
		int nearest = found.stream().mapToInt(MergedAnnotation::getAggregateIndex).min().getAsInt();
		List<MergedAnnotation<Annotation>> candidates = found.stream()
			.filter((annotation) -> annotation.getAggregateIndex() == nearest)
			.toList();
		if (candidates.size() > 1) {
			throw new LockConfigurationException(
					MethodDescriptions.describe(method) + " carries " + candidates.size() + " lock annotations ("
							+ candidates.stream().map(LockAnnotationParser::name).collect(Collectors.joining(", "))
							+ "); a method can hold only one lock annotation, so remove all but one");
		}
		return candidates.get(0);
	}

}
