package io.github.distlock.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.springframework.core.annotation.AliasFor;

/**
 * Run the annotated method while holding a cluster-wide mutex on a ZooKeeper path.
 *
 * <pre class="code">
 * &#64;DistributedLock("orders/#{#order.id}")
 * public void ship(Order order) { ... }
 * </pre>
 *
 * The lock is taken before the method runs and released after it returned or threw. With
 * the default advisor order the lock wraps {@code @Transactional}, so a transaction
 * commits before its lock is released. The method never runs without its lock.
 * <p>
 * The annotation may sit on the class method or on the interface method, and may be used
 * as a meta-annotation to compose annotations of your own. One method carries at most one
 * lock annotation. Methods returning {@code CompletionStage}, {@code Future} or a
 * reactive type are rejected at startup (asynchronous methods are not supported yet), and
 * so are private and static methods, which a proxy cannot intercept.
 * <p>
 * Every misconfiguration that can be known before the first call (bad template, bad wait
 * time, missing fallback, ...) fails the application at startup with a
 * {@link io.github.distlock.core.LockConfigurationException} naming the method.
 */
@Target({ ElementType.METHOD, ElementType.TYPE, ElementType.ANNOTATION_TYPE })
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface DistributedLock {

	/**
	 * Alias for {@link #path()}.
	 * @return the lock path template
	 */
	@AliasFor("path")
	String value() default "";

	/**
	 * Template of the lock path, relative to the lock root: literal text such as
	 * {@code orders/archive} keeps its {@code /} hierarchy and is validated at startup;
	 * each {@code #{...}} part is a SpEL expression evaluated per call (method arguments
	 * as {@code #name}, {@code #p0}, {@code #a0}; {@code #root.method},
	 * {@code #root.args}, {@code #root.target}, {@code #root.targetClass}; beans as
	 * {@code @name}). The value of each part becomes exactly one escaped path segment,
	 * whatever it contains; a {@code null} or empty value, or one longer than 255
	 * characters once escaped, is rejected with an
	 * {@link io.github.distlock.core.InvalidLockPathException}. A path segment holds at
	 * most one {@code #{...}} part.
	 * <p>
	 * A part giving a collection or an array locks every resulting path (multi-lock): all
	 * or none, in sorted order, within one wait time for the whole set, released in
	 * reverse; duplicates are locked once and an empty collection fails the call. At most
	 * one part of a template may give a collection.
	 * @return the lock path template
	 */
	@AliasFor("value")
	String path() default "";

	/**
	 * How long to wait for the lock: empty uses {@code distlock.lock.wait-time};
	 * {@code 0} tries once; {@code -1} waits forever; a duration such as {@code 500ms},
	 * {@code 5s} or {@code PT5S}; a {@code ${placeholder}} resolved at startup to one of
	 * these; or a {@code #{expression}} evaluated per call with the method's arguments,
	 * giving a {@code Duration}, a number of milliseconds or a string as above.
	 * @return the wait time
	 */
	String waitTime() default "";

	/**
	 * How long the lock stays held at least, counted from its acquisition: when the
	 * method's work ends sooner, the lock is released by a timer once that time has
	 * passed (no thread waits for it), so that a node whose schedule fires a little later
	 * finds it taken and does not run the same period again. Empty or {@code 0} releases
	 * the lock as soon as the work ends. A duration such as {@code 30s} or {@code PT30S};
	 * a {@code ${placeholder}} resolved at startup to one; or a {@code #{expression}}
	 * evaluated per call, giving a {@code Duration}, a number of milliseconds or a string
	 * as above. The lock still ends with the session if the process dies; a lock lost
	 * meanwhile is released at once. Meant for scheduled jobs
	 * ({@code waitTime = "0", onTimeout = SKIP}); ShedLock's {@code lockAtLeastFor}.
	 * @return the least time to hold the lock
	 */
	String holdAtLeast() default "";

	/**
	 * Whether the thread holding the lock may take it again (nested calls on the same
	 * path). When {@code false}, a holder asking again fails at once with a
	 * {@link io.github.distlock.core.LockReentryException} instead of waiting for itself.
	 * @return whether the lock is reentrant
	 */
	boolean reentrant() default true;

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

	/**
	 * What to do when the lock is not acquired within the wait time. Cannot be combined
	 * with {@link #fallback()} set to anything else than {@link OnTimeout#THROW}.
	 * @return the timeout policy
	 */
	OnTimeout onTimeout() default OnTimeout.THROW;

	/**
	 * Name of a method of the same bean to call instead when the lock is not acquired in
	 * time. It takes the same parameters as the annotated method, optionally followed by
	 * one parameter to which a {@link io.github.distlock.core.LockTimeoutException} can
	 * be assigned, and returns a type assignable to the annotated method's return type.
	 * It is called on the target object directly (without a lock of its own). Empty means
	 * no fallback.
	 * @return the fallback method name
	 */
	String fallback() default "";

}
