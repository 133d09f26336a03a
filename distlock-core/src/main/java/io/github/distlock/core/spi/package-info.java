/**
 * Service-provider interfaces of the programmatic API: what other modules plug into
 * {@code io.github.distlock.core} through {@link java.util.ServiceLoader}, or register on
 * the locks ({@link io.github.distlock.core.spi.FenceStore}), never what an application
 * calls.
 */
@NullMarked
package io.github.distlock.core.spi;

import org.jspecify.annotations.NullMarked;
