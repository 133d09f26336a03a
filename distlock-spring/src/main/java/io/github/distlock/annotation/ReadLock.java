package io.github.distlock.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.springframework.core.annotation.AliasFor;

/**
 * Run the annotated method while holding the shared (read) side of a cluster-wide
 * read/write lock: any number of readers, on any node, may be inside at once, but none
 * while a writer holds the {@link WriteLock @WriteLock} of the same path.
 *
 * <pre class="code">
 * &#64;ReadLock("catalog/#{#sku}")
 * public Item find(String sku) { ... }
 * </pre>
 *
 * Backed by one Curator {@code InterProcessReadWriteLock} per path per node, whose nodes
 * live in the {@code rw/} subtree. The read lock is reentrant. A thread holding the write
 * lock may take the read lock too (downgrade); a thread holding only the read lock that
 * asks for the write lock gets a {@link io.github.distlock.core.LockUpgradeException} at
 * once instead of waiting for itself.
 * <p>
 * Otherwise it behaves as {@link DistributedLock @DistributedLock}: the method never runs
 * without its lock, one lock annotation per method, misconfigurations fail at startup.
 */
@Target({ ElementType.METHOD, ElementType.TYPE, ElementType.ANNOTATION_TYPE })
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface ReadLock {

	/**
	 * Alias for {@link #path()}.
	 * @return the lock path template
	 */
	@AliasFor("path")
	String value() default "";

	/**
	 * Template of the lock path, relative to the lock root, as for
	 * {@link DistributedLock#path()}. A {@code #{...}} part giving a collection or an
	 * array takes the read lock of every resulting path, all or none, in sorted order.
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

}
