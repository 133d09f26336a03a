package io.github.distlock.interceptor;

import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Flow;
import java.util.concurrent.Future;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import org.jspecify.annotations.Nullable;

import org.springframework.aop.support.AopUtils;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanFactoryAware;
import org.springframework.beans.factory.config.ConfigurableBeanFactory;
import org.springframework.context.expression.AnnotatedElementKey;
import org.springframework.core.BridgeMethodResolver;
import org.springframework.core.DefaultParameterNameDiscoverer;
import org.springframework.core.MethodClassKey;
import org.springframework.core.ParameterNameDiscoverer;
import org.springframework.core.ReactiveAdapterRegistry;
import org.springframework.core.annotation.AnnotationConfigurationException;
import org.springframework.core.annotation.AnnotationUtils;
import org.springframework.core.annotation.MergedAnnotation;
import org.springframework.core.annotation.MergedAnnotations;
import org.springframework.core.annotation.MergedAnnotations.SearchStrategy;
import org.springframework.core.annotation.RepeatableContainers;
import org.springframework.expression.Expression;
import org.springframework.expression.ParseException;
import org.springframework.expression.common.CompositeStringExpression;
import org.springframework.expression.common.LiteralExpression;
import org.springframework.expression.spel.SpelNode;
import org.springframework.expression.spel.ast.VariableReference;
import org.springframework.expression.spel.standard.SpelExpression;
import org.springframework.util.ClassUtils;
import org.springframework.util.ReflectionUtils;

import io.github.distlock.annotation.DistributedLock;
import io.github.distlock.annotation.OnTimeout;
import io.github.distlock.annotation.ReadLock;
import io.github.distlock.annotation.Semaphore;
import io.github.distlock.annotation.WriteLock;
import io.github.distlock.core.LockConfigurationException;
import io.github.distlock.core.LockTimeoutException;

/**
 * {@link LockOperationSource} reading {@link DistributedLock @DistributedLock},
 * {@link ReadLock @ReadLock}, {@link WriteLock @WriteLock} and
 * {@link Semaphore @Semaphore}, directly or as meta-annotations, on the class method or
 * on a method it overrides or implements (the nearest declaration wins). Every problem
 * that can be known before a call is reported here, with a
 * {@link LockConfigurationException} naming the method, the annotation, the bad value and
 * the fix.
 */
public class AnnotationLockOperationSource implements LockOperationSource, BeanFactoryAware {

	private static final Optional<LockOperation> NO_OPERATION = Optional.empty();

	private static final Set<Class<? extends Annotation>> LOCK_ANNOTATIONS = Set.of(DistributedLock.class,
			ReadLock.class, WriteLock.class, Semaphore.class);

	private static final Pattern POSITIONAL = Pattern.compile("[pa]\\d+");

	private final ParameterNameDiscoverer parameterNames = new DefaultParameterNameDiscoverer();

	private final Map<MethodClassKey, Optional<LockOperation>> operations = new ConcurrentHashMap<>(1024);

	private final Map<Class<?>, Boolean> classes = new ConcurrentHashMap<>(256);

	private final LockExpressionEvaluator evaluator = new LockExpressionEvaluator();

	private @Nullable BeanFactory beanFactory;

	@Override
	public void setBeanFactory(BeanFactory beanFactory) {
		this.beanFactory = beanFactory;
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
			return parse(annotation, specificMethod, evaluationClass);
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
			throw new LockConfigurationException(MethodDescriptions.describe(method) + " carries " + candidates.size()
					+ " lock annotations (" + candidates.stream().map(this::name).collect(Collectors.joining(", "))
					+ "); a method can hold only one lock annotation, so remove all but one");
		}
		return candidates.get(0);
	}

	private String name(MergedAnnotation<?> annotation) {
		String name = "@" + annotation.getType().getSimpleName();
		MergedAnnotation<?> root = annotation.getRoot();
		return (root == annotation || root.getType() == annotation.getType()) ? name
				: name + " (via @" + root.getType().getSimpleName() + ")";
	}

	private LockOperation parse(MergedAnnotation<Annotation> annotation, Method method, Class<?> targetClass) {
		String template = annotation.getString("value");
		String type = "@" + annotation.getType().getSimpleName();
		String description = name(annotation).replaceFirst("^" + type, type + "(\"" + template + "\")") + " on "
				+ MethodDescriptions.describe(method);
		checkMethod(method, description);
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
		WaitTime waitTime = parseWaitTime(annotation.getString("waitTime"), element, description, parameterNames);
		TimeoutPolicy onTimeout = parseTimeoutPolicy(annotation.getEnum("onTimeout", OnTimeout.class),
				annotation.getString("fallback"), method, targetClass, description);
		Class<?> kind = annotation.getType();
		if (kind == ReadLock.class || kind == WriteLock.class) {
			return new ReadWriteOperation(method, description, path, waitTime, onTimeout, kind == WriteLock.class);
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
			return new SemaphoreOperation(method, description, path, waitTime, onTimeout, permits);
		}
		return new MutexOperation(method, description, path, waitTime, onTimeout, annotation.getBoolean("reentrant"));
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

	private void checkMethod(Method method, String description) {
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
		Class<?> returnType = method.getReturnType();
		if (CompletionStage.class.isAssignableFrom(returnType) || Future.class.isAssignableFrom(returnType)
				|| Flow.Publisher.class.isAssignableFrom(returnType)
				|| ReactiveAdapterRegistry.getSharedInstance().getAdapter(returnType) != null) {
			throw new LockConfigurationException(description + ": the method returns " + returnType.getName()
					+ ", but asynchronous methods are not supported yet: the lock "
					+ "would be released while the work is still running; return a plain value, or take "
					+ "the lock with the Locks API inside the asynchronous work");
		}
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
		return LockPathTemplate.of(parsed, description);
	}

	private WaitTime parseWaitTime(String value, AnnotatedElementKey element, String description,
			@Nullable String @Nullable [] parameterNames) {
		String text = value.trim();
		if (text.contains("${")) {
			text = resolvePlaceholders("waitTime", text, "${my.wait:5s}", description);
		}
		if (text.isEmpty()) {
			return WaitTime.DEFAULT;
		}
		if (text.contains("#{")) {
			Expression expression;
			try {
				expression = this.evaluator.parseWaitTime(text, element);
			}
			catch (ParseException ex) {
				throw new LockConfigurationException(description + ": waitTime '" + value
						+ "' is not a valid expression: " + ex.getMessage() + "; " + WaitTime.FORMS);
			}
			if (!(expression instanceof LiteralExpression)) {
				checkParameterNames(expression, "waitTime '" + value + "'", parameterNames, description);
				return new WaitTime.Evaluated(expression);
			}
		}
		try {
			return new WaitTime.Fixed(WaitTime.parse(text));
		}
		catch (IllegalArgumentException ex) {
			String shown = text.equals(value) ? "'" + value + "'" : "'" + value + "' (resolved to '" + text + "')";
			throw new LockConfigurationException(description + ": waitTime " + shown + " is not a wait time: "
					+ ex.getMessage() + "; " + WaitTime.FORMS);
		}
	}

	/**
	 * Fail now, not on the first call, when an expression names a parameter
	 * ({@code #order}) of a method whose class was compiled without parameter names: the
	 * name would evaluate to {@code null} on every call.
	 */
	private static void checkParameterNames(Expression expression, String attribute,
			@Nullable String @Nullable [] parameterNames, String description) {
		if (parameterNames != null) {
			return;
		}
		Set<String> variables = new LinkedHashSet<>();
		collectVariables(expression, variables);
		variables.removeIf((name) -> name.equals("root") || name.equals("this") || POSITIONAL.matcher(name).matches());
		if (!variables.isEmpty()) {
			String named = variables.stream().map((name) -> "#" + name).collect(Collectors.joining(", "));
			throw new LockConfigurationException(description + ": " + attribute + " refers to " + named
					+ " by name, but the class was compiled without parameter names, so " + named
					+ " would be null on every call; compile with 'javac -parameters' (Spring Boot's Maven and Gradle "
					+ "plugins set it; IDE builds need it in their compiler settings too), or refer to parameters by "
					+ "position: #p0 (or #a0) for the first");
		}
	}

	private static void collectVariables(Expression expression, Set<String> variables) {
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
		Class<?>[] parameters = method.getParameterTypes();
		List<Method> sameName = Arrays.asList(ReflectionUtils.getUniqueDeclaredMethods(targetClass,
				(candidate) -> candidate.getName().equals(fallback)));
		List<Method> plain = new ArrayList<>();
		List<Method> withException = new ArrayList<>();
		for (Method candidate : sameName) {
			Class<?>[] types = candidate.getParameterTypes();
			if (Arrays.equals(types, parameters)) {
				plain.add(candidate);
			}
			else if (types.length == parameters.length + 1
					&& Arrays.equals(Arrays.copyOf(types, parameters.length), parameters)
					&& types[parameters.length].isAssignableFrom(LockTimeoutException.class)) {
				withException.add(candidate);
			}
		}
		String expected = fallback + "("
				+ Arrays.stream(parameters).map(ClassUtils::getShortName).collect(Collectors.joining(", ")) + ")"
				+ " or " + fallback + "("
				+ Arrays.stream(parameters)
					.map((type) -> ClassUtils.getShortName(type) + ", ")
					.collect(Collectors.joining())
				+ "LockTimeoutException)";
		if (sameName.isEmpty()) {
			throw new LockConfigurationException(description + ": fallback method '" + fallback + "' not found on "
					+ targetClass.getName() + "; declare " + expected + " returning "
					+ method.getReturnType().getSimpleName() + " on the same bean");
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

}
