/**
 * Operations support for distlock: the {@code distlock} health indicator, the
 * {@code distlock} actuator endpoint, Micrometer metrics and observations of lock
 * acquisitions and holds, and operators' actions on the cluster's locks and jobs.
 * <p>
 * An operator's action (request-release, force-release, drain, undrain, job run-now,
 * pause, resume) is done by {@link io.github.distlock.actuate.DistlockAdminOperations},
 * which the endpoint's web extension and the console share: it checks the input, maps the
 * lock engine's exceptions to an {@link io.github.distlock.actuate.AdminOutcome} (and so
 * to an HTTP status), and publishes one audit event per action, done or not;
 * {@link io.github.distlock.actuate.AdminActionMetrics} counts those events. Whether HTTP
 * exposes the actions is the auto-configuration's decision
 * ({@code distlock.admin.enabled}): with it off, neither the endpoint nor the console has
 * an operation that acts.
 */
@NullMarked
package io.github.distlock.actuate;

import org.jspecify.annotations.NullMarked;
