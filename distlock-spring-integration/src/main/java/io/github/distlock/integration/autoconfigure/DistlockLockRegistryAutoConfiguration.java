package io.github.distlock.integration.autoconfigure;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.context.annotation.Bean;
import org.springframework.integration.support.locks.LockRegistry;

import io.github.distlock.core.Locks;
import io.github.distlock.integration.DistlockLockRegistry;

/**
 * {@link AutoConfiguration Auto-configuration} of a {@link DistlockLockRegistry}: Spring
 * Integration's {@link LockRegistry} on distlock's {@link Locks}, when Spring Integration
 * is on the class path, the application has one {@link Locks} bean and no
 * {@link LockRegistry} of its own. Its locks live at
 * {@value DistlockLockRegistry#DEFAULT_ROOT}{@code /<key>}; an application that wants
 * another root declares its own {@code DistlockLockRegistry} bean.
 */
@AutoConfiguration(afterName = "io.github.distlock.autoconfigure.DistlockAutoConfiguration")
@ConditionalOnClass(LockRegistry.class)
@ConditionalOnSingleCandidate(Locks.class)
public final class DistlockLockRegistryAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean(LockRegistry.class)
	DistlockLockRegistry distlockLockRegistry(Locks locks) {
		return new DistlockLockRegistry(locks);
	}

}
