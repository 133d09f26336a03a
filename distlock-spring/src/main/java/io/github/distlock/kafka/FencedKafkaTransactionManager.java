package io.github.distlock.kafka;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;

import org.springframework.kafka.core.KafkaResourceHolder;
import org.springframework.kafka.core.ProducerFactory;
import org.springframework.kafka.core.ProducerFactoryUtils;
import org.springframework.kafka.transaction.KafkaTransactionManager;
import org.springframework.transaction.CannotCreateTransactionException;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionSynchronizationManager;

import io.github.distlock.core.ClusterLock;
import io.github.distlock.core.LockConfigurationException;
import io.github.distlock.core.LockHandle;
import io.github.distlock.interceptor.TransactionFencing;

/**
 * A {@link KafkaTransactionManager} whose every transaction runs under a lock and on the
 * lock's transactional producer: it acquires the lock when the transaction begins, begins
 * the transaction in a fenced call of the lock (so the producer's
 * {@code transactional.id} is the lock's, {@link KafkaTransactionalIds}), commits or
 * aborts it inside the hold, and releases the lock when the transaction is over. Give it
 * to a listener container ({@code ContainerProperties#setKafkaAwareTransactionManager})
 * to fence a consume-process-produce pipeline: the records the listener sends and the
 * consumed offsets the container adds to the transaction commit together, only while the
 * lock is held, and a holder that lost the lock without knowing it has its commit refused
 * by the broker ({@link io.github.distlock.core.StaleFencingTokenException}), so the
 * container rolls back and its records are delivered again.
 * <p>
 * A lock that cannot be acquired in the wait time fails the transaction's beginning (a
 * {@link CannotCreateTransactionException}): the container treats it as a failed
 * delivery. Each transaction initializes the lock's producer anew (the next holder may be
 * another process), which costs one round trip to the broker per transaction.
 */
public final class FencedKafkaTransactionManager<K, V> extends KafkaTransactionManager<K, V> {

	private final KafkaFencing fencing;

	private final ClusterLock lock;

	private final Duration waitTime;

	private final String description;

	// The holds of this thread's transactions, innermost first: a transaction that
	// requires a new one suspends the outer, which keeps its hold.
	private final ThreadLocal<Deque<Fenced>> holds = ThreadLocal.withInitial(ArrayDeque::new);

	/**
	 * Create the transaction manager.
	 * @param producerFactory a transactional producer factory that hands out fenced
	 * producers: a {@link FencedProducerFactory}, or a producer factory bean of an
	 * application with distlock's Kafka auto-configuration (it is wrapped)
	 * @param fencing the fenced calls
	 * @param lock the lock every transaction runs under
	 * @param waitTime how long a transaction's beginning waits for the lock
	 */
	public FencedKafkaTransactionManager(ProducerFactory<K, V> producerFactory, KafkaFencing fencing, ClusterLock lock,
			Duration waitTime) {
		super(producerFactory);
		this.fencing = fencing;
		this.lock = lock;
		this.waitTime = waitTime;
		this.description = "FencedKafkaTransactionManager of lock '" + lock.path() + "'";
	}

	/** The lock every transaction runs under. */
	public ClusterLock getLock() {
		return this.lock;
	}

	@Override
	protected void doBegin(Object transaction, TransactionDefinition definition) {
		LockHandle handle;
		try {
			handle = this.lock.acquire(this.waitTime);
		}
		catch (RuntimeException ex) {
			throw new CannotCreateTransactionException(
					this.description + ": the lock was not acquired, so the transaction did not begin", ex);
		}
		TransactionFencing.FencedCall call = null;
		try {
			call = this.fencing.enter(this.description, handle);
			super.doBegin(transaction, definition);
			checkFenced(call);
		}
		catch (RuntimeException | Error ex) {
			try {
				if (call != null) {
					call.close();
				}
			}
			finally {
				handle.close();
			}
			throw ex;
		}
		this.holds.get().push(new Fenced(call, handle));
	}

	// A factory that is not fenced ran the transaction on a producer of its own, whose
	// records no newer holder fences: abort it.
	private void checkFenced(TransactionFencing.FencedCall call) {
		if (call.fencedTransaction()) {
			return;
		}
		Object resource = TransactionSynchronizationManager.unbindResourceIfPossible(getProducerFactory());
		if (resource instanceof KafkaResourceHolder<?, ?> holder) {
			try {
				holder.rollback();
			}
			finally {
				ProducerFactoryUtils.releaseResources(holder);
			}
		}
		throw new LockConfigurationException(this.description + ": its producer factory (" + getProducerFactory()
				+ ") did not hand out the lock's producer, so its transactions would not be fenced; give it a "
				+ "FencedProducerFactory, or the producer factory bean of an application with distlock's Kafka "
				+ "auto-configuration");
	}

	@Override
	protected void doCleanupAfterCompletion(Object transaction) {
		try {
			super.doCleanupAfterCompletion(transaction);
		}
		finally {
			Fenced fenced = this.holds.get().pop();
			if (this.holds.get().isEmpty()) {
				this.holds.remove();
			}
			try {
				fenced.call().close();
			}
			finally {
				fenced.handle().close();
			}
		}
	}

	private record Fenced(TransactionFencing.FencedCall call, LockHandle handle) {
	}

}
