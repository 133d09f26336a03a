package io.github.distlock.kafka;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

import org.apache.kafka.clients.producer.Producer;
import org.apache.zookeeper.KeeperException;
import org.jspecify.annotations.Nullable;

import io.github.distlock.core.Handle;
import io.github.distlock.core.LockConfigurationException;
import io.github.distlock.core.LockHandle;
import io.github.distlock.core.LockLostException;
import io.github.distlock.core.StaleFencingTokenException;
import io.github.distlock.curator.GuardedWrites;
import io.github.distlock.interceptor.TransactionFencing;

/**
 * Fences a lock holder's Kafka writes with the broker's own fence: inside a fenced call,
 * every {@link FencedProducerFactory} hands out the call's producer, a transactional
 * producer whose {@code transactional.id} is the lock's ({@link KafkaTransactionalIds}).
 * The producer is created and initialized when the call first asks for one; the next
 * holder's {@code initTransactions()} bumps the id's epoch, and from then on the broker
 * refuses this producer's sends and commits, which surface as
 * {@link StaleFencingTokenException}.
 * <p>
 * The epoch orders producers by their initialization, not by fencing token, so the
 * initialization must fall inside the hold: it begins only while the lock is held as this
 * process sees it, and after it the lock node is checked on the server (in a ZooKeeper
 * multi-operation, {@link GuardedWrites}). A node still there means no other holder was
 * granted the lock before this producer's epoch, so every later holder's epoch is higher;
 * a node gone means the lock was lost, and the producer is closed before it sends. A
 * producer is initialized once per call and never again after it was fenced, so a stale
 * holder cannot fence the newer one back by asking again.
 */
public final class KafkaFencing implements TransactionFencing {

	private final KafkaTransactionalIds ids;

	private final GuardedWrites holdCheck;

	private final BooleanSupplier transactionalProducers;

	private final Duration closeTimeout;

	private final ThreadLocal<Deque<Call>> calls = ThreadLocal.withInitial(ArrayDeque::new);

	/**
	 * Create the fencing.
	 * @param ids the transactional ids of the locks' producers
	 * @param holdCheck checks on the server that a lock node is still there, through the
	 * client the locks are held through
	 * @param transactionalProducers whether the application has a transactional producer
	 * factory, asked when a fenced annotation is parsed
	 * @param closeTimeout how long closing a call's producer may wait for its requests
	 */
	public KafkaFencing(KafkaTransactionalIds ids, GuardedWrites holdCheck, BooleanSupplier transactionalProducers,
			Duration closeTimeout) {
		this.ids = ids;
		this.holdCheck = holdCheck;
		this.transactionalProducers = transactionalProducers;
		this.closeTimeout = closeTimeout;
	}

	/** The transactional ids of the locks' producers. */
	public KafkaTransactionalIds ids() {
		return this.ids;
	}

	@Override
	public void checkUsable(String description) {
		if (!this.transactionalProducers.getAsBoolean()) {
			throw new LockConfigurationException(description + ": fenced = true, but the application's Kafka "
					+ "producer factory is not transactional, so its writes cannot be fenced; set "
					+ "spring.kafka.producer.transaction-id-prefix (see docs/kafka.md)");
		}
	}

	@Override
	public FencedCall enter(String description, Handle handle) {
		Call call = new Call(description, handle);
		this.calls.get().push(call);
		return call;
	}

	/**
	 * The innermost fenced call of the calling thread.
	 * @return the call, or {@code null} outside every fenced call
	 */
	@Nullable Call current() {
		return this.calls.get().peek();
	}

	/**
	 * Run an action in a fenced call of a handle held through the programmatic API: the
	 * {@link FencedProducerFactory} hands out the handle's producer while it runs.
	 * @param handle the held lock
	 * @param action the call's work, such as
	 * {@code kafkaTemplate.executeInTransaction(...)}
	 * @return the action's result
	 */
	public <T> T execute(LockHandle handle, Supplier<T> action) {
		try (FencedCall call = enter("Kafka writes fenced by '" + handle.path() + "'", handle)) {
			return action.get();
		}
	}

	private void leave(Call call) {
		Deque<Call> calls = this.calls.get();
		calls.remove(call);
		if (calls.isEmpty()) {
			this.calls.remove();
		}
	}

	/** A fenced call on the calling thread, and the producer it got. */
	final class Call implements FencedCall {

		private final String description;

		private final Handle handle;

		private @Nullable FencedProducer<?, ?> producer;

		private @Nullable FencedProducerFactory<?, ?> factory;

		private boolean used;

		Call(String description, Handle handle) {
			this.description = description;
			this.handle = handle;
		}

		String description() {
			return this.description;
		}

		/**
		 * The call's producer, created and initialized on the first request. A re-entry
		 * of the same lock on this thread shares the outer call's producer.
		 */
		@SuppressWarnings("unchecked")
		<K, V> FencedProducer<K, V> producer(FencedProducerFactory<K, V> factory) {
			if (this.producer == null) {
				LockHandle lock = lock();
				String id = KafkaFencing.this.ids.of(lock);
				for (Call outer : KafkaFencing.this.calls.get()) {
					if (outer != this && outer.producer != null && outer.producer.transactionalId().equals(id)) {
						this.used = true;
						return checkFactory(outer, factory, (FencedProducer<K, V>) outer.producer);
					}
				}
				this.producer = initialize(lock, id, factory);
				this.factory = factory;
			}
			this.used = true;
			return checkFactory(this, factory, (FencedProducer<K, V>) this.producer);
		}

		private <K, V> FencedProducer<K, V> checkFactory(Call owner, FencedProducerFactory<K, V> factory,
				FencedProducer<K, V> producer) {
			// Two producers of one transactional id would fence each other.
			if (owner.factory != factory) {
				throw new LockConfigurationException(this.description + ": two Kafka producer factories sent in one "
						+ "fenced call of lock '" + lock().path() + "'; a lock has one producer (transactional.id '"
						+ producer.transactionalId() + "'), so send through one producer factory per lock");
			}
			return producer;
		}

		private <K, V> FencedProducer<K, V> initialize(LockHandle lock, String id,
				FencedProducerFactory<K, V> factory) {
			lock.assertHeld();
			// Before: a holder that lost its lock must not bump the epoch of a newer
			// holder's producer. After: one that lost it meanwhile must not send.
			checkOnServer(lock, id, null);
			Producer<K, V> producer = factory.newTransactionalProducer(id);
			try {
				producer.initTransactions();
			}
			catch (RuntimeException ex) {
				producer.close(Duration.ZERO);
				throw ex;
			}
			checkOnServer(lock, id, producer);
			return new FencedProducer<>(producer, id, lock, this.description);
		}

		private void checkOnServer(LockHandle lock, String id, @Nullable Producer<?, ?> initialized) {
			try {
				KafkaFencing.this.holdCheck.commit(lock);
			}
			catch (Exception ex) {
				if (initialized != null) {
					initialized.close(Duration.ZERO);
				}
				// An ended session is a lost lock, whether or not the client has started
				// a new one.
				if (ex instanceof LockLostException || ex instanceof KeeperException.SessionExpiredException) {
					StaleFencingTokenException stale = new StaleFencingTokenException(this.description + ": lock '"
							+ lock.path() + "' (fencing token " + lock.fencingToken()
							+ ") is no longer held on the server, so its Kafka producer (transactional.id '" + id
							+ "') " + ((initialized != null) ? "was closed before it sent anything" : "was not created")
							+ "; this holder lost the lock without knowing it, and a newer holder may have taken it",
							lock.path(), lock.fencingToken(), Long.MAX_VALUE);
					stale.initCause(ex);
					throw stale;
				}
				throw new IllegalStateException(
						this.description + ": checking lock '" + lock.path() + "' on the server failed", ex);
			}
		}

		private LockHandle lock() {
			if (this.handle.handles().size() != 1) {
				throw new LockConfigurationException(this.description + ": Kafka writes are fenced by one lock (one "
						+ "transactional.id), but the call holds " + this.handle.handles().size() + " locks; fence "
						+ "Kafka writes with a single lock");
			}
			return this.handle.handles().get(0);
		}

		@Override
		public boolean fencedTransaction() {
			return this.used;
		}

		@Override
		public void close() {
			leave(this);
			if (this.producer != null) {
				this.producer.closeForGood(KafkaFencing.this.closeTimeout);
			}
		}

	}

}
