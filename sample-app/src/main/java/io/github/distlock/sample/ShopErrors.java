package io.github.distlock.sample;

import java.util.Map;

import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

/**
 * Maps the shop's errors to HTTP answers with a JSON body {@code {"error": "..."}}. Lock
 * failures ({@code LockTimeoutException}, {@code LockLostException} and its
 * {@code StaleFencingTokenException}, a fenced write that lost to a newer holder) are
 * left to distlock, which answers them with 503, {@code Retry-After} and a problem detail
 * that does not repeat the exception's message: that message names the method, the lock
 * path and, when ZooKeeper is unreachable, its address, none of which is the client's
 * business.
 */
@RestControllerAdvice
class ShopErrors {

	@ExceptionHandler
	ResponseEntity<Map<String, String>> outOfStock(OutOfStockException ex) {
		return error(HttpStatus.CONFLICT, ex);
	}

	@ExceptionHandler
	ResponseEntity<Map<String, String>> unknownSku(UnknownSkuException ex) {
		return error(HttpStatus.NOT_FOUND, ex);
	}

	@ExceptionHandler
	ResponseEntity<Map<String, String>> badRequest(IllegalArgumentException ex) {
		return error(HttpStatus.BAD_REQUEST, ex);
	}

	private static ResponseEntity<Map<String, String>> error(HttpStatus status, Exception ex) {
		return ResponseEntity.status(status).body(Map.of("error", String.valueOf(ex.getMessage())));
	}

}
