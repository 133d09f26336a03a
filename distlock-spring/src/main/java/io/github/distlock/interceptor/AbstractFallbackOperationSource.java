package io.github.distlock.interceptor;

import java.lang.annotation.Annotation;
import java.lang.reflect.AnnotatedElement;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.jspecify.annotations.Nullable;

import org.springframework.aop.support.AopUtils;
import org.springframework.core.BridgeMethodResolver;
import org.springframework.core.MethodClassKey;
import org.springframework.core.annotation.AnnotationUtils;
import org.springframework.core.annotation.MergedAnnotation;
import org.springframework.core.annotation.MergedAnnotations;
import org.springframework.core.annotation.MergedAnnotations.SearchStrategy;
import org.springframework.core.annotation.RepeatableContainers;
import org.springframework.util.ClassUtils;
import org.springframework.util.ReflectionUtils;

/**
 * Base of the operation sources of distlock's annotations: one cache from method and
 * target class to operation, with a marker for "no operation here", and one order in
 * which an annotation is looked for:
 * <ol>
 * <li>the most specific method (the target class's own, bridged), and the methods it
 * overrides or implements;</li>
 * <li>the method called, if it is another (an interface method, when the target class is
 * unknown);</li>
 * <li>the target class, its superclasses and interfaces, for a public instance
 * method;</li>
 * <li>the class declaring the method called (an interface), for a public instance
 * method.</li>
 * </ol>
 * The first annotation found makes the operation, so a method's annotation overrides its
 * class's. A subclass says how an annotation becomes an operation, validating it: a
 * failure is not cached, and is thrown again if asked again.
 *
 * @param <O> the type of operation
 */
public abstract class AbstractFallbackOperationSource<O> implements OperationSource<O> {

	private static final Object NO_OPERATION = new Object();

	private final Set<Class<? extends Annotation>> annotationTypes;

	private final Map<MethodClassKey, Object> operations = new ConcurrentHashMap<>(1024);

	private final Map<Class<?>, Boolean> classes = new ConcurrentHashMap<>(256);

	/**
	 * Create a source.
	 * @param annotationTypes the annotations it reads, directly or as meta-annotations
	 */
	protected AbstractFallbackOperationSource(Set<Class<? extends Annotation>> annotationTypes) {
		this.annotationTypes = Set.copyOf(annotationTypes);
	}

	@Override
	public boolean hasOperations(Class<?> targetClass) {
		Boolean cached = this.classes.get(targetClass);
		if (cached != null) {
			return cached;
		}
		boolean found = false;
		if (AnnotationUtils.isCandidateClass(targetClass, this.annotationTypes)) {
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
	@SuppressWarnings("unchecked")
	public @Nullable O getOperation(Method method, @Nullable Class<?> targetClass) {
		if (ReflectionUtils.isObjectMethod(method)) {
			return null;
		}
		MethodClassKey key = new MethodClassKey(method, targetClass);
		Object operation = this.operations.get(key);
		if (operation == null) {
			O computed = computeOperation(method, targetClass);
			operation = (computed != null) ? computed : NO_OPERATION;
			this.operations.put(key, operation);
		}
		return (operation != NO_OPERATION) ? (O) operation : null;
	}

	private @Nullable O computeOperation(Method method, @Nullable Class<?> targetClass) {
		Class<?> userClass = (targetClass != null) ? ClassUtils.getUserClass(targetClass) : null;
		Method specificMethod = BridgeMethodResolver
			.findBridgedMethod(AopUtils.getMostSpecificMethod(method, userClass));
		Class<?> evaluationClass = (userClass != null) ? userClass : specificMethod.getDeclaringClass();
		// First try is the method in the target class.
		O operation = findOperation(specificMethod, specificMethod, evaluationClass);
		if (operation != null) {
			return operation;
		}
		Method bridged = BridgeMethodResolver.findBridgedMethod(method);
		// Second try is the method called, if the target class's is another one.
		if (bridged != specificMethod) {
			operation = findOperation(bridged, specificMethod, evaluationClass);
			if (operation != null) {
				return operation;
			}
		}
		// A class's annotation covers the public instance methods, which proxies see.
		int modifiers = specificMethod.getModifiers();
		if (!Modifier.isPublic(modifiers) || Modifier.isStatic(modifiers)) {
			return null;
		}
		// Third try is the target class.
		operation = findOperation(evaluationClass, specificMethod, evaluationClass);
		if (operation != null) {
			return operation;
		}
		// Last try is the class of the method called (an interface).
		if (method.getDeclaringClass() != evaluationClass) {
			return findOperation(method.getDeclaringClass(), specificMethod, evaluationClass);
		}
		return null;
	}

	/**
	 * The annotations this source reads on the element and the elements it inherits from
	 * (overridden methods; superclasses and interfaces), in the order of
	 * {@link MergedAnnotation#getAggregateIndex() distance}.
	 * @param element a method or a class
	 * @return the annotations found, empty if none
	 */
	protected final List<MergedAnnotation<Annotation>> findAnnotations(AnnotatedElement element) {
		return MergedAnnotations.from(element, SearchStrategy.TYPE_HIERARCHY, RepeatableContainers.none())
			.stream()
			.filter((annotation) -> this.annotationTypes.contains(annotation.getType()))
			.toList();
	}

	/**
	 * Return the operation that an annotation on the element declares for the method,
	 * validated, or {@code null} if the element (and what it inherits from) carries none.
	 * @param element where to look: a method, or a class for a class-level annotation
	 * @param method the method the operation is for: the target class's
	 * @param targetClass the class against which expressions are evaluated
	 * @return the operation, or {@code null}
	 * @throws io.github.distlock.core.LockConfigurationException if the annotation cannot
	 * work
	 */
	protected abstract @Nullable O findOperation(AnnotatedElement element, Method method, Class<?> targetClass);

}
