package io.github.distlock.shedlock.autoconfigure;

import net.javacrumbs.shedlock.core.LockProvider;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

import io.github.distlock.core.Locks;
import io.github.distlock.shedlock.DistlockLockProvider;

/**
 * Auto-configuration of ShedLock on distlock: a {@link DistlockLockProvider} as the
 * application's ShedLock {@link LockProvider}, when ShedLock is on the class path,
 * distlock's {@link Locks} bean exists and the application defines no
 * {@code LockProvider} of its own. {@code @EnableSchedulerLock} then finds it.
 */
@AutoConfiguration(afterName = "io.github.distlock.autoconfigure.DistlockAutoConfiguration")
@ConditionalOnClass(LockProvider.class)
@ConditionalOnBean(Locks.class)
public final class DistlockShedLockAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean(LockProvider.class)
	DistlockLockProvider distlockLockProvider(Locks locks) {
		return new DistlockLockProvider(locks);
	}

}
