package io.github.distlock.actuate;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.boot.actuate.endpoint.web.annotation.EndpointWebExtension;
import org.springframework.util.MimeType;

/**
 * The {@code distlock} endpoint over HTTP with operators' actions on the cluster's locks,
 * used instead of {@link DistlockEndpointWebExtension} when
 * {@code distlock.admin.enabled} is on: {@code POST
 * /actuator/distlock/{subject}/{action}} with the action's input as JSON
 * ({@link AdminActionRequest}). Each action is audited and counted
 * ({@link DistlockAdminOperations}); one that is not done answers with problem details
 * and the status of its {@link AdminOutcome} (400, 404, 409, 501 or 503).
 */
@EndpointWebExtension(endpoint = DistlockEndpoint.class)
public class DistlockAdminWebExtension extends DistlockEndpointWebExtension {

	private static final MimeType PROBLEM = MimeType.valueOf("application/problem+json");

	private final DistlockEndpoint endpoint;

	private final DistlockAdminOperations operations;

	/**
	 * Create the extension.
	 * @param endpoint the endpoint that reads the lock nodes
	 * @param operations what does the actions
	 */
	public DistlockAdminWebExtension(DistlockEndpoint endpoint, DistlockAdminOperations operations) {
		super(endpoint);
		this.endpoint = endpoint;
		this.operations = operations;
	}

	/**
	 * Pause or resume a job on every instance: {@code POST /actuator/distlock/{job}} with
	 * {@code {"paused": true}}, as before the admin switch existed.
	 * @param job the job's name
	 * @param paused whether its firings skip from now on
	 * @param securityContext who asks
	 * @return the job's entry, or {@code 404} if this instance has no such job
	 */
	@WriteOperation
	public WebEndpointResponse<DistlockEndpoint.JobDescriptor> job(@Selector String job, boolean paused,
			SecurityContext securityContext) {
		DistlockEndpoint.JobDescriptor found = this.endpoint.job(job, paused, securityContext);
		return (found != null) ? new WebEndpointResponse<>(found)
				: new WebEndpointResponse<>(WebEndpointResponse.STATUS_NOT_FOUND);
	}

	/**
	 * Do an operator's action: {@code locks/request-release} ({@code path},
	 * {@code protocol}), {@code locks/force-release} ({@code path}, {@code protocol},
	 * {@code token}), {@code instance/drain} ({@code waitTime}, optional),
	 * {@code instance/undrain}, {@code jobs/run-now}, {@code jobs/pause},
	 * {@code jobs/resume} ({@code job}).
	 * @param subject {@code locks}, {@code instance} or {@code jobs}
	 * @param action the action on it
	 * @param path the lock's path
	 * @param protocol the lock's protocol
	 * @param token the fencing token of the holder to remove
	 * @param waitTime how long a drain waits for the holds to end (ISO-8601)
	 * @param job the job's name
	 * @param securityContext who asks
	 * @return what the action did ({@code 200}), or why it was not done
	 */
	@WriteOperation
	public WebEndpointResponse<Object> act(@Selector String subject, @Selector String action, @Nullable String path,
			@Nullable String protocol, @Nullable Long token, @Nullable String waitTime, @Nullable String job,
			SecurityContext securityContext) {
		try {
			return new WebEndpointResponse<>(this.operations.perform(DistlockEndpoint.principal(securityContext),
					subject, action, new AdminActionRequest(path, protocol, token, waitTime, job)));
		}
		catch (AdminActionException ex) {
			return new WebEndpointResponse<>(AdminProblem.of(ex), ex.getOutcome().status(), PROBLEM);
		}
	}

}
