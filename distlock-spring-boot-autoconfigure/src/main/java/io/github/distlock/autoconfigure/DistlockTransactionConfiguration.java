package io.github.distlock.autoconfigure;

import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.context.annotation.Role;
import org.springframework.transaction.TransactionExecution;
import org.springframework.transaction.TransactionExecutionListener;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

import io.github.distlock.core.LockContext;
import io.github.distlock.core.LockLostException;

/**
 * Rolls back a Spring transaction that runs inside a lock which is lost before the
 * transaction commits. A {@link TransactionExecutionListener} registers, on every new
 * transaction, a synchronization whose {@code beforeCommit} calls
 * {@link LockContext#assertHeld()} when the thread holds locks; the
 * {@link LockLostException} it throws makes the transaction manager roll back and reach
 * the caller.
 * <p>
 * Spring Boot adds {@code TransactionExecutionListener} beans to the transaction managers
 * it auto-configures; a post-processor adds the listener to transaction managers the
 * application declares itself, too.
 */
@Configuration(proxyBeanMethods = false)
@Role(BeanDefinition.ROLE_INFRASTRUCTURE)
@ConditionalOnClass(name = "org.springframework.transaction.TransactionExecutionListener")
@Import({ DistlockFencingConfiguration.class, DistlockReactiveFencingConfiguration.class })
class DistlockTransactionConfiguration {

	@Bean
	@Role(BeanDefinition.ROLE_INFRASTRUCTURE)
	@ConditionalOnMissingBean
	static LockHeldBeforeCommit lockHeldBeforeCommit() {
		return new LockHeldBeforeCommit();
	}

	@Bean
	@Role(BeanDefinition.ROLE_INFRASTRUCTURE)
	static BeanPostProcessor lockHeldBeforeCommitRegistrar(ObjectProvider<LockHeldBeforeCommit> listener) {
		return new TransactionListenerRegistrar(listener);
	}

	/**
	 * Makes every new transaction check, just before it commits, that the locks of the
	 * committing thread are still held, and roll back if one is not.
	 */
	public static final class LockHeldBeforeCommit implements TransactionExecutionListener {

		@Override
		public void afterBegin(TransactionExecution transaction, @Nullable Throwable beginFailure) {
			if (beginFailure == null && TransactionSynchronizationManager.isSynchronizationActive()) {
				TransactionSynchronizationManager.registerSynchronization(new AssertHeld());
			}
		}

	}

	private static final class AssertHeld implements TransactionSynchronization {

		@Override
		public void beforeCommit(boolean readOnly) {
			LockContext context = LockContext.current();
			if (!context.locks().isEmpty()) {
				try {
					context.assertHeld();
				}
				catch (LockLostException ex) {
					throw new LockLostException("Transaction rolled back instead of committed: " + ex.getMessage()
							+ "; another holder may have run at the same time");
				}
			}
		}

	}

}
