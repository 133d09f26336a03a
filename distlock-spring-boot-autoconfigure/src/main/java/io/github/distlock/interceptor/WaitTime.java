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
 * The {@code waitTime} of a lock annotation, as parsed at startup: the configured
 * default, a fixed duration, or an expression evaluated per call.
 * <p>
 * Wait times follow {@link Locks}: {@link Duration#ZERO} tries once and
 * {@link Locks#WAIT_FOREVER} waits forever.
 */
public sealed interface WaitTime {

	/** The wait time configured by {@code distlock.lock.wait-time}. */
	WaitTime DEFAULT = new Default();

	/** What the accepted forms are, for error messages. */
	String FORMS = "use '' for distlock.lock.wait-time, '0' to try once, '-1' to wait forever, "
			+ "a duration such as '500ms', '5s' or 'PT5S', a ${placeholder} or a #{expression}";

	/**
	 * Return the wait time of one call.
	 * @param context the evaluation context of the call, created on demand
	 * @param defaultWaitTime the configured default
	 * @param description the annotation and method, for messages
	 * @return the wait time
	 */
	Duration resolve(Supplier<EvaluationContext> context, Duration defaultWaitTime, String description);

	/**
	 * Parse a literal wait time: {@code 0}, {@code -1}, or a non-negative duration in
	 * Spring Boot's simple ({@code 500ms}, {@code 5s}; no unit means milliseconds) or
	 * ISO-8601 ({@code PT5S}) form.
	 * @param text the text
	 * @return the wait time
	 * @throws IllegalArgumentException with the reason if the text is not a wait time
	 */
	static Duration parse(String text) {
		String trimmed = text.trim();
		if (trimmed.equals("-1")) {
			return Locks.WAIT_FOREVER;
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
	 * Convert the value of a wait time expression: a {@link Duration}, a {@link Number}
	 * of milliseconds, or text as accepted by {@link #parse(String)}.
	 * @param value the value
	 * @return the wait time
	 * @throws IllegalArgumentException with the reason if the value is not a wait time
	 */
	static Duration fromValue(@Nullable Object value) {
		if (value instanceof Duration duration) {
			return duration.equals(Locks.WAIT_FOREVER) ? duration : checked(duration, duration.toString());
		}
		if (value instanceof Number number) {
			long millis = number.longValue();
			return (millis == -1) ? Locks.WAIT_FOREVER : checked(Duration.ofMillis(millis), String.valueOf(number));
		}
		if (value instanceof CharSequence text) {
			return parse(text.toString());
		}
		throw new IllegalArgumentException(
				"the value " + ((value != null) ? "'" + value + "' of type " + value.getClass().getName() : "null")
						+ " is not a Duration, a number of milliseconds or a String");
	}

	private static Duration checked(Duration duration, String text) {
		if (duration.isNegative()) {
			throw new IllegalArgumentException("'" + text + "' is negative; only -1 (wait forever) may be");
		}
		try {
			duration.toNanos();
		}
		catch (ArithmeticException ex) {
			throw new IllegalArgumentException("'" + text + "' is too long; use -1 to wait forever", ex);
		}
		return duration;
	}

	/** Use the configured default. */
	record Default() implements WaitTime {

		@Override
		public Duration resolve(Supplier<EvaluationContext> context, Duration defaultWaitTime, String description) {
			return defaultWaitTime;
		}

	}

	/**
	 * A wait time known at startup.
	 *
	 * @param duration the wait time
	 */
	record Fixed(Duration duration) implements WaitTime {

		@Override
		public Duration resolve(Supplier<EvaluationContext> context, Duration defaultWaitTime, String description) {
			return this.duration;
		}

	}

	/**
	 * A wait time computed per call.
	 *
	 * @param expression the parsed template expression
	 */
	record Evaluated(Expression expression) implements WaitTime {

		@Override
		public Duration resolve(Supplier<EvaluationContext> context, Duration defaultWaitTime, String description) {
			Object value;
			try {
				// A single #{...} keeps its type (Duration, Number); a mixed template
				// is text.
				value = (this.expression instanceof SpelExpression) ? this.expression.getValue(context.get())
						: this.expression.getValue(context.get(), String.class);
			}
			catch (EvaluationException ex) {
				throw new LockConfigurationException(description + ": waitTime '"
						+ this.expression.getExpressionString() + "' could not be evaluated: " + ex.getMessage(), ex);
			}
			try {
				return fromValue(value);
			}
			catch (IllegalArgumentException ex) {
				throw new LockConfigurationException(description + ": waitTime '"
						+ this.expression.getExpressionString() + "' gave no usable wait time: " + ex.getMessage()
						+ "; the expression must give a Duration, a number of milliseconds (-1 waits forever) "
						+ "or text such as '5s'", ex);
			}
		}

	}

}
