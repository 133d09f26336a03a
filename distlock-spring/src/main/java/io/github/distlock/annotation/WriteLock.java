package io.github.distlock.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.springframework.core.annotation.AliasFor;

/**
 * Run the annotated method while holding the exclusive (write) side of a cluster-wide
 * read/write lock: one writer at a time across the cluster, and no reader of the same
 * path ({@link ReadLock @ReadLock}) meanwhile.
 *
 * <pre class="code">
 * &#64;WriteLock("catalog/#{#item.sku}")
 * public void update(Item item) { ... }
 * </pre>
 *
 * Backed by one Curator {@code InterProcessReadWriteLock} per path per node, whose nodes
 * live in the {@code rw/} subtree. The write lock is reentrant, and its holder may also
 * take the read lock (downgrade: a nested {@code @ReadLock} call on the same path runs at
 * once).
 * <p>
 * Otherwise it behaves as {@link DistributedLock @DistributedLock}: the method never runs
 * without its lock, one lock annotation per method, misconfigurations fail at startup.
 */
@Target({ ElementType.METHOD, ElementType.TYPE, ElementType.ANNOTATION_TYPE })
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface WriteLock {

	/**
	 * Alias for {@link #path()}.
	 * @return the lock path template
	 */
	@AliasFor("path")
	String value() default "";

	/**
	 * Template of the lock path, relative to the lock root, as for
	 * {@link DistributedLock#path()}. A {@code #{...}} part giving a collection or an
	 * array takes the write lock of every resulting path, all or none, in sorted order.
	 * @return the lock path template
	 */
	@AliasFor("value")
	String path() default "";

	/**
	 * How long to wait for the lock, in the forms of {@link DistributedLock#waitTime()}.
	 * With several paths, the wait time covers the whole set.
	 * @return the wait time
	 */
	String waitTime() default "";

	/**
	 * What to do when the lock is not acquired within the wait time.
	 * @return the timeout policy
	 * @see DistributedLock#onTimeout()
	 */
	OnTimeout onTimeout() default OnTimeout.THROW;

	/**
	 * Name of a method of the same bean to call instead when the lock is not acquired in
	 * time, as for {@link DistributedLock#fallback()}.
	 * @return the fallback method name
	 */
	String fallback() default "";

	/**
	 * Whether the lock fences the transaction the call runs in: the transaction commits
	 * only if no holder of the same lock with a newer fencing token has committed before
	 * it, else it rolls back with a
	 * {@link io.github.distlock.core.StaleFencingTokenException}. At commit the
	 * transaction advances the lock path's row in the fence table of its database. The
	 * transaction is one that begins inside the call (put {@code @Transactional} on the
	 * same method: the lock wraps it) or that was running when the call began. A method
	 * that returns its result needs a {@code DataSource} and a transaction manager (JDBC,
	 * JPA); a method returning a {@code Mono} or {@code Flux}, or a Kotlin
	 * {@code suspend} function, needs an R2DBC {@code ConnectionFactory} and an
	 * {@code R2dbcTransactionManager}: its work runs, once the lock is held, in a
	 * reactive transaction with the method's {@code @Transactional} attributes. A
	 * {@code CompletionStage} method cannot be fenced. See docs/failure-model.md.
	 * @return whether the transaction is fenced
	 */
	boolean fenced() default false;

}
