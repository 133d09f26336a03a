package io.github.distlock.interceptor;

import java.time.Duration;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

import org.springframework.expression.EvaluationContext;
import org.springframework.expression.EvaluationException;
import org.springframework.expression.Expression;
import org.springframework.expression.spel.standard.SpelExpression;

import io.github.distlock.core.LockConfigurationException;

/**
 * The {@code holdAtLeast} of {@code @DistributedLock}, as parsed at startup: none, a
 * fixed duration, or an expression evaluated per call. The lock stays held at least that
 * long after its acquisition.
 */
public sealed interface HoldTime {

	/** Release as soon as the work ends. */
	HoldTime NONE = new Fixed(Duration.ZERO);

	/** What the accepted forms are, for error messages. */
	String FORMS = "use '' or '0' to release when the method's work ends, a duration such as '30s', '2m' or "
			+ "'PT30S', a ${placeholder} or a #{expression}";

	/**
	 * Return the least hold time of one call.
	 * @param context the evaluation context of the call, created on demand
	 * @param description the annotation and method, for messages
	 * @return the duration, zero for none
	 */
	Duration resolve(Supplier<EvaluationContext> context, String description);

	/**
	 * Parse a literal hold time: a duration that is not negative.
	 * @param text the text
	 * @return the duration
	 * @throws IllegalArgumentException with the reason if the text is not a hold time
	 */
	static Duration parse(String text) {
		if (text.trim().equals("-1")) {
			throw new IllegalArgumentException("'-1' is negative");
		}
		return WaitTime.parse(text);
	}

	/**
	 * Convert the value of a hold time expression: a {@link Duration}, a {@link Number}
	 * of milliseconds, or text as accepted by {@link #parse(String)}.
	 * @param value the value
	 * @return the duration
	 * @throws IllegalArgumentException with the reason if the value is not a hold time
	 */
	static Duration fromValue(@Nullable Object value) {
		if (value instanceof CharSequence text) {
			return parse(text.toString());
		}
		Duration duration = WaitTime.fromValue(value);
		if (duration.isNegative()) {
			throw new IllegalArgumentException("'" + value + "' is negative");
		}
		return duration;
	}

	/**
	 * A hold time known at startup.
	 *
	 * @param duration the duration, zero for none
	 */
	record Fixed(Duration duration) implements HoldTime {

		@Override
		public Duration resolve(Supplier<EvaluationContext> context, String description) {
			return this.duration;
		}

	}

	/**
	 * A hold time computed per call.
	 *
	 * @param expression the parsed template expression
	 */
	record Evaluated(Expression expression) implements HoldTime {

		@Override
		public Duration resolve(Supplier<EvaluationContext> context, String description) {
			Object value;
			try {
				value = (this.expression instanceof SpelExpression) ? this.expression.getValue(context.get())
						: this.expression.getValue(context.get(), String.class);
			}
			catch (EvaluationException ex) {
				throw new LockConfigurationException(description + ": holdAtLeast '"
						+ this.expression.getExpressionString() + "' could not be evaluated: " + ex.getMessage(), ex);
			}
			try {
				return fromValue(value);
			}
			catch (IllegalArgumentException ex) {
				throw new LockConfigurationException(description + ": holdAtLeast '"
						+ this.expression.getExpressionString() + "' gave no usable duration: " + ex.getMessage()
						+ "; the expression must give a Duration, a number of milliseconds or text such as '30s', "
						+ "not negative", ex);
			}
		}

	}

}
