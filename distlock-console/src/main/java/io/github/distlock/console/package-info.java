/**
 * The operator console: one page, served from this module's classpath under
 * {@code distlock.console.path} ({@code /distlock} by default), that reads a small JSON
 * API of its own every two seconds ({@code GET <path>/api/state}: the cluster's locks
 * with their holders and waiters, the deadlocks, the leader elections, this instance's
 * jobs with their last run and next slot, and whether it drains) and, when
 * {@code distlock.admin.enabled} is on, posts operators' actions to
 * {@code <path>/api/<subject>/<action>}. The API works whether or not the actuator
 * endpoint is exposed; its actions are the endpoint's ({@code DistlockAdminOperations}):
 * same input checks, audit events and counter.
 */
@NullMarked
package io.github.distlock.console;

import org.jspecify.annotations.NullMarked;
