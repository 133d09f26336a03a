/**
 * Auto-configuration of jobs that run once per slot of their schedule across the cluster:
 * the {@code ScheduledJobs} bean, the advisor of {@code @ScheduledOnce} methods, and the
 * registrar of their jobs.
 */
@NullMarked
package io.github.distlock.autoconfigure.scheduling;

import org.jspecify.annotations.NullMarked;
