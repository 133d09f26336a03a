package io.github.distlock.interceptor;

import java.lang.reflect.AnnotatedElement;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

import org.jspecify.annotations.Nullable;

import org.springframework.context.expression.AnnotatedElementKey;
import org.springframework.core.DefaultParameterNameDiscoverer;
import org.springframework.core.ParameterNameDiscoverer;
import org.springframework.core.annotation.MergedAnnotation;
import org.springframework.core.annotation.MergedAnnotations;
import org.springframework.core.annotation.MergedAnnotations.SearchStrategy;
import org.springframework.expression.Expression;
import org.springframework.expression.ParseException;

import io.github.distlock.annotation.PartitionOwner;
import io.github.distlock.core.InvalidLockPathException;
import io.github.distlock.core.LockConfigurationException;
import io.github.distlock.core.LockPath;

/**
 * Operation source reading {@link PartitionOwner @PartitionOwner} on a method (the class
 * method or a method it overrides or implements), directly or as a meta-annotation, in
 * the order of {@link AbstractFallbackOperationSource}. Operations are cached per method
 * and target class; an annotation that cannot work fails at startup, naming the method,
 * the annotation and the value: a group that is not a literal lock path, fewer than one
 * partition, a key that does not parse or reads no parameter of the method, a method
 * whose work outlives its return, and two methods giving one group different counts. It
 * remembers every group and its count, so that the application joins them once it has
 * started.
 */
public class PartitionOwnerOperationSource extends AbstractFallbackOperationSource<PartitionOwnerOperation> {

	private final LockExpressionEvaluator evaluator = new LockExpressionEvaluator();

	private final ParameterNameDiscoverer parameterNames = new DefaultParameterNameDiscoverer();

	// Per group: its count, and the first method that named it, for messages.
	private final Map<String, Declaration> groups = new ConcurrentHashMap<>();

	public PartitionOwnerOperationSource() {
		super(Set.of(PartitionOwner.class));
	}

	/**
	 * The groups named by the annotated methods found so far, with their counts, sorted.
	 */
	public Map<String, Integer> groups() {
		Map<String, Integer> counts = new TreeMap<>();
		this.groups.forEach((group, declaration) -> counts.put(group, declaration.partitions()));
		return counts;
	}

	/** The evaluator that parsed the keys, for the interceptor's evaluation contexts. */
	LockExpressionEvaluator expressionEvaluator() {
		return this.evaluator;
	}

	@Override
	protected @Nullable PartitionOwnerOperation findOperation(AnnotatedElement element, Method specificMethod,
			Class<?> targetClass) {
		MergedAnnotation<PartitionOwner> found = MergedAnnotations.from(element, SearchStrategy.TYPE_HIERARCHY)
			.get(PartitionOwner.class);
		if (!found.isPresent()) {
			return null;
		}
		PartitionOwner annotation = found.synthesize();
		String group = annotation.group();
		int partitions = annotation.partitions();
		String keyText = annotation.key();
		String description = "@PartitionOwner(group = \"" + group + "\", partitions = " + partitions + ", key = \""
				+ keyText + "\") on " + MethodDescriptions.describe(specificMethod);
		checkGroup(group, description);
		if (partitions < 1) {
			throw new LockConfigurationException(description + ": partitions = " + partitions
					+ ", but a partitioned group needs at least 1 partition; give the number of partitions the "
					+ "group's keys are spread over, such as partitions = 16");
		}
		int modifiers = specificMethod.getModifiers();
		if (Modifier.isPrivate(modifiers) || Modifier.isStatic(modifiers)) {
			throw new LockConfigurationException(
					description + ": a proxy cannot intercept a private or static method; make it public");
		}
		LockedReturnType returnType = LockedReturnType.of(specificMethod, description);
		if (!(returnType instanceof LockedReturnType.Synchronous)) {
			throw new LockConfigurationException(description + ": the method returns "
					+ specificMethod.getGenericReturnType().getTypeName()
					+ ((returnType instanceof LockedReturnType.Reactive reactive && reactive.suspending())
							? " (a Kotlin suspend function)" : "")
					+ ", whose work goes on after the method returns, but @PartitionOwner holds the partition only "
					+ "while the method runs; do the work before returning (a plain return type)");
		}
		Expression key = parseKey(keyText, new AnnotatedElementKey(specificMethod, targetClass), specificMethod,
				description);
		register(group, partitions, description);
		return new PartitionOwnerOperation(specificMethod, description, group, partitions, key,
				annotation.onNotOwner());
	}

	private static void checkGroup(String group, String description) {
		if (group.isBlank()) {
			throw new LockConfigurationException(
					description + ": no group; name one, such as @PartitionOwner(group = \"tenants\", ...)");
		}
		if (group.contains("#{") || group.contains("${")) {
			throw new LockConfigurationException(description + ": the group '" + group
					+ "' must be a constant (the group is joined at startup, before any call), not an expression "
					+ "or a placeholder; name it literally, such as 'tenants' or 'jobs/tenants'");
		}
		try {
			LockPath.parse(group);
		}
		catch (InvalidLockPathException ex) {
			throw new LockConfigurationException(description + ": the group '" + group + "' is not a valid lock path ("
					+ ex.getMessage() + "); name it as a relative path such as 'tenants' or 'jobs/tenants'");
		}
	}

	private Expression parseKey(String keyText, AnnotatedElementKey element, Method method, String description) {
		if (keyText.isBlank()) {
			throw new LockConfigurationException(
					description + ": no key; give a SpEL expression over the method's parameters, such as '#tenantId'");
		}
		Expression key;
		try {
			key = this.evaluator.parseKey(keyText, element);
		}
		catch (ParseException ex) {
			throw new LockConfigurationException(description + ": key '" + keyText + "' is not a valid SpEL "
					+ "expression: " + ex.getMessage() + "; write a plain expression over the method's parameters, "
					+ "such as '#tenantId' or '#order.customerId' (no #{...} delimiters)");
		}
		@Nullable String @Nullable [] names = this.parameterNames.getParameterNames(method);
		LockAnnotationParser.checkParameterNames(key, "key '" + keyText + "'", names, description);
		Set<String> variables = new LinkedHashSet<>();
		LockAnnotationParser.collectVariables(key, variables);
		if (variables.isEmpty()) {
			throw new LockConfigurationException(description + ": key '" + keyText + "' reads no parameter of the "
					+ "method, so every call would have the same key and run on one instance only; refer to a "
					+ "parameter, such as '#" + ((names != null && names.length > 0) ? names[0] : "p0") + "'");
		}
		return key;
	}

	private void register(String group, int partitions, String description) {
		Declaration first = this.groups.putIfAbsent(group, new Declaration(partitions, description));
		if (first != null && first.partitions() != partitions) {
			throw new LockConfigurationException(description + ": group '" + group + "' is given " + partitions
					+ " partitions, but " + first.description() + " gives it " + first.partitions()
					+ "; every declaration of a group must give the same number of partitions");
		}
	}

	private record Declaration(int partitions, String description) {
	}

}
