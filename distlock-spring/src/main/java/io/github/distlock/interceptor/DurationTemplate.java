package io.github.distlock.interceptor;

import java.time.Duration;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.convert.DurationStyle;
import org.springframework.expression.EvaluationContext;
import org.springframework.expression.EvaluationException;
import org.springframework.expression.Expression;
import org.springframework.expression.spel.standard.SpelExpression;

import io.github.distlock.core.LockConfigurationException;
import io.github.distlock.core.Locks;

/**
 * A duration attribute of a lock annotation ({@code waitTime}, {@code holdAtLeast}), as
 * parsed at startup: the configured default, a duration known then, or an expression
 * evaluated per call. What the text may say, and how a bad value is reported, is the
 * {@link Attribute}'s.
 * <p>
 * Wait times follow {@link Locks}: {@link Duration#ZERO} tries once and
 * {@link Locks#WAIT_FOREVER} waits forever. A hold time is never negative; zero releases
 * the lock when the work ends.
 */
public sealed interface DurationTemplate {

	/** The configured default: {@code distlock.lock.wait-time} for a wait time. */
	DurationTemplate DEFAULT = new Default();

	/** No duration: for a hold time, release as soon as the work ends. */
	DurationTemplate NONE = new Fixed(Duration.ZERO);

	/**
	 * Return the duration of one call.
	 * @param context the evaluation context of the call, created on demand
	 * @param defaultDuration what {@link #DEFAULT} stands for
	 * @param description the annotation and method, for messages
	 * @return the duration
	 */
	Duration resolve(Supplier<EvaluationContext> context, Duration defaultDuration, String description);

	/**
	 * The configured default.
	 */
	record Default() implements DurationTemplate {

		@Override
		public Duration resolve(Supplier<EvaluationContext> context, Duration defaultDuration, String description) {
			return defaultDuration;
		}

	}

	/**
	 * A duration known at startup.
	 *
	 * @param duration the duration
	 */
	record Fixed(Duration duration) implements DurationTemplate {

		@Override
		public Duration resolve(Supplier<EvaluationContext> context, Duration defaultDuration, String description) {
			return this.duration;
		}

	}

	/**
	 * A duration computed per call.
	 *
	 * @param attribute the attribute, which says what the value may be
	 * @param expression the parsed template expression
	 */
	record Evaluated(Attribute attribute, Expression expression) implements DurationTemplate {

		@Override
		public Duration resolve(Supplier<EvaluationContext> context, Duration defaultDuration, String description) {
			Object value;
			try {
				// A single #{...} keeps its type (Duration, Number); a mixed template
				// is text.
				value = (this.expression instanceof SpelExpression) ? this.expression.getValue(context.get())
						: this.expression.getValue(context.get(), String.class);
			}
			catch (EvaluationException ex) {
				throw new LockConfigurationException(description + ": " + this.attribute.attributeName + " '"
						+ this.expression.getExpressionString() + "' could not be evaluated: " + ex.getMessage(), ex);
			}
			try {
				return this.attribute.fromValue(value);
			}
			catch (IllegalArgumentException ex) {
				throw new LockConfigurationException(description + ": " + this.attribute.attributeName + " '"
						+ this.expression.getExpressionString() + "' gave no usable " + this.attribute.valueName + ": "
						+ ex.getMessage() + "; the expression must give " + this.attribute.expressionValues, ex);
			}
		}

	}

	/**
	 * The duration attributes of the lock annotations: their names and what their values
	 * may be, for the parser and for messages.
	 */
	enum Attribute {

		/** {@code waitTime}: how long to wait for the lock; {@code -1} waits forever. */
		WAIT_TIME("waitTime", "wait time", "a wait time", true, "${my.wait:5s}",
				"use '' for distlock.lock.wait-time, '0' to try once, '-1' to wait forever, "
						+ "a duration such as '500ms', '5s' or 'PT5S', a ${placeholder} or a #{expression}",
				"a Duration, a number of milliseconds (-1 waits forever) or text such as '5s'"),

		/**
		 * {@code holdAtLeast}: how long the lock stays held at least after its
		 * acquisition; never negative.
		 */
		HOLD_AT_LEAST("holdAtLeast", "duration", "a duration to hold the lock", false, "${jobs.hold:30s}",
				"use '' or '0' to release when the method's work ends, a duration such as '30s', '2m' or "
						+ "'PT30S', a ${placeholder} or a #{expression}",
				"a Duration, a number of milliseconds or text such as '30s', not negative");

		private final String attributeName;

		private final String valueName;

		private final String literalName;

		private final boolean forever;

		private final String placeholderExample;

		private final String forms;

		private final String expressionValues;

		Attribute(String attributeName, String valueName, String literalName, boolean forever,
				String placeholderExample, String forms, String expressionValues) {
			this.attributeName = attributeName;
			this.valueName = valueName;
			this.literalName = literalName;
			this.forever = forever;
			this.placeholderExample = placeholderExample;
			this.forms = forms;
			this.expressionValues = expressionValues;
		}

		/** The attribute's name in the annotation, such as {@code waitTime}. */
		String attributeName() {
			return this.attributeName;
		}

		/** What a literal value is, for messages: {@code a wait time}. */
		String literalName() {
			return this.literalName;
		}

		/** A placeholder with a default, for messages: {@code ${my.wait:5s}}. */
		String placeholderExample() {
			return this.placeholderExample;
		}

		/** What the accepted forms are, for messages. */
		String forms() {
			return this.forms;
		}

		/** What an empty attribute means. */
		DurationTemplate whenEmpty() {
			return this.forever ? DEFAULT : NONE;
		}

		/**
		 * Parse a literal value: a non-negative duration in Spring Boot's simple
		 * ({@code 500ms}, {@code 5s}; no unit means milliseconds) or ISO-8601
		 * ({@code PT5S}) form, or {@code -1} (wait forever) where the attribute allows
		 * it.
		 * @param text the text
		 * @return the duration
		 * @throws IllegalArgumentException with the reason if the text is not a value of
		 * this attribute
		 */
		Duration parse(String text) {
			String trimmed = text.trim();
			if (trimmed.equals("-1")) {
				if (this.forever) {
					return Locks.WAIT_FOREVER;
				}
				throw new IllegalArgumentException("'-1' is negative");
			}
			Duration duration;
			try {
				duration = DurationStyle.detectAndParse(trimmed);
			}
			catch (RuntimeException ex) {
				throw new IllegalArgumentException("'" + text + "' is not a duration (or it is too large)", ex);
			}
			return checked(duration, text);
		}

		/**
		 * Convert the value of an expression: a {@link Duration}, a {@link Number} of
		 * milliseconds, or text as accepted by {@link #parse(String)}.
		 * @param value the value
		 * @return the duration
		 * @throws IllegalArgumentException with the reason if the value is not a value of
		 * this attribute
		 */
		Duration fromValue(@Nullable Object value) {
			if (value instanceof Duration duration) {
				return (this.forever && duration.equals(Locks.WAIT_FOREVER)) ? duration
						: checked(duration, duration.toString());
			}
			if (value instanceof Number number) {
				long millis = number.longValue();
				return (this.forever && millis == -1) ? Locks.WAIT_FOREVER
						: checked(Duration.ofMillis(millis), String.valueOf(number));
			}
			if (value instanceof CharSequence text) {
				return parse(text.toString());
			}
			throw new IllegalArgumentException(
					"the value " + ((value != null) ? "'" + value + "' of type " + value.getClass().getName() : "null")
							+ " is not a Duration, a number of milliseconds or a String");
		}

		private Duration checked(Duration duration, String text) {
			if (duration.isNegative()) {
				throw new IllegalArgumentException(
						"'" + text + "' is negative" + (this.forever ? "; only -1 (wait forever) may be" : ""));
			}
			try {
				duration.toNanos();
			}
			catch (ArithmeticException ex) {
				throw new IllegalArgumentException(
						"'" + text + "' is too long" + (this.forever ? "; use -1 to wait forever" : ""), ex);
			}
			return duration;
		}

	}

}
