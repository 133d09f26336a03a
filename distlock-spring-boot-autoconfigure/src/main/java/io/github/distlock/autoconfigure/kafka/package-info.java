/**
 * Auto-configuration of fenced Kafka writes ({@code io.github.distlock.kafka}).
 */
@NullMarked
package io.github.distlock.autoconfigure.kafka;

import org.jspecify.annotations.NullMarked;
