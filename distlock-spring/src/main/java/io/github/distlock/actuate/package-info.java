/**
 * Operations support for distlock: the {@code distlock} health indicator, the
 * {@code distlock} actuator endpoint, Micrometer metrics and observations of lock
 * acquisitions and holds.
 */
@NullMarked
package io.github.distlock.actuate;

import org.jspecify.annotations.NullMarked;
