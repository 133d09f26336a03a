/**
 * JMH benchmarks of distlock against raw Curator and peer libraries on one embedded
 * ZooKeeper, and the scale soak.
 */
@NullMarked
package io.github.distlock.benchmarks;

import org.jspecify.annotations.NullMarked;
