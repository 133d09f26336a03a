package io.github.distlock.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.springframework.core.annotation.AliasFor;

/**
 * Run the annotated method while holding one permit of a cluster-wide counting semaphore:
 * at most {@code permits} calls run at once across the cluster.
 *
 * <pre class="code">
 * &#64;Semaphore(value = "reports", permits = 2)
 * public Report build(LocalDate day) { ... }
 *
 * &#64;Semaphore(value = "exports", permitsString = "${exports.parallelism:4}")
 * public void export(Query query) { ... }
 * </pre>
 *
 * Backed by Curator's {@code InterProcessSemaphoreV2}, whose nodes live in the
 * {@code semaphore/} subtree. A lease dies with its holder's session, so a crashed node
 * frees its permits. Every call takes a permit of its own, also a nested call on a thread
 * that holds one already. Every node must declare the same number of permits for a path:
 * a node declaring another number gets a
 * {@link io.github.distlock.core.LockConfigurationException} when it acquires, instead of
 * admitting more holders than intended.
 * <p>
 * Give the number of permits either as {@link #permits()} or as {@link #permitsString()}
 * (a number or a {@code ${placeholder}} resolved at startup), not both. A missing, non
 * numeric or non-positive number fails the application at startup.
 * <p>
 * A semaphore guards one path: a path template whose {@code #{...}} part gives a
 * collection or an array (a multi-lock for the other lock annotations) is rejected, at
 * startup when the part is a plain reference to a collection or array parameter, else
 * when the call resolves it. Otherwise it behaves as
 * {@link DistributedLock @DistributedLock}.
 */
@Target({ ElementType.METHOD, ElementType.TYPE, ElementType.ANNOTATION_TYPE })
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface Semaphore {

	/**
	 * Alias for {@link #path()}.
	 * @return the lock path template
	 */
	@AliasFor("path")
	String value() default "";

	/**
	 * Template of the semaphore path, relative to the lock root, as for
	 * {@link DistributedLock#path()}; it must resolve to a single path.
	 * @return the lock path template
	 */
	@AliasFor("value")
	String path() default "";

	/**
	 * How many holders the semaphore admits at once across the cluster, at least 1.
	 * {@code 0} (the default) means "given by {@link #permitsString()}".
	 * @return the number of permits
	 */
	int permits() default 0;

	/**
	 * The number of permits as text: a number such as {@code "4"}, or a
	 * {@code ${placeholder}} resolved at startup to one. Use it instead of
	 * {@link #permits()}, not together with it.
	 * @return the number of permits as text
	 */
	String permitsString() default "";

	/**
	 * How long to wait for a permit, in the forms of {@link DistributedLock#waitTime()}.
	 * @return the wait time
	 */
	String waitTime() default "";

	/**
	 * What to do when no permit is acquired within the wait time.
	 * @return the timeout policy
	 * @see DistributedLock#onTimeout()
	 */
	OnTimeout onTimeout() default OnTimeout.THROW;

	/**
	 * Name of a method of the same bean to call instead when no permit is acquired in
	 * time, as for {@link DistributedLock#fallback()}.
	 * @return the fallback method name
	 */
	String fallback() default "";

}
