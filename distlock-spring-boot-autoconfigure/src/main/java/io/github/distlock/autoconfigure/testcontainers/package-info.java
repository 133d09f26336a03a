/**
 * Testcontainers support: {@code @ServiceConnection} for a ZooKeeper container.
 */
@NullMarked
package io.github.distlock.autoconfigure.testcontainers;

import org.jspecify.annotations.NullMarked;
