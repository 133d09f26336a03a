package io.github.distlock.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.springframework.core.annotation.AliasFor;

/**
 * Run the annotated method only while this instance leads the group: one instance of the
 * application at a time, for jobs and consumers that must not run twice.
 *
 * <pre class="code">
 * &#64;Scheduled(fixedDelay = 60_000)
 * &#64;LeaderOnly("billing")
 * public void closeInvoices() { ... }
 * </pre>
 *
 * The instance joins the group's election (Curator's {@code LeaderLatch}, under
 * {@code /<namespace>/leader/<group>}) once the application context has started, and
 * leaves it when the context closes, before the beans that do the work stop, so that
 * another instance leads at once. A call on an instance that does not lead is skipped
 * (the empty value of the return type, as {@code onTimeout = SKIP} gives), or, with
 * {@code onNotLeader = THROW}, fails with a
 * {@link io.github.distlock.core.NotLeaderException}. A leadership lost while the method
 * runs ends the call with a {@link io.github.distlock.core.LockLostException}, as a lost
 * lock does; {@link io.github.distlock.core.LockContext} gives the tenure's epoch as its
 * fencing token.
 * <p>
 * On a class, it applies to every public method. Plain, {@code CompletionStage}, reactive
 * and Kotlin {@code suspend} methods work as with the lock annotations, and it combines
 * with them on the same method (the leadership is checked first). The group is a
 * constant, validated at startup like a literal lock path.
 */
@Target({ ElementType.METHOD, ElementType.TYPE, ElementType.ANNOTATION_TYPE })
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface LeaderOnly {

	/**
	 * Alias for {@link #group()}.
	 * @return the group
	 */
	@AliasFor("group")
	String value() default "";

	/**
	 * The group whose leader runs the method: a literal path such as {@code billing} or
	 * {@code jobs/reports}.
	 * @return the group
	 */
	@AliasFor("value")
	String group() default "";

	/**
	 * What a call on an instance that does not lead the group does.
	 * @return the policy
	 */
	OnNotLeader onNotLeader() default OnNotLeader.SKIP;

	/**
	 * Whether the leader's calls fence the transaction they run in: it commits only if no
	 * later leader of the group committed a fenced transaction before it, else it rolls
	 * back with a {@link io.github.distlock.core.StaleFencingTokenException}. The token
	 * is the tenure's epoch, and the group's row in the fence table is
	 * {@code leader/<group>}. As for {@link DistributedLock#fenced()}: the method returns
	 * its result and runs a JDBC or JPA transaction, or returns a {@code Mono} or
	 * {@code Flux} (or is a Kotlin {@code suspend} function) and runs an R2DBC one; the
	 * lock wraps the method's {@code @Transactional}. Kafka transactions in the call run
	 * on the producer of {@code transactional.id} {@code distlock-leader/<group>}, which
	 * the next leader's producer fences. See docs/failure-model.md and docs/kafka.md.
	 * @return whether the leader's transactions are fenced
	 */
	boolean fenced() default false;

}
