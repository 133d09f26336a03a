package io.github.distlock.autoconfigure;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.convert.DurationStyle;

import io.github.distlock.core.Locks;

/**
 * Checks of {@code distlock.*} values that bind but cannot work. A bad value fails
 * startup with an {@link InvalidConfigurationPropertyValueException}, which Spring Boot
 * reports with the property, its value, where it was set and the reason.
 * <p>
 * Public for the auto-configurations in the sub-packages (only the checks they use are);
 * not meant for applications.
 */
public final class PropertyChecks {

	private PropertyChecks() {
	}

	/**
	 * Check a duration that must be positive and fit ZooKeeper's {@code int}
	 * milliseconds.
	 * @param name the property
	 * @param value its value
	 * @return the value in milliseconds
	 */
	static int positiveMillis(String name, @Nullable Duration value) {
		Duration checked = positive(name, value);
		if (checked.toMillis() > Integer.MAX_VALUE) {
			throw invalid(name, checked, "must be at most " + Integer.MAX_VALUE + "ms");
		}
		return (int) checked.toMillis();
	}

	/**
	 * Check a duration that must be positive, such as a timeout.
	 * @param name the property
	 * @param value its value
	 * @return the value
	 */
	public static Duration positive(String name, @Nullable Duration value) {
		if (value == null || value.isNegative() || value.isZero()) {
			throw invalid(name, value, "must be a positive duration such as '2s'");
		}
		return value;
	}

	/**
	 * Check a duration that must not be negative, such as a sleep time.
	 * @param name the property
	 * @param value its value
	 * @return the value in milliseconds
	 */
	static int nonNegativeMillis(String name, @Nullable Duration value) {
		if (value == null || value.isNegative()) {
			throw invalid(name, value, "must not be negative");
		}
		if (value.toMillis() > Integer.MAX_VALUE) {
			throw invalid(name, value, "must be at most " + Integer.MAX_VALUE + "ms");
		}
		return (int) value.toMillis();
	}

	/**
	 * Check a wait time: zero or more, or -1 for waiting forever.
	 * @param name the property
	 * @param value its value
	 * @return the value
	 */
	static Duration waitTime(String name, @Nullable Duration value) {
		if (value == null || (value.isNegative() && !value.equals(Locks.WAIT_FOREVER))) {
			throw invalid(name, value, "must be 0 (try once), a positive duration such as '5s', or -1 (wait forever)");
		}
		return value;
	}

	/**
	 * Check a whole number that must not be negative.
	 * @param name the property
	 * @param value its value
	 * @return the value
	 */
	static int nonNegative(String name, int value) {
		if (value < 0) {
			throw new InvalidConfigurationPropertyValueException(name, value, "must not be negative");
		}
		return value;
	}

	/**
	 * Check a TCP port, where 0 means any free port.
	 * @param name the property
	 * @param value its value
	 * @return the value
	 */
	public static int port(String name, int value) {
		if (value < 0 || value > 65535) {
			throw new InvalidConfigurationPropertyValueException(name, value,
					"must be a port between 1 and 65535, or 0 for any free port");
		}
		return value;
	}

	private static InvalidConfigurationPropertyValueException invalid(String name, @Nullable Duration value,
			String reason) {
		return new InvalidConfigurationPropertyValueException(name,
				(value != null) ? DurationStyle.SIMPLE.print(value) : "", reason);
	}

}
