package io.github.distlock.actuate;

import org.springframework.boot.actuate.endpoint.OperationResponseBody;

/**
 * Why an operator's action was not done, as RFC 9457 problem details.
 *
 * @param type {@code about:blank}
 * @param title the HTTP status's phrase, such as {@code Conflict}
 * @param status the HTTP status
 * @param detail what went wrong, naming the value at fault
 * @param outcome the outcome of the audit event and counter, such as {@code not_found}
 */
public record AdminProblem(String type, String title, int status, String detail,
		String outcome) implements OperationResponseBody {

	/**
	 * Describe a failed action.
	 * @param failure why it was not done
	 * @return the problem
	 */
	public static AdminProblem of(AdminActionException failure) {
		AdminOutcome outcome = failure.getOutcome();
		return new AdminProblem("about:blank", title(outcome.status()), outcome.status(),
				String.valueOf(failure.getMessage()), outcome.tag());
	}

	private static String title(int status) {
		return switch (status) {
			case 400 -> "Bad Request";
			case 404 -> "Not Found";
			case 409 -> "Conflict";
			case 501 -> "Not Implemented";
			case 503 -> "Service Unavailable";
			default -> "Internal Server Error";
		};
	}

}
