/**
 * Auto-configuration of distlock's operations support in
 * {@code io.github.distlock.actuate}: the {@code distlock} health indicator, the
 * {@code distlock} actuator endpoint, Micrometer metrics and the {@code distlock.lock}
 * observation. Each runs after the main auto-configuration and backs off without the
 * locks it reports on.
 */
@NullMarked
package io.github.distlock.autoconfigure.actuate;

import org.jspecify.annotations.NullMarked;
