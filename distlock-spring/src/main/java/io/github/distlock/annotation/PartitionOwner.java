package io.github.distlock.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Run the annotated method only on the instance that owns the partition of the call's key
 * in a partitioned group ({@link io.github.distlock.core.Partitions}): work split by key,
 * each key's work done by one instance at a time.
 *
 * <pre class="code">
 * &#64;PartitionOwner(group = "tenants", partitions = 16, key = "#tenantId")
 * public void poll(String tenantId) { ... }
 * </pre>
 *
 * The instance joins the group, with its count, once the application context has started,
 * and leaves it when the context closes, before the beans that do the work stop. The key
 * is a plain SpEL expression over the method's parameters, as the key of Spring's
 * {@code @Cacheable} ({@code #tenantId}, {@code #p0}, {@code #order.customerId}), not a
 * {@code #{...}} template; its value is hashed as
 * {@link io.github.distlock.core.Partitions#partitionOf(Object)} does. A call on the
 * owner runs inside {@link io.github.distlock.core.Partitions#enter(int)}, so a
 * revocation of the partition waits for it to end (up to the drain time). A call on
 * another instance is skipped (the empty value of the return type), or, with
 * {@code onNotOwner = THROW}, fails with a
 * {@link io.github.distlock.core.NotPartitionOwnerException}.
 * <p>
 * On a method, directly or through a composed annotation that carries it. Only methods
 * that do their work before they return: a method returning a {@code CompletionStage}, a
 * reactive type, or a Kotlin {@code suspend} function is refused at startup. The group is
 * a constant; every method naming a group must give it the same number of partitions.
 */
@Target({ ElementType.METHOD, ElementType.ANNOTATION_TYPE })
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface PartitionOwner {

	/**
	 * The partitioned group: a literal path such as {@code tenants} or
	 * {@code jobs/tenants}.
	 * @return the group
	 */
	String group();

	/**
	 * The number of partitions of the group, at least 1, the same in every method and
	 * instance naming the group.
	 * @return the number of partitions
	 */
	int partitions();

	/**
	 * The key whose partition's owner runs the call: a SpEL expression over the method's
	 * parameters, such as {@code #tenantId}.
	 * @return the key expression
	 */
	String key();

	/**
	 * What a call on an instance that does not own the key's partition does.
	 * @return the policy
	 */
	OnNotOwner onNotOwner() default OnNotOwner.SKIP;

}
