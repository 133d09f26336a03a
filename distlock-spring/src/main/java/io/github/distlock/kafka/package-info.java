/**
 * distlock: a lock holder's Kafka writes, fenced by the broker. Inside a fenced call
 * ({@code fenced = true} on {@code @DistributedLock}, {@code @WriteLock} or
 * {@code @LeaderOnly}, or {@link io.github.distlock.kafka.KafkaFencing#execute} for a
 * programmatic hold) a {@link io.github.distlock.kafka.FencedProducerFactory} hands out
 * one transactional producer per call, whose {@code transactional.id} is derived from the
 * lock ({@link io.github.distlock.kafka.KafkaTransactionalIds}); the next holder's
 * {@code initTransactions()} fences it, and its sends and commits then fail with
 * {@link io.github.distlock.core.StaleFencingTokenException}. Lifecycle: call (entered by
 * the interceptor) → producer (created and initialized on the call's first request,
 * checked on the server, shared by re-entries of the lock on the thread) → transactions
 * (begun and committed by Spring Kafka inside the call) → closed when the call ends. A
 * leader's call ({@code @LeaderOnly(fenced = true)}) is fenced the same way, by the
 * group's id, its server checks made on the tenure's latch node. A listener container's
 * transactions, which begin before the listener is called, are fenced by a
 * {@link io.github.distlock.kafka.FencedKafkaTransactionManager}: each transaction is a
 * fenced call of its lock, from the lock's acquisition to its release. Spring-dependent
 * (spring-kafka); the core API stays free of it.
 */
@NullMarked
package io.github.distlock.kafka;

import org.jspecify.annotations.NullMarked;
