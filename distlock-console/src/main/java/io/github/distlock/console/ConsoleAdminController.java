package io.github.distlock.console;

import java.net.URI;
import java.security.Principal;

import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

import io.github.distlock.actuate.AdminActionException;
import io.github.distlock.actuate.AdminActionRequest;
import io.github.distlock.actuate.AdminActionResult;
import io.github.distlock.actuate.DistlockAdminOperations;

/**
 * The console's actions, only when {@code distlock.admin.enabled} is on:
 * {@code POST <path>/api/<subject>/<action>} with the action's input as JSON, done by the
 * same {@link DistlockAdminOperations} as the endpoint's, so audited and counted alike.
 * An action not done answers with problem details and the status of its outcome.
 */
@RestController
@RequestMapping("${distlock.console.path:/distlock}/api")
public class ConsoleAdminController {

	private final DistlockAdminOperations operations;

	/**
	 * Create the controller.
	 * @param operations what does the actions
	 */
	public ConsoleAdminController(DistlockAdminOperations operations) {
		this.operations = operations;
	}

	/**
	 * Do an operator's action.
	 * @param subject {@code locks}, {@code instance} or {@code jobs}
	 * @param action the action on it
	 * @param request its input
	 * @param principal who asks, or {@code null}
	 * @return what it did
	 */
	@PostMapping("/{subject}/{action}")
	public AdminActionResult act(@PathVariable String subject, @PathVariable String action,
			@RequestBody(required = false) @Nullable AdminActionRequest request, @Nullable Principal principal) {
		AdminActionRequest input = (request != null) ? request : new AdminActionRequest(null, null, null, null, null);
		return this.operations.perform((principal != null) ? principal.getName() : null, subject, action, input);
	}

	@ExceptionHandler(AdminActionException.class)
	ProblemDetail failed(AdminActionException ex) {
		ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.valueOf(ex.getOutcome().status()),
				String.valueOf(ex.getMessage()));
		problem.setType(URI.create("about:blank"));
		problem.setProperty("outcome", ex.getOutcome().tag());
		return problem;
	}

}
