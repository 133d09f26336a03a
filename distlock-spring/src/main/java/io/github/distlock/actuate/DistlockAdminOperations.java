package io.github.distlock.actuate;

import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.actuate.audit.listener.AuditApplicationEvent;
import org.springframework.context.ApplicationEventPublisher;

import io.github.distlock.core.InvalidLockPathException;
import io.github.distlock.core.JobRun;
import io.github.distlock.core.LockAcquisitionException;
import io.github.distlock.core.LockAdmin;
import io.github.distlock.core.LockConfigurationException;
import io.github.distlock.core.LockHolderChangedException;
import io.github.distlock.core.LockNotFoundException;
import io.github.distlock.core.LockParticipant;
import io.github.distlock.core.LockPath;
import io.github.distlock.core.LockProtocol;
import io.github.distlock.core.ScheduledJob;
import io.github.distlock.core.ScheduledJobs;

/**
 * What operators do to the cluster's locks and jobs, shared by the actuator endpoint and
 * the console so that both check input, audit and count alike: ask a lock's holders to
 * release it, remove a holder behind its fence, drain and undrain this instance, and run,
 * pause or resume a job.
 * <p>
 * Each action publishes one {@link AuditApplicationEvent} of type {@value #AUDIT_TYPE}
 * (principal, and data {@code action}, {@code outcome} and what it acted on:
 * {@code path}, {@code protocol}, {@code token}, {@code job}, {@code wait},
 * {@code error}), whatever its outcome; {@link AdminActionMetrics} counts them. An action
 * that did not happen throws an {@link AdminActionException} whose outcome gives the HTTP
 * status.
 */
public class DistlockAdminOperations {

	/** Type of the audit events of operators' actions. */
	public static final String AUDIT_TYPE = "DISTLOCK_ADMIN";

	/** Principal of an action whose request was not authenticated. */
	public static final String ANONYMOUS = "anonymous";

	private final LockAdmin admin;

	private final @Nullable ScheduledJobs jobs;

	private final ApplicationEventPublisher events;

	/**
	 * Create the operations.
	 * @param admin the cluster-wide view and operations of the locks
	 * @param jobs the jobs of this instance, or {@code null}
	 * @param events where the audit events go
	 */
	public DistlockAdminOperations(LockAdmin admin, @Nullable ScheduledJobs jobs, ApplicationEventPublisher events) {
		this.admin = admin;
		this.jobs = jobs;
		this.events = events;
	}

	/**
	 * Ask every holder of a lock to release it.
	 * @param principal who asks, or {@code null} if not authenticated
	 * @param path the lock's path
	 * @param protocol the lock's protocol ({@link LockProtocol#value()})
	 * @return the holders asked
	 * @throws AdminActionException if it was not done
	 */
	public List<LockParticipant> requestRelease(@Nullable String principal, @Nullable String path,
			@Nullable String protocol) {
		Map<String, Object> data = data("request-release");
		data.put("path", path);
		data.put("protocol", protocol);
		return act(principal, data, () -> this.admin.requestRelease(lockPath(path), protocol(protocol)));
	}

	/**
	 * Remove the holder of a lock with the given fencing token, behind its fence.
	 * @param principal who asks, or {@code null} if not authenticated
	 * @param path the lock's path
	 * @param protocol the lock's protocol ({@link LockProtocol#value()})
	 * @param token the fencing token of the holder the operator saw
	 * @return the holder removed
	 * @throws AdminActionException if it was not done
	 */
	public LockParticipant forceRelease(@Nullable String principal, @Nullable String path, @Nullable String protocol,
			@Nullable Long token) {
		Map<String, Object> data = data("force-release");
		data.put("path", path);
		data.put("protocol", protocol);
		data.put("token", token);
		return act(principal, data, () -> {
			if (token == null) {
				throw invalid("force-release needs the fencing token of the holder to remove; none was given");
			}
			return this.admin.forceRelease(lockPath(path), protocol(protocol), token);
		});
	}

	/**
	 * Drain this instance, waiting up to the given time for its holds to end.
	 * @param principal who asks, or {@code null} if not authenticated
	 * @param wait how long to wait, as ISO-8601 ({@code PT10S}) or {@code null} not to
	 * wait
	 * @return whether every hold had ended within the wait
	 * @throws AdminActionException if it was not done
	 */
	public boolean drain(@Nullable String principal, @Nullable String wait) {
		Map<String, Object> data = data("drain");
		data.put("wait", wait);
		return act(principal, data, () -> this.admin.drain(duration(wait)));
	}

	/**
	 * End the drain of this instance.
	 * @param principal who asks, or {@code null} if not authenticated
	 * @throws AdminActionException if it was not done
	 */
	public void undrain(@Nullable String principal) {
		act(principal, data("undrain"), () -> {
			this.admin.undrain();
			return null;
		});
	}

	/**
	 * Whether this instance is draining.
	 * @return {@link LockAdmin#isDraining()}
	 */
	public boolean isDraining() {
		return this.admin.isDraining();
	}

	/**
	 * Run a job once now, outside its schedule, on this instance.
	 * @param principal who asks, or {@code null} if not authenticated
	 * @param job the job's name
	 * @return the run, ended
	 * @throws AdminActionException if it was not done
	 */
	public JobRun runNow(@Nullable String principal, @Nullable String job) {
		Map<String, Object> data = data("run-now");
		data.put("job", job);
		return act(principal, data, () -> jobs(job).runNow(job(job)));
	}

	/**
	 * Pause or resume a job on every instance.
	 * @param principal who asks, or {@code null} if not authenticated
	 * @param job the job's name
	 * @param paused {@code true} to pause, {@code false} to resume
	 * @throws AdminActionException if it was not done
	 */
	public void pause(@Nullable String principal, @Nullable String job, boolean paused) {
		Map<String, Object> data = data(paused ? "pause" : "resume");
		data.put("job", job);
		act(principal, data, () -> {
			ScheduledJobs jobs = jobs(job);
			if (paused) {
				jobs.pause(job(job));
			}
			else {
				jobs.resume(job(job));
			}
			return null;
		});
	}

	/**
	 * Whether this instance schedules a job of that name.
	 * @param job the job's name
	 * @return whether it does
	 */
	public boolean hasJob(String job) {
		ScheduledJobs jobs = this.jobs;
		return jobs != null && jobs.jobs().stream().map(ScheduledJob::name).anyMatch(job::equals);
	}

	/**
	 * Do the action an HTTP request names, as the endpoint and the console route them:
	 * {@code locks/request-release}, {@code locks/force-release}, {@code instance/drain},
	 * {@code instance/undrain}, {@code jobs/run-now}, {@code jobs/pause} and
	 * {@code jobs/resume}.
	 * @param principal who asks, or {@code null} if not authenticated
	 * @param subject {@code locks}, {@code instance} or {@code jobs}
	 * @param action the action on it
	 * @param request the action's input
	 * @return what the action did, for the answer's body
	 * @throws AdminActionException if it was not done, or the subject and action name no
	 * action ({@link AdminOutcome#NOT_FOUND})
	 */
	public AdminActionResult perform(@Nullable String principal, String subject, String action,
			AdminActionRequest request) {
		Object detail = switch (subject + "/" + action) {
			case "locks/request-release" -> requestRelease(principal, request.path(), request.protocol()).stream()
				.map(ClusterDescriptor.ParticipantDescriptor::of)
				.toList();
			case "locks/force-release" -> ClusterDescriptor.ParticipantDescriptor
				.of(forceRelease(principal, request.path(), request.protocol(), request.token()));
			case "instance/drain" -> Map.of("drained", drain(principal, request.waitTime()));
			case "instance/undrain" -> {
				undrain(principal);
				yield Map.of("draining", isDraining());
			}
			case "jobs/run-now" -> DistlockEndpoint.JobRunDescriptor.of(runNow(principal, request.job()));
			case "jobs/pause", "jobs/resume" -> {
				pause(principal, request.job(), action.equals("pause"));
				yield Map.of("job", request.job(), "paused", action.equals("pause"));
			}
			default -> throw new AdminActionException(AdminOutcome.NOT_FOUND,
					"No operator action '" + subject + "/" + action
							+ "': use locks/request-release, locks/force-release, instance/drain, "
							+ "instance/undrain, jobs/run-now, jobs/pause or jobs/resume",
					null);
		};
		return new AdminActionResult(subject + "/" + action, AdminOutcome.SUCCESS.tag(), detail);
	}

	private <T> T act(@Nullable String principal, Map<String, Object> data, Supplier<T> action) {
		AdminOutcome outcome = AdminOutcome.SUCCESS;
		try {
			return action.get();
		}
		catch (AdminActionException ex) {
			outcome = ex.getOutcome();
			data.put("error", ex.getMessage());
			throw ex;
		}
		catch (RuntimeException ex) {
			AdminActionException failure = translate(ex, data);
			outcome = failure.getOutcome();
			data.put("error", failure.getMessage());
			throw failure;
		}
		finally {
			data.put("outcome", outcome.tag());
			data.values().removeIf((value) -> value == null);
			this.events.publishEvent(new AuditApplicationEvent(Instant.now(),
					(principal != null && !principal.isBlank()) ? principal : ANONYMOUS, AUDIT_TYPE, data));
		}
	}

	private static AdminActionException translate(RuntimeException ex, Map<String, Object> data) {
		String action = (String) data.get("action");
		String message = action + " failed: " + ex.getMessage();
		if (ex instanceof LockNotFoundException) {
			return new AdminActionException(AdminOutcome.NOT_FOUND, message, ex);
		}
		if (ex instanceof LockHolderChangedException || ex instanceof IllegalStateException) {
			return new AdminActionException(AdminOutcome.CONFLICT, message, ex);
		}
		if (ex instanceof LockConfigurationException) {
			return new AdminActionException(AdminOutcome.NOT_FOUND, message, ex);
		}
		if (ex instanceof UnsupportedOperationException) {
			return new AdminActionException(AdminOutcome.UNSUPPORTED, message, ex);
		}
		if (ex instanceof LockAcquisitionException) {
			return new AdminActionException(AdminOutcome.UNAVAILABLE, message, ex);
		}
		return new AdminActionException(AdminOutcome.FAILED, message, ex);
	}

	private ScheduledJobs jobs(@Nullable String job) {
		ScheduledJobs jobs = this.jobs;
		if (job == null || job.isBlank()) {
			throw invalid("A job action needs the job's name; none was given");
		}
		if (jobs == null || !hasJob(job)) {
			throw new AdminActionException(AdminOutcome.NOT_FOUND, "This instance schedules no job '" + job + "'",
					null);
		}
		return jobs;
	}

	private static String job(@Nullable String job) {
		if (job == null) {
			throw invalid("A job action needs the job's name; none was given");
		}
		return job;
	}

	private static Map<String, Object> data(String action) {
		Map<String, Object> data = new LinkedHashMap<>();
		data.put("action", action);
		return data;
	}

	/**
	 * Parse a lock path as operators give it.
	 * @param path the path, such as {@code orders/42}
	 * @return the lock path
	 * @throws AdminActionException ({@link AdminOutcome#INVALID}) naming the value if it
	 * is not a lock path
	 */
	public static LockPath lockPath(@Nullable String path) {
		if (path == null || path.isBlank()) {
			throw invalid("A lock action needs the lock's path; none was given");
		}
		try {
			return LockPath.parse(path);
		}
		catch (InvalidLockPathException ex) {
			throw new AdminActionException(AdminOutcome.INVALID,
					"'" + path + "' is not a lock path: " + ex.getMessage(), ex);
		}
	}

	/**
	 * Parse a lock protocol as operators give it.
	 * @param protocol the protocol's value, such as {@code mutex} or {@code read_write}
	 * @return the protocol
	 * @throws AdminActionException ({@link AdminOutcome#INVALID}) naming the value if it
	 * is no lock protocol
	 */
	public static LockProtocol protocol(@Nullable String protocol) {
		if (protocol != null) {
			for (LockProtocol candidate : LockProtocol.values()) {
				if (candidate.value().equals(protocol.toLowerCase(Locale.ROOT))) {
					return candidate;
				}
			}
		}
		throw invalid("'" + protocol + "' is not a lock protocol; use one of mutex, read_write, semaphore, "
				+ "leader_latch");
	}

	private static Duration duration(@Nullable String wait) {
		if (wait == null || wait.isBlank()) {
			return Duration.ZERO;
		}
		try {
			Duration duration = Duration.parse(wait);
			if (duration.isNegative()) {
				throw invalid("'" + wait + "' is not a wait: it is negative");
			}
			return duration;
		}
		catch (DateTimeParseException ex) {
			throw new AdminActionException(AdminOutcome.INVALID,
					"'" + wait + "' is not a wait: give an ISO-8601 duration such as PT10S", ex);
		}
	}

	private static AdminActionException invalid(String message) {
		return new AdminActionException(AdminOutcome.INVALID, message, null);
	}

}
