package io.github.distlock.interceptor;

import java.lang.reflect.AnnotatedElement;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanFactoryAware;
import org.springframework.core.annotation.MergedAnnotation;
import org.springframework.core.annotation.MergedAnnotations;
import org.springframework.core.annotation.MergedAnnotations.SearchStrategy;
import org.springframework.expression.common.LiteralExpression;

import io.github.distlock.annotation.LeaderOnly;
import io.github.distlock.core.Leadership;
import io.github.distlock.core.LockConfigurationException;

/**
 * Operation source reading {@link LeaderOnly @LeaderOnly} on a method (the class method
 * or a method it overrides or implements) or on its class (every public method), directly
 * or as a meta-annotation, in the order of {@link AbstractFallbackOperationSource}.
 * Operations are cached per method and target class; a group that cannot work fails at
 * startup, naming the method. It remembers every group it found, so that the application
 * joins their elections once it has started.
 */
public class LeaderOnlyOperationSource extends AbstractFallbackOperationSource<LockOperation>
		implements BeanFactoryAware {

	private final Set<String> groups = ConcurrentHashMap.newKeySet();

	private final Supplier<Leadership> leadership;

	private @Nullable BeanFactory beanFactory;

	/**
	 * Create a source.
	 * @param leadership the leader election, asked for on the first call
	 */
	public LeaderOnlyOperationSource(Supplier<Leadership> leadership) {
		super(Set.of(LeaderOnly.class));
		this.leadership = leadership;
	}

	/**
	 * Look up the fencing of transactions there, for {@code fenced = true}.
	 * @param beanFactory the context's bean factory
	 */
	@Override
	public void setBeanFactory(BeanFactory beanFactory) {
		this.beanFactory = beanFactory;
	}

	/** The groups named by the annotated methods found so far, sorted. */
	public Set<String> groups() {
		return new TreeSet<>(this.groups);
	}

	@Override
	protected @Nullable LockOperation findOperation(AnnotatedElement element, Method specificMethod,
			Class<?> targetClass) {
		MergedAnnotation<LeaderOnly> found = MergedAnnotations.from(element, SearchStrategy.TYPE_HIERARCHY)
			.get(LeaderOnly.class);
		if (!found.isPresent()) {
			return null;
		}
		LeaderOnly annotation = found.synthesize();
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
		if (annotation.fenced()) {
			FencedCalls.check(this.beanFactory, returnType, description);
		}
		this.groups.add(group);
		return new LeaderOnlyOperation(specificMethod, description, returnType, path, annotation.onNotLeader(),
				this.leadership, annotation.fenced());
	}

}
