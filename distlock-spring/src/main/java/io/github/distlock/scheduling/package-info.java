/**
 * Jobs that run once per slot of their schedule across the cluster: the
 * {@code @ScheduledOnce} annotation parsed once per method beside Spring's
 * {@code @Scheduled} into a {@link io.github.distlock.core.ScheduledJob} (its slots from
 * the method's own trigger), the advisor whose interceptor fires the job through
 * {@link io.github.distlock.core.ScheduledJobs}, and the registrar that makes the jobs
 * known (with the method's call as the body of a run outside the schedule,
 * {@link io.github.distlock.core.ScheduledJobs#runNow(String)}) and catches up on missed
 * slots at start.
 */
@NullMarked
package io.github.distlock.scheduling;

import org.jspecify.annotations.NullMarked;
