/**
 * The programmatic lock API of distlock: {@link io.github.distlock.core.Locks}, the locks
 * it hands out, their handles and the exceptions. Nothing here knows Spring AOP or
 * Curator.
 */
@NullMarked
package io.github.distlock.core;

import org.jspecify.annotations.NullMarked;
