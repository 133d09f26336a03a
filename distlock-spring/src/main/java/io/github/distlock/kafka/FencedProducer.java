package io.github.distlock.kafka;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Future;

import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.errors.InvalidProducerEpochException;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.metrics.KafkaMetric;
import org.jspecify.annotations.Nullable;

import io.github.distlock.core.LockHandle;
import io.github.distlock.core.LockLostException;
import io.github.distlock.core.LockState;
import io.github.distlock.core.StaleFencingTokenException;

/**
 * The transactional producer of one fenced call: the broker's fencing errors surface as
 * {@link StaleFencingTokenException}, a transaction does not commit once this process
 * knows the lock is lost (it is aborted), and {@link #close()} leaves the producer open
 * for the rest of the call (Spring Kafka closes a producer after each transaction; the
 * call closes it when it ends).
 */
final class FencedProducer<K, V> implements Producer<K, V> {

	private final Producer<K, V> delegate;

	private final String transactionalId;

	private final LockHandle lock;

	private final String description;

	private volatile boolean inTransaction;

	private volatile boolean fenced;

	FencedProducer(Producer<K, V> delegate, String transactionalId, LockHandle lock, String description) {
		this.delegate = delegate;
		this.transactionalId = transactionalId;
		this.lock = lock;
		this.description = description;
	}

	String transactionalId() {
		return this.transactionalId;
	}

	@Override
	public void initTransactions() {
		// Initialized when the call asked for it, while the lock was held; a second
		// initialization would bump the epoch again, also after a newer holder's.
	}

	@Override
	public void beginTransaction() {
		checkUsable("begin a transaction");
		run(this.delegate::beginTransaction);
		this.inTransaction = true;
	}

	@Override
	public void commitTransaction() {
		LockState state = this.lock.state();
		if (state == LockState.LOST || state == LockState.RELEASED) {
			// The abort also asks the broker: a fenced producer learns it was fenced.
			abortTransaction();
			throw new LockLostException(this.description + ": the Kafka transaction of lock '" + this.lock.path()
					+ "' was aborted instead of committed: the lock is " + state);
		}
		run(this.delegate::commitTransaction);
		this.inTransaction = false;
	}

	@Override
	public void abortTransaction() {
		this.inTransaction = false;
		// The broker aborts a fenced producer's open transaction itself.
		if (!this.fenced) {
			run(this.delegate::abortTransaction);
		}
	}

	@Override
	public void sendOffsetsToTransaction(Map<TopicPartition, OffsetAndMetadata> offsets,
			ConsumerGroupMetadata groupMetadata) {
		run(() -> this.delegate.sendOffsetsToTransaction(offsets, groupMetadata));
	}

	@Override
	public Future<RecordMetadata> send(ProducerRecord<K, V> record) {
		return send(record, null);
	}

	@Override
	public Future<RecordMetadata> send(ProducerRecord<K, V> record, @Nullable Callback callback) {
		checkUsable("send");
		try {
			return this.delegate.send(record, (metadata, exception) -> {
				if (callback != null) {
					callback.onCompletion(metadata, (exception != null) ? translate(exception) : null);
				}
			});
		}
		catch (RuntimeException ex) {
			throw translate(ex);
		}
	}

	@Override
	public void flush() {
		run(this.delegate::flush);
	}

	@Override
	public List<PartitionInfo> partitionsFor(String topic) {
		return this.delegate.partitionsFor(topic);
	}

	@Override
	public Map<MetricName, ? extends Metric> metrics() {
		return this.delegate.metrics();
	}

	@Override
	public void registerMetricForSubscription(KafkaMetric metric) {
		this.delegate.registerMetricForSubscription(metric);
	}

	@Override
	public void unregisterMetricFromSubscription(KafkaMetric metric) {
		this.delegate.unregisterMetricFromSubscription(metric);
	}

	@Override
	public Uuid clientInstanceId(Duration timeout) {
		return this.delegate.clientInstanceId(timeout);
	}

	@Override
	public void close() {
	}

	@Override
	public void close(Duration timeout) {
	}

	/** Close the producer when its call ends, aborting a transaction left open. */
	void closeForGood(Duration timeout) {
		try {
			if (this.inTransaction && !this.fenced) {
				this.delegate.abortTransaction();
			}
		}
		catch (RuntimeException ex) {
			// Closing aborts it on the broker too; the call's outcome is decided already.
		}
		finally {
			this.delegate.close(timeout);
		}
	}

	// Only the broker's answer: whether this process knows the lock is lost is asked at
	// the commit, so that a stale holder learns it was fenced whatever it knows.
	private void checkUsable(String action) {
		if (this.fenced) {
			throw stale(action, null);
		}
	}

	private void run(Runnable action) {
		try {
			action.run();
		}
		catch (RuntimeException ex) {
			throw translate(ex);
		}
	}

	private RuntimeException translate(Exception ex) {
		if (isFencing(ex)) {
			this.fenced = true;
			return stale("write", ex);
		}
		return (ex instanceof RuntimeException runtime) ? runtime : new IllegalStateException(ex);
	}

	private StaleFencingTokenException stale(String action, @Nullable Exception cause) {
		StaleFencingTokenException stale = new StaleFencingTokenException(this.description + ": Kafka refused to "
				+ action + " for lock '" + this.lock.path() + "' (fencing token " + this.lock.fencingToken()
				+ "): a newer holder's producer initialized transactional.id '" + this.transactionalId
				+ "', which fenced this holder's; this holder lost the lock without knowing it (its session ended "
				+ "during a pause, say), so its records are not committed", this.lock.path(), this.lock.fencingToken(),
				Long.MAX_VALUE);
		if (cause != null) {
			stale.initCause(cause);
		}
		return stale;
	}

	private static boolean isFencing(@Nullable Throwable ex) {
		for (Throwable t = ex; t != null; t = t.getCause()) {
			if (t instanceof ProducerFencedException || t instanceof InvalidProducerEpochException) {
				return true;
			}
		}
		return false;
	}

}
