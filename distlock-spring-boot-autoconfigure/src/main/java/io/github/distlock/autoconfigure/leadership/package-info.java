/**
 * Auto-configuration of leader election: the {@code Leadership} bean on distlock's
 * engine, the advisors of {@code @LeaderOnly} and {@code @PartitionOwner} methods, and
 * this instance's membership in the elections of its groups
 * ({@code distlock.leadership.*}) and in the partitioned groups of its
 * {@code @PartitionOwner} methods, joined when the context has started and left when it
 * closes.
 */
@NullMarked
package io.github.distlock.autoconfigure.leadership;

import org.jspecify.annotations.NullMarked;
