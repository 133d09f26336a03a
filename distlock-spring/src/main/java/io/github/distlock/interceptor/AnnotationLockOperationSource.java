package io.github.distlock.interceptor;

import java.lang.annotation.Annotation;
import java.lang.reflect.AnnotatedElement;
import java.lang.reflect.Method;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanFactoryAware;
import org.springframework.core.annotation.AnnotationConfigurationException;
import org.springframework.core.annotation.MergedAnnotation;

import io.github.distlock.annotation.DistributedLock;
import io.github.distlock.annotation.ReadLock;
import io.github.distlock.annotation.Semaphore;
import io.github.distlock.annotation.WriteLock;
import io.github.distlock.core.LockConfigurationException;

/**
 * {@link LockOperationSource} reading {@link DistributedLock @DistributedLock},
 * {@link ReadLock @ReadLock}, {@link WriteLock @WriteLock} and
 * {@link Semaphore @Semaphore}, directly or as meta-annotations, on the class method or
 * on a method it overrides or implements (the nearest declaration wins), else on the
 * class (every public method), in the order of {@link AbstractFallbackOperationSource}.
 * Operations are cached per method and target class, with a marker for "no operation
 * here"; the annotation itself is turned into an operation by a
 * {@link LockAnnotationParser}, which reports every problem that can be known before a
 * call with a {@link LockConfigurationException} naming the method, the annotation, the
 * bad value and the fix. Two annotations of one kind whose paths can nest (such as
 * {@code orders} and {@code orders/#{#id}}) are refused too.
 */
public class AnnotationLockOperationSource extends AbstractFallbackOperationSource<LockOperation>
		implements LockOperationSource, BeanFactoryAware {

	private static final Set<Class<? extends Annotation>> LOCK_ANNOTATIONS = Set.of(DistributedLock.class,
			ReadLock.class, WriteLock.class, Semaphore.class);

	private final LockExpressionEvaluator evaluator = new LockExpressionEvaluator();

	private final LockAnnotationParser parser = new LockAnnotationParser(this.evaluator);

	private final LockPathNesting nesting = new LockPathNesting();

	public AnnotationLockOperationSource() {
		super(LOCK_ANNOTATIONS);
	}

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
	protected @Nullable LockOperation findOperation(AnnotatedElement element, Method method, Class<?> targetClass) {
		MergedAnnotation<Annotation> annotation = findAnnotation(element);
		if (annotation == null) {
			return null;
		}
		LockOperation operation;
		try {
			operation = this.parser.parse(annotation, method, targetClass);
		}
		catch (AnnotationConfigurationException ex) {
			throw new LockConfigurationException("@" + annotation.getType().getSimpleName() + " on "
					+ MethodDescriptions.describe(method) + " is malformed: " + ex.getMessage());
		}
		this.nesting.register(operation);
		return operation;
	}

	private @Nullable MergedAnnotation<Annotation> findAnnotation(AnnotatedElement element) {
		List<MergedAnnotation<Annotation>> found = findAnnotations(element);
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
					describe(element) + " carries " + candidates.size() + " lock annotations ("
							+ candidates.stream().map(LockAnnotationParser::name).collect(Collectors.joining(", "))
							+ "); a method can hold only one lock annotation, so remove all but one");
		}
		return candidates.get(0);
	}

	private static String describe(AnnotatedElement element) {
		return (element instanceof Method method) ? MethodDescriptions.describe(method)
				: ((Class<?>) element).getName();
	}

}
