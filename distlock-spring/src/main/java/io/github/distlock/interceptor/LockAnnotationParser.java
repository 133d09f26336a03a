package io.github.distlock.interceptor;

import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.config.ConfigurableBeanFactory;
import org.springframework.context.expression.AnnotatedElementKey;
import org.springframework.core.DefaultParameterNameDiscoverer;
import org.springframework.core.ParameterNameDiscoverer;
import org.springframework.core.annotation.MergedAnnotation;
import org.springframework.expression.Expression;
import org.springframework.expression.ParseException;
import org.springframework.expression.common.CompositeStringExpression;
import org.springframework.expression.common.LiteralExpression;
import org.springframework.expression.spel.SpelNode;
import org.springframework.expression.spel.ast.VariableReference;
import org.springframework.expression.spel.standard.SpelExpression;

import io.github.distlock.annotation.OnTimeout;
import io.github.distlock.annotation.ReadLock;
import io.github.distlock.annotation.Semaphore;
import io.github.distlock.annotation.WriteLock;
import io.github.distlock.core.LockConfigurationException;

/**
 * Turns one lock annotation of one method into its {@link LockOperation}, validating it
 * as a whole: the method (can a proxy intercept it, can its return type be locked), the
 * path template, the wait time, the permits and the timeout policy. Every problem is a
 * {@link LockConfigurationException} whose message starts with the annotation and the
 * method and ends with the fix.
 */
final class LockAnnotationParser {

	private static final Pattern POSITIONAL = Pattern.compile("[pa]\\d+");

	private final LockExpressionEvaluator evaluator;

	private final ParameterNameDiscoverer parameterNames = new DefaultParameterNameDiscoverer();

	private final FallbackMethodResolver fallbacks = new FallbackMethodResolver();

	private @Nullable BeanFactory beanFactory;

	LockAnnotationParser(LockExpressionEvaluator evaluator) {
		this.evaluator = evaluator;
	}

	void setBeanFactory(BeanFactory beanFactory) {
		this.beanFactory = beanFactory;
	}

	/**
	 * Name an annotation for messages: {@code @DistributedLock}, or
	 * {@code @DistributedLock (via @TenantLock)} for a meta-annotation.
	 */
	static String name(MergedAnnotation<?> annotation) {
		String name = "@" + annotation.getType().getSimpleName();
		MergedAnnotation<?> root = annotation.getRoot();
		return (root == annotation || root.getType() == annotation.getType()) ? name
				: name + " (via @" + root.getType().getSimpleName() + ")";
	}

	/**
	 * Parse a lock annotation.
	 * @param annotation the annotation found on the method
	 * @param method the annotated method as declared on the target class
	 * @param targetClass the class whose methods expressions and fallbacks are looked up
	 * on
	 * @return the operation
	 * @throws LockConfigurationException if the annotation cannot work
	 */
	LockOperation parse(MergedAnnotation<Annotation> annotation, Method method, Class<?> targetClass) {
		String template = annotation.getString("value");
		String type = "@" + annotation.getType().getSimpleName();
		String description = name(annotation).replaceFirst("^" + type, type + "(\"" + template + "\")") + " on "
				+ MethodDescriptions.describe(method);
		LockedReturnType returnType = checkMethod(method, description);
		AnnotatedElementKey element = new AnnotatedElementKey(method, targetClass);
		@Nullable String @Nullable [] parameterNames = this.parameterNames.getParameterNames(method);
		LockPathTemplate path = parsePath(template, type, element, description, parameterNames).bind(method,
				parameterNames);
		List<String> collectionParts = path.collectionParts(method);
		if (collectionParts.size() > 1) {
			throw new LockConfigurationException(description + ": parts " + String.join(" and ", collectionParts)
					+ " of path template '" + template + "' both give collections; at most one part of a template "
					+ "may give a collection (a multi-lock over one list of paths)");
		}
		DurationTemplate waitTime = parseDuration(DurationTemplate.Attribute.WAIT_TIME,
				annotation.getString("waitTime"), element, description, parameterNames);
		TimeoutPolicy onTimeout = parseTimeoutPolicy(annotation.getEnum("onTimeout", OnTimeout.class),
				annotation.getString("fallback"), method, targetClass, description);
		Class<?> kind = annotation.getType();
		// Only the exclusive kinds have the attribute: the holders of a read lock or a
		// semaphore overlap by design, so their tokens cannot fence one another.
		boolean fenced = annotation.getValue("fenced", Boolean.class).orElse(false);
		if (fenced) {
			checkFenced(returnType, description);
		}
		if (kind == ReadLock.class || kind == WriteLock.class) {
			return new ReadWriteOperation(method, description, returnType, path, waitTime, onTimeout,
					kind == WriteLock.class, fenced);
		}
		if (kind == Semaphore.class) {
			if (!collectionParts.isEmpty()) {
				throw new LockConfigurationException(description + ": part " + collectionParts.get(0)
						+ " of path template '" + template + "' gives a collection, but a semaphore guards one "
						+ "path and cannot be taken over several (no multi-lock for @Semaphore); lock one path, "
						+ "or use @DistributedLock, @ReadLock or @WriteLock for a multi-lock");
			}
			int permits = parsePermits(annotation.getInt("permits"), annotation.getString("permitsString"),
					description);
			return new SemaphoreOperation(method, description, returnType, path, waitTime, onTimeout, permits);
		}
		DurationTemplate holdAtLeast = parseDuration(DurationTemplate.Attribute.HOLD_AT_LEAST,
				annotation.getString("holdAtLeast"), element, description, parameterNames);
		return new MutexOperation(method, description, returnType, path, waitTime, onTimeout,
				annotation.getBoolean("reentrant"), holdAtLeast, fenced);
	}

	private void checkFenced(LockedReturnType returnType, String description) {
		FencedCalls.check(this.beanFactory, returnType, description);
	}

	/**
	 * Check that a proxy can intercept the method and that its return type can be locked.
	 * @return how long the method's work lasts, told by its return type
	 */
	private LockedReturnType checkMethod(Method method, String description) {
		if (Modifier.isStatic(method.getModifiers()) || Modifier.isPrivate(method.getModifiers())) {
			throw new LockConfigurationException(
					description + ": the method is " + (Modifier.isStatic(method.getModifiers()) ? "static" : "private")
							+ ", so no proxy can intercept it and the lock would never be taken; "
							+ "make it a public (or protected) instance method called through the bean");
		}
		if (Modifier.isFinal(method.getModifiers())) {
			// A CGLIB proxy (Spring Boot's default) cannot override a final method: calls
			// would run the method without the lock, silently.
			throw new LockConfigurationException(description + ": the method is final, so a class-based (CGLIB) "
					+ "proxy cannot override it and the lock would silently not be taken; remove 'final' from "
					+ "the method");
		}
		return LockedReturnType.of(method, description);
	}

	private int parsePermits(int permits, String permitsString, String description) {
		String text = permitsString.trim();
		if (!text.isEmpty() && permits != 0) {
			throw new LockConfigurationException(description + ": both permits = " + permits + " and permitsString = \""
					+ permitsString + "\" are given; keep only one of them");
		}
		if (text.isEmpty()) {
			if (permits < 1) {
				throw new LockConfigurationException(description + ": permits = " + permits
						+ (permits == 0 ? " (none given)" : "") + ", but a semaphore needs at least 1 permit; give "
						+ "permits = N or permitsString = \"${my.permits}\" with N >= 1");
			}
			return permits;
		}
		String resolved = text.contains("${")
				? resolvePlaceholders("permitsString", text, "${my.permits:2}", description) : text;
		String shown = resolved.equals(permitsString) ? "'" + permitsString + "'"
				: "'" + permitsString + "' (resolved to '" + resolved + "')";
		int parsed;
		try {
			parsed = Integer.parseInt(resolved.trim());
		}
		catch (NumberFormatException ex) {
			throw new LockConfigurationException(description + ": permitsString " + shown
					+ " is not a number of permits; give a whole number of at least 1, or a placeholder "
					+ "resolving to one");
		}
		if (parsed < 1) {
			throw new LockConfigurationException(description + ": permitsString " + shown + " gives " + parsed
					+ " permits, but a semaphore needs at least 1");
		}
		return parsed;
	}

	private LockPathTemplate parsePath(String template, String type, AnnotatedElementKey element, String description,
			@Nullable String @Nullable [] parameterNames) {
		if (template.isBlank()) {
			throw new LockConfigurationException(
					description + ": no lock path; give one such as " + type + "(\"orders/#{#order.id}\")");
		}
		Expression parsed;
		try {
			parsed = this.evaluator.parsePath(template, element);
		}
		catch (ParseException ex) {
			throw new LockConfigurationException(
					description + ": path template '" + template + "' is not a valid template: " + ex.getMessage()
							+ "; write literal text and #{expression} parts, such as 'orders/#{#order.id}'");
		}
		checkParameterNames(parsed, "path template '" + template + "'", parameterNames, description);
		return LockPathTemplate.of(template, parsed, description);
	}

	/**
	 * Parse a duration attribute: resolve its placeholders, then read it as the
	 * attribute's empty value, a literal duration or a {@code #{expression}} evaluated
	 * per call.
	 */
	private DurationTemplate parseDuration(DurationTemplate.Attribute attribute, String value,
			AnnotatedElementKey element, String description, @Nullable String @Nullable [] parameterNames) {
		String name = attribute.attributeName();
		String text = value.trim();
		if (text.contains("${")) {
			text = resolvePlaceholders(name, text, attribute.placeholderExample(), description);
		}
		if (text.isEmpty()) {
			return attribute.whenEmpty();
		}
		if (text.contains("#{")) {
			Expression expression;
			try {
				expression = this.evaluator.parseDuration(text, element);
			}
			catch (ParseException ex) {
				throw new LockConfigurationException(description + ": " + name + " '" + value
						+ "' is not a valid expression: " + ex.getMessage() + "; " + attribute.forms());
			}
			if (!(expression instanceof LiteralExpression)) {
				checkParameterNames(expression, name + " '" + value + "'", parameterNames, description);
				return new DurationTemplate.Evaluated(attribute, expression);
			}
		}
		try {
			return new DurationTemplate.Fixed(attribute.parse(text));
		}
		catch (IllegalArgumentException ex) {
			String shown = text.equals(value) ? "'" + value + "'" : "'" + value + "' (resolved to '" + text + "')";
			throw new LockConfigurationException(description + ": " + name + " " + shown + " is not "
					+ attribute.literalName() + ": " + ex.getMessage() + "; " + attribute.forms());
		}
	}

	/**
	 * Fail now, not on the first call, when an expression names a parameter
	 * ({@code #order}) of a method whose class was compiled without parameter names: the
	 * name would evaluate to {@code null} on every call.
	 */
	static void checkParameterNames(Expression expression, String attribute,
			@Nullable String @Nullable [] parameterNames, String description) {
		Set<String> variables = new LinkedHashSet<>();
		collectVariables(expression, variables);
		variables.removeIf((name) -> name.equals("root") || name.equals("this"));
		if (parameterNames != null) {
			checkVariablesAreParameters(variables, attribute, parameterNames, description);
			return;
		}
		variables.removeIf((name) -> POSITIONAL.matcher(name).matches());
		if (!variables.isEmpty()) {
			String named = variables.stream().map((name) -> "#" + name).collect(Collectors.joining(", "));
			throw new LockConfigurationException(description + ": " + attribute + " refers to " + named
					+ " by name, but the class was compiled without parameter names, so " + named
					+ " would be null on every call; compile with 'javac -parameters' (Spring Boot's Maven and Gradle "
					+ "plugins set it; IDE builds need it in their compiler settings too), or refer to parameters by "
					+ "position: #p0 (or #a0) for the first");
		}
	}

	/**
	 * Fail now, not on the first call, when an expression refers to a variable that the
	 * call's evaluation context will not have: a misspelt parameter name ({@code #ordr}),
	 * or a position past the last parameter ({@code #p2} of a method with two). SpEL
	 * would evaluate it to {@code null} and the first call would fail.
	 */
	private static void checkVariablesAreParameters(Set<String> variables, String attribute,
			@Nullable String[] parameterNames, String description) {
		List<String> names = Arrays.stream(parameterNames).filter(Objects::nonNull).toList();
		List<String> unknown = variables.stream()
			.filter((name) -> !names.contains(name) && !isPosition(name, parameterNames.length))
			.map((name) -> "#" + name)
			.toList();
		if (unknown.isEmpty()) {
			return;
		}
		String parameters = names.isEmpty() ? "the method has no parameters" : "the method's parameters are "
				+ names.stream().map((name) -> "#" + name).collect(Collectors.joining(", ")) + ((names.size() == 1)
						? " (or #p0 by position)" : " (or #p0 to #p" + (names.size() - 1) + " by position)");
		String which = (unknown.size() == 1) ? unknown.get(0) + ", which is not a parameter of the method"
				: String.join(", ", unknown) + ", which are not parameters of the method";
		throw new LockConfigurationException(description + ": " + attribute + " refers to " + which + ": " + parameters
				+ "; refer to a parameter by its name or position, or to #root.method, #root.args "
				+ "or #root.target (see docs/paths.md for the variables of an expression)");
	}

	private static boolean isPosition(String name, int parameterCount) {
		// A position of more than six digits is past the last parameter of any method.
		return POSITIONAL.matcher(name).matches() && name.length() <= 7
				&& Integer.parseInt(name.substring(1)) < parameterCount;
	}

	static void collectVariables(Expression expression, Set<String> variables) {
		if (expression instanceof CompositeStringExpression composite) {
			for (Expression part : composite.getExpressions()) {
				collectVariables(part, variables);
			}
		}
		else if (expression instanceof SpelExpression spel) {
			collectVariables(spel.getAST(), variables);
		}
	}

	private static void collectVariables(SpelNode node, Set<String> variables) {
		if (node instanceof VariableReference) {
			variables.add(node.toStringAST().substring(1));
		}
		for (int i = 0; i < node.getChildCount(); i++) {
			collectVariables(node.getChild(i), variables);
		}
	}

	private String resolvePlaceholders(String attribute, String text, String example, String description) {
		if (!(this.beanFactory instanceof ConfigurableBeanFactory configurable)) {
			throw new LockConfigurationException(description + ": " + attribute + " '" + text
					+ "' has a placeholder, but there is no bean factory to resolve it; declare the lock "
					+ "operation source as a Spring bean");
		}
		String resolved;
		try {
			resolved = configurable.resolveEmbeddedValue(text);
		}
		catch (IllegalArgumentException ex) {
			throw new LockConfigurationException(
					description + ": " + attribute + " '" + text + "' could not be resolved: " + ex.getMessage()
							+ "; define the property or give a default such as " + example);
		}
		if (resolved == null || resolved.contains("${")) {
			throw new LockConfigurationException(
					description + ": " + attribute + " '" + text + "' could not be resolved (got '" + resolved
							+ "'); define the property or give a default such as " + example);
		}
		return resolved.trim();
	}

	private TimeoutPolicy parseTimeoutPolicy(OnTimeout onTimeout, String fallback, Method method, Class<?> targetClass,
			String description) {
		if (fallback.isEmpty()) {
			return (onTimeout == OnTimeout.SKIP) ? TimeoutPolicy.SKIP : TimeoutPolicy.THROW;
		}
		if (onTimeout == OnTimeout.SKIP) {
			throw new LockConfigurationException(description + ": onTimeout = SKIP and fallback = \"" + fallback
					+ "\" both say what to do on timeout; keep only one of them");
		}
		return this.fallbacks.resolve(fallback, method, targetClass, description);
	}

}
