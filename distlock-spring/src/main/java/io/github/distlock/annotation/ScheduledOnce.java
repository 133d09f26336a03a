package io.github.distlock.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Runs a {@code @Scheduled} method once per slot of its schedule across all instances of
 * the application: a slot is a planned firing time of the method's own
 * {@link org.springframework.scheduling.annotation.Scheduled @Scheduled} trigger
 * ({@code cron}, in its {@code zone}, or {@code fixedRate}, whose slots are aligned to
 * the epoch so that every instance computes the same ones). A firing belongs to the
 * latest slot not after the instance's clock (the application's {@link java.time.Clock}
 * bean if it has one); it claims that slot in ZooKeeper under the job's lock, and a slot
 * claimed once is never run again, by any instance, whatever their clocks say. The other
 * instances' firings of the slot skip quietly.
 *
 * <pre class="code">
 * &#64;Scheduled(cron = "0 0 2 * * *", zone = "UTC")
 * &#64;ScheduledOnce("nightly-report")
 * public void nightlyReport() { ... }
 * </pre>
 *
 * {@code fixedDelay} has no common slots and is refused at startup, as are a method
 * without {@code @Scheduled}, one with several, and a name used by two methods. Inside a
 * run, {@link io.github.distlock.core.JobRun#current()} gives the run (its slot and
 * fencing token); {@link io.github.distlock.core.ScheduledJobs} pauses, resumes and
 * reports the job.
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface ScheduledOnce {

	/**
	 * The job's name, unique in the namespace: a lock path segment (the job's lock is
	 * {@code jobs/<name>}, its record the node {@code /jobs/<name>}). May be a
	 * {@code ${placeholder}}.
	 * @return the name
	 */
	String value();

	/**
	 * What to do about slots that passed while no instance ran the job.
	 * @return the policy, {@link MissedRuns#SKIP} by default
	 */
	MissedRuns missed() default MissedRuns.SKIP;

	/**
	 * How old a missed slot may be for {@link MissedRuns#RUN_ONCE} to catch up on it: a
	 * duration such as {@code 1d}, {@code 2h} or {@code PT30M}, or a
	 * {@code ${placeholder}}.
	 * @return the window, one day by default
	 */
	String catchUpWithin() default "1d";

}
