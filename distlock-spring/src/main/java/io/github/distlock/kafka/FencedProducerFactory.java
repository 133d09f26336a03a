package io.github.distlock.kafka;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.Serializer;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.kafka.core.ProducerFactory;
import org.springframework.kafka.core.ProducerPostProcessor;

import io.github.distlock.core.LockConfigurationException;

/**
 * A {@link ProducerFactory} that, inside a fenced call ({@code fenced = true}, or
 * {@link KafkaFencing#execute}), hands out the call's transactional producer, whose
 * {@code transactional.id} is the lock's; outside every fenced call it is the factory it
 * wraps. A {@code KafkaTemplate} or a {@code KafkaTransactionManager} on it needs no
 * other change: inside a fenced call the template's transaction
 * ({@code executeInTransaction}, {@code @Transactional}, or one synchronized with a
 * database transaction) runs on the lock's producer. A factory without transactions is
 * refused inside a fenced call, its records would not be fenced.
 */
public final class FencedProducerFactory<K, V> implements ProducerFactory<K, V>, DisposableBean {

	private final ProducerFactory<K, V> delegate;

	private final KafkaFencing fencing;

	/**
	 * Wrap a producer factory.
	 * @param delegate the application's factory: its configuration and serializers make
	 * the locks' producers
	 * @param fencing the fenced calls
	 */
	public FencedProducerFactory(ProducerFactory<K, V> delegate, KafkaFencing fencing) {
		this.delegate = delegate;
		this.fencing = fencing;
	}

	/** The factory this one wraps. */
	public ProducerFactory<K, V> getDelegate() {
		return this.delegate;
	}

	@Override
	public Producer<K, V> createProducer() {
		KafkaFencing.Call call = this.fencing.current();
		if (call == null) {
			return this.delegate.createProducer();
		}
		if (!this.delegate.transactionCapable()) {
			throw notTransactional(call);
		}
		return call.producer(this);
	}

	@Override
	public Producer<K, V> createProducer(@Nullable String txIdPrefix) {
		KafkaFencing.Call call = this.fencing.current();
		return (call != null) ? call.producer(this) : this.delegate.createProducer(txIdPrefix);
	}

	@Override
	public Producer<K, V> createNonTransactionalProducer() {
		KafkaFencing.Call call = this.fencing.current();
		if (call != null) {
			throw notTransactional(call);
		}
		return this.delegate.createNonTransactionalProducer();
	}

	private LockConfigurationException notTransactional(KafkaFencing.Call call) {
		return new LockConfigurationException(call.description() + ": a Kafka producer without transactions was "
				+ "asked for inside a fenced call, so its records would not be fenced; send through a KafkaTemplate on "
				+ "a transactional producer factory (spring.kafka.producer.transaction-id-prefix), in a transaction "
				+ "(see docs/kafka.md)");
	}

	/**
	 * Create a transactional producer with the delegate's configuration and serializers.
	 * @param transactionalId the lock's transactional id
	 * @return the producer, not yet initialized
	 */
	Producer<K, V> newTransactionalProducer(String transactionalId) {
		Map<String, Object> configs = new HashMap<>(this.delegate.getConfigurationProperties());
		configs.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId);
		configs.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
		// Client ids name metrics and log lines: one per lock's producer, as Spring Kafka
		// does per producer.
		Object clientId = configs.get(ProducerConfig.CLIENT_ID_CONFIG);
		configs.put(ProducerConfig.CLIENT_ID_CONFIG, ((clientId != null) ? clientId + "-" : "") + transactionalId);
		Producer<K, V> producer = new KafkaProducer<>(configs, this.delegate.getKeySerializerSupplier().get(),
				this.delegate.getValueSerializerSupplier().get());
		for (ProducerPostProcessor<K, V> postProcessor : this.delegate.getPostProcessors()) {
			producer = postProcessor.apply(producer);
		}
		return producer;
	}

	/** Close the wrapped factory's producers, as its own bean would be closed. */
	@Override
	public void destroy() throws Exception {
		if (this.delegate instanceof DisposableBean disposable) {
			disposable.destroy();
		}
	}

	@Override
	public boolean transactionCapable() {
		return this.delegate.transactionCapable();
	}

	@Override
	public void closeThreadBoundProducer() {
		this.delegate.closeThreadBoundProducer();
	}

	@Override
	public void reset() {
		this.delegate.reset();
	}

	@Override
	public Map<String, Object> getConfigurationProperties() {
		return this.delegate.getConfigurationProperties();
	}

	@Override
	public Supplier<@Nullable Serializer<V>> getValueSerializerSupplier() {
		return this.delegate.getValueSerializerSupplier();
	}

	@Override
	public Supplier<@Nullable Serializer<K>> getKeySerializerSupplier() {
		return this.delegate.getKeySerializerSupplier();
	}

	@Override
	public boolean isProducerPerThread() {
		return this.delegate.isProducerPerThread();
	}

	@Override
	public @Nullable String getTransactionIdPrefix() {
		return this.delegate.getTransactionIdPrefix();
	}

	@Override
	public Duration getPhysicalCloseTimeout() {
		return this.delegate.getPhysicalCloseTimeout();
	}

	@Override
	public void addListener(Listener<K, V> listener) {
		this.delegate.addListener(listener);
	}

	@Override
	public void addListener(int index, Listener<K, V> listener) {
		this.delegate.addListener(index, listener);
	}

	@Override
	public boolean removeListener(Listener<K, V> listener) {
		return this.delegate.removeListener(listener);
	}

	@Override
	public List<Listener<K, V>> getListeners() {
		return this.delegate.getListeners();
	}

	@Override
	public void addPostProcessor(ProducerPostProcessor<K, V> postProcessor) {
		this.delegate.addPostProcessor(postProcessor);
	}

	@Override
	public boolean removePostProcessor(ProducerPostProcessor<K, V> postProcessor) {
		return this.delegate.removePostProcessor(postProcessor);
	}

	@Override
	public List<ProducerPostProcessor<K, V>> getPostProcessors() {
		return this.delegate.getPostProcessors();
	}

	@Override
	public void updateConfigs(Map<String, Object> updates) {
		this.delegate.updateConfigs(updates);
	}

	@Override
	public void removeConfig(String configKey) {
		this.delegate.removeConfig(configKey);
	}

	@Override
	public Serializer<K> getKeySerializer() {
		return this.delegate.getKeySerializer();
	}

	@Override
	public Serializer<V> getValueSerializer() {
		return this.delegate.getValueSerializer();
	}

	@Override
	public ProducerFactory<K, V> copyWithConfigurationOverride(@Nullable Map<String, Object> overrideProperties) {
		return new FencedProducerFactory<>(this.delegate.copyWithConfigurationOverride(overrideProperties),
				this.fencing);
	}

}
