package io.github.distlock.interceptor;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.TreeSet;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

import org.springframework.expression.EvaluationContext;
import org.springframework.expression.EvaluationException;
import org.springframework.expression.Expression;
import org.springframework.expression.common.CompositeStringExpression;
import org.springframework.expression.common.LiteralExpression;
import org.springframework.util.ObjectUtils;

import io.github.distlock.core.InvalidLockPathException;
import io.github.distlock.core.LockConfigurationException;
import io.github.distlock.core.LockPath;

/**
 * A lock path template such as {@code orders/#{#order.id}/lines}, parsed once. Literal
 * text keeps its {@code /} hierarchy and is validated when parsed; the value of each
 * {@code #{...}} part becomes exactly one escaped segment
 * ({@link LockPath#escapeSegment(String)}), so no argument can add a level, reach
 * {@code .} or {@code ..}, or leave the lock root. A segment holds at most one
 * {@code #{...}} part: with two, {@code #{#a}#{#b}} would give the same segment for
 * {@code ("ab", "c")} and {@code ("a", "bc")}.
 * <p>
 * A part whose value is a collection or an array gives one path per element; at most one
 * part of a template may do so.
 */
public final class LockPathTemplate {

	private static final Pattern VARIABLE = Pattern.compile("\\s*#([A-Za-z_$][\\w$]*)");

	private static final Pattern PARAMETER_REFERENCE = Pattern.compile("#([A-Za-z_$][A-Za-z0-9_$]*)");

	private final String template;

	private final List<Part> parts;

	private final @Nullable LockPath constant;

	private LockPathTemplate(String template, List<Part> parts, @Nullable LockPath constant) {
		this.template = template;
		this.parts = parts;
		this.constant = constant;
	}

	/**
	 * Build a template from its parsed expression and validate its literal text.
	 * @param template the template as written, for messages (a template that is one
	 * {@code #{...}} part parses to an expression whose text lacks the delimiters)
	 * @param parsed the template parsed with a template parser context
	 * @param description the annotation and method, for messages
	 * @return the template
	 * @throws LockConfigurationException if the template cannot give valid paths
	 */
	static LockPathTemplate of(String template, Expression parsed, String description) {
		Expression[] expressions = (parsed instanceof CompositeStringExpression composite) ? composite.getExpressions()
				: new Expression[] { parsed };
		List<Part> parts = new ArrayList<>();
		StringBuilder sample = new StringBuilder();
		boolean dynamicInSegment = false;
		for (Expression expression : expressions) {
			if (expression instanceof LiteralExpression literal) {
				String text = literal.getExpressionString();
				if (text.isEmpty()) {
					continue;
				}
				parts.add(new Literal(text));
				sample.append(text);
				if (text.indexOf('/') >= 0) {
					dynamicInSegment = false;
				}
				continue;
			}
			if (dynamicInSegment) {
				throw new LockConfigurationException(description + ": path template '" + template
						+ "' has two #{...} parts in one segment, so different arguments could give the same path;"
						+ " separate them with '/' or combine them in one expression");
			}
			dynamicInSegment = true;
			parts.add(new Dynamic(expression));
			// Any value gives a non-empty segment; a placeholder lets LockPath check
			// the rest.
			sample.append('x');
		}
		try {
			LockPath.parse(sample.toString());
		}
		catch (InvalidLockPathException ex) {
			throw new LockConfigurationException(description + ": path template '" + template
					+ "' cannot give a valid lock path (" + ex.getMessage().replace(sample, template)
					+ "); write a relative path such as 'orders/#{#id}', with no leading or trailing '/', no "
					+ "empty, '.' or '..' segment and no control characters");
		}
		boolean constant = parts.stream().allMatch(Literal.class::isInstance);
		return new LockPathTemplate(template, List.copyOf(parts), constant ? LockPath.parse(sample.toString()) : null);
	}

	/** The template as written. */
	public String template() {
		return this.template;
	}

	/** Whether the template has no {@code #{...}} part. */
	public boolean isConstant() {
		return this.constant != null;
	}

	/**
	 * Return the {@code #{...}} parts that can be seen, without a call, to give a
	 * collection or an array: of a {@linkplain #bind bound} template, the parts that read
	 * a parameter declared as a {@code Collection} or an array. Other parts may still
	 * give one at call time.
	 * @param method the annotated method
	 * @return the parts, as written ({@code #{#ids}})
	 */
	List<String> collectionParts(Method method) {
		List<String> found = new ArrayList<>();
		Class<?>[] types = method.getParameterTypes();
		for (Part part : this.parts) {
			if (part instanceof Dynamic dynamic && dynamic.argument() >= 0) {
				Class<?> type = types[dynamic.argument()];
				if (type.isArray() || Collection.class.isAssignableFrom(type)) {
					found.add(dynamic.name());
				}
			}
		}
		return found;
	}

	/**
	 * The paths this template can give, segment by segment, as far as they are known
	 * without a call.
	 * @return the shape
	 */
	LockPathShape shape() {
		List<LockPathShape.Segment> segments = new ArrayList<>();
		StringBuilder before = new StringBuilder();
		StringBuilder after = new StringBuilder();
		boolean dynamic = false;
		for (Part part : this.parts) {
			if (part instanceof Dynamic) {
				dynamic = true;
				continue;
			}
			String text = ((Literal) part).text();
			int start = 0;
			int slash;
			while ((slash = text.indexOf('/', start)) >= 0) {
				(dynamic ? after : before).append(text, start, slash);
				segments.add(new LockPathShape.Segment(before.toString(), after.toString(), dynamic));
				before.setLength(0);
				after.setLength(0);
				dynamic = false;
				start = slash + 1;
			}
			(dynamic ? after : before).append(text, start, text.length());
		}
		segments.add(new LockPathShape.Segment(before.toString(), after.toString(), dynamic));
		return new LockPathShape(List.copyOf(segments));
	}

	/**
	 * Bind the template to the annotated method: a part that is a plain reference to one
	 * of its parameters ({@code #name}, {@code #p0}, {@code #a0}), and to no other
	 * parameter, reads that argument directly on each call instead of evaluating the
	 * expression in an evaluation context (which would give the same value, at a cost
	 * that shows on an uncontended lock).
	 * @param method the annotated method
	 * @param parameterNames its parameter names, or {@code null} if unknown
	 * @return the bound template
	 */
	LockPathTemplate bind(Method method, @Nullable String @Nullable [] parameterNames) {
		int count = method.getParameterCount();
		List<Part> bound = new ArrayList<>(this.parts.size());
		for (Part part : this.parts) {
			if (part instanceof Dynamic dynamic) {
				bound.add(new Dynamic(dynamic.expression(), argumentIndex(dynamic, parameterNames, count)));
			}
			else {
				bound.add(part);
			}
		}
		return new LockPathTemplate(this.template, List.copyOf(bound), this.constant);
	}

	/**
	 * The index of the parameter a part refers to as a plain variable reference, as the
	 * method's evaluation context would resolve it, or -1 if the part is anything else or
	 * the name could mean more than one parameter.
	 */
	private static int argumentIndex(Dynamic part, @Nullable String @Nullable [] parameterNames, int count) {
		Matcher matcher = PARAMETER_REFERENCE.matcher(part.expression().getExpressionString().trim());
		if (!matcher.matches() || matcher.group(1).equals("root") || matcher.group(1).equals("this")) {
			return -1;
		}
		String name = matcher.group(1);
		int found = -1;
		for (int i = 0; i < count; i++) {
			boolean named = parameterNames != null && i < parameterNames.length && name.equals(parameterNames[i]);
			if (named || name.equals("p" + i) || name.equals("a" + i)) {
				if (found >= 0) {
					return -1;
				}
				found = i;
			}
		}
		return found;
	}

	/**
	 * Resolve the template for one call, evaluating every part.
	 * @param context the evaluation context of the call, created on demand
	 * @param description the annotation and method, for messages
	 * @return the paths, sorted and without duplicates; one unless a part gave a
	 * collection
	 * @throws InvalidLockPathException if a part's value cannot be a segment
	 * @throws LockConfigurationException if a part cannot be evaluated
	 */
	public List<LockPath> resolve(Supplier<EvaluationContext> context, String description) {
		return resolve(context, null, description);
	}

	/**
	 * Resolve the template for one call.
	 * @param context the evaluation context of the call, created on demand
	 * @param arguments the call's arguments, read directly by parts that are plain
	 * parameter references once the template is {@linkplain #bind bound}, or {@code null}
	 * to evaluate every part
	 * @param description the annotation and method, for messages
	 * @return the paths, sorted and without duplicates; one unless a part gave a
	 * collection
	 * @throws InvalidLockPathException if a part's value cannot be a segment
	 * @throws LockConfigurationException if a part cannot be evaluated
	 */
	public List<LockPath> resolve(Supplier<EvaluationContext> context, @Nullable Object @Nullable [] arguments,
			String description) {
		if (this.constant != null) {
			return List.of(this.constant);
		}
		// One path until a part gives a collection, then one per element.
		StringBuilder single = new StringBuilder(64);
		List<StringBuilder> paths = null;
		for (Part part : this.parts) {
			if (part instanceof Literal literal) {
				append(single, paths, literal.text());
				continue;
			}
			Dynamic dynamic = (Dynamic) part;
			Object value = value(dynamic, context, arguments, description);
			List<?> values = elements(value);
			if (values == null) {
				if (value == null) {
					throw new InvalidLockPathException(description + ": part " + dynamic.name() + " of path template '"
							+ this.template + "' gave a value that cannot be a path segment: the value is null"
							+ parameterHint(dynamic));
				}
				append(single, paths, segment(value, dynamic, description));
				continue;
			}
			if (values.isEmpty()) {
				throw new InvalidLockPathException(description + ": part " + dynamic.name() + " of path template '"
						+ this.template + "' gave an empty collection, so there is nothing to lock");
			}
			if (paths != null) {
				throw new LockConfigurationException(description + ": more than one part of path template '"
						+ this.template + "' gave a collection; at most one part may");
			}
			paths = new ArrayList<>(values.size());
			for (Object element : values) {
				paths.add(new StringBuilder(single).append(segment(element, dynamic, description)));
			}
		}
		if (paths == null) {
			return List.of(lockPath(single, description));
		}
		TreeSet<LockPath> result = new TreeSet<>();
		for (StringBuilder path : paths) {
			result.add(lockPath(path, description));
		}
		return List.copyOf(result);
	}

	private static void append(StringBuilder single, @Nullable List<StringBuilder> paths, String text) {
		if (paths == null) {
			single.append(text);
		}
		else {
			for (StringBuilder path : paths) {
				path.append(text);
			}
		}
	}

	private LockPath lockPath(StringBuilder path, String description) {
		try {
			return LockPath.parse(path.toString()).withTemplate(this.template);
		}
		catch (InvalidLockPathException ex) {
			throw new InvalidLockPathException(
					description + ": path template '" + this.template + "' gave an invalid path: " + ex.getMessage());
		}
	}

	private @Nullable Object value(Dynamic part, Supplier<EvaluationContext> context,
			@Nullable Object @Nullable [] arguments, String description) {
		int argument = part.argument();
		if (argument >= 0 && arguments != null && argument < arguments.length) {
			return arguments[argument];
		}
		try {
			return part.expression().getValue(context.get());
		}
		catch (EvaluationException ex) {
			throw new LockConfigurationException(description + ": part " + part.name() + " of path template '"
					+ this.template + "' could not be evaluated: " + ex.getMessage() + parameterHint(part), ex);
		}
	}

	/**
	 * The elements of a collection or array value, or {@code null} for a single value.
	 */
	private static @Nullable List<?> elements(@Nullable Object value) {
		if (value instanceof Collection<?> collection) {
			return new ArrayList<>(collection);
		}
		if (value != null && value.getClass().isArray()) {
			return Arrays.asList(ObjectUtils.toObjectArray(value));
		}
		return null;
	}

	private String segment(@Nullable Object value, Dynamic part, String description) {
		try {
			if (value == null) {
				throw new InvalidLockPathException("the value is null");
			}
			return LockPath.escapeSegment(value.toString());
		}
		catch (InvalidLockPathException ex) {
			throw new InvalidLockPathException(description + ": part " + part.name() + " of path template '"
					+ this.template + "' gave a value that cannot be a path segment: " + ex.getMessage());
		}
	}

	/**
	 * Hint for a part that starts with a variable other than {@code #p0}/{@code #a0}: a
	 * parameter name the evaluation context does not know resolves to {@code null}.
	 */
	private static String parameterHint(Dynamic part) {
		Matcher variable = VARIABLE.matcher(part.expression().getExpressionString());
		if (!variable.lookingAt() || variable.group(1).matches("[pa]\\d+|root|this")) {
			return "";
		}
		return "; if #" + variable.group(1) + " is a parameter of the method, check its spelling and that the class "
				+ "is compiled with '-parameters' (Spring Boot's build plugins do this), or refer to it by position "
				+ "(#p0 for the first parameter)";
	}

	@Override
	public String toString() {
		return this.template;
	}

	private sealed interface Part {

	}

	private record Literal(String text) implements Part {
	}

	/**
	 * A {@code #{...}} part.
	 *
	 * @param expression the expression
	 * @param argument the index of the argument it reads directly, or -1 to evaluate it
	 */
	private record Dynamic(Expression expression, int argument) implements Part {

		Dynamic(Expression expression) {
			this(expression, -1);
		}

		/** The part as written in the template, for messages. */
		String name() {
			return "#{" + this.expression.getExpressionString() + "}";
		}

	}

}
