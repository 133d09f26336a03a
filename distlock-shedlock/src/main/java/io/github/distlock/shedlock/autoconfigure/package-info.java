/**
 * Auto-configuration of the ShedLock provider on distlock: the {@code LockProvider} bean
 * a ShedLock application's {@code @EnableSchedulerLock} uses, unless the application
 * defines its own.
 */
@NullMarked
package io.github.distlock.shedlock.autoconfigure;

import org.jspecify.annotations.NullMarked;
