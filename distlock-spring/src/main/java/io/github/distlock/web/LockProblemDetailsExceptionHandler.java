package io.github.distlock.web;

import java.time.Duration;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.bind.annotation.ExceptionHandler;

import io.github.distlock.core.LockLostException;
import io.github.distlock.core.LockTimeoutException;

/**
 * Answers a {@link LockTimeoutException} or a {@link LockLostException} that escapes a
 * Spring MVC or WebFlux handler with {@code 503 Service Unavailable}, a
 * {@link ProblemDetail} body and a {@code Retry-After} header, instead of an unexplained
 * 500. The body says only that the resource is busy or that the operation was
 * interrupted: the exception's message, which names the method, the lock path and
 * sometimes the ZooKeeper connect string, is logged, never sent.
 * <p>
 * Ordered last among the controller advice, so an {@code @ExceptionHandler} of the
 * application's own, for these exceptions or for a type above them, wins.
 */
@ControllerAdvice
@Order(Ordered.LOWEST_PRECEDENCE)
public class LockProblemDetailsExceptionHandler {

	private static final Log logger = LogFactory.getLog(LockProblemDetailsExceptionHandler.class);

	private final String retryAfterSeconds;

	/**
	 * Create a handler.
	 * @param retryAfter the time after which clients are told to try again, sent in whole
	 * seconds (rounded up)
	 */
	public LockProblemDetailsExceptionHandler(Duration retryAfter) {
		long millis = retryAfter.toMillis();
		this.retryAfterSeconds = Long.toString(Math.max(0, (millis + 999) / 1000));
	}

	/**
	 * Answer a lock that was not acquired in time.
	 * @param ex the exception
	 * @return the 503 answer
	 */
	@ExceptionHandler(LockTimeoutException.class)
	public ResponseEntity<ProblemDetail> lockTimeout(LockTimeoutException ex) {
		// Expected under contention: not worth a warning per request.
		if (logger.isDebugEnabled()) {
			logger.debug("Answering 503: " + ex.getMessage(), ex);
		}
		return answer("Resource busy", "Another operation on the same resource is in progress; try again later.");
	}

	/**
	 * Answer a lock lost while its holder still needed it.
	 * @param ex the exception
	 * @return the 503 answer
	 */
	@ExceptionHandler(LockLostException.class)
	public ResponseEntity<ProblemDetail> lockLost(LockLostException ex) {
		logger.warn("Answering 503: " + ex.getMessage());
		return answer("Operation interrupted",
				"The operation could not be completed safely and its result was discarded; try again later.");
	}

	private ResponseEntity<ProblemDetail> answer(String title, String detail) {
		ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.SERVICE_UNAVAILABLE, detail);
		problem.setTitle(title);
		return ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE)
			.header(HttpHeaders.RETRY_AFTER, this.retryAfterSeconds)
			.body(problem);
	}

}
