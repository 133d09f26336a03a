package io.github.distlock.actuate;

import org.springframework.boot.actuate.endpoint.OperationResponseBody;

/**
 * What an operator's action did.
 *
 * @param action the action, such as {@code locks/force-release}
 * @param outcome {@code success}
 * @param detail the holders asked, the holder removed, the job run, or the state after
 * the action
 */
public record AdminActionResult(String action, String outcome, Object detail) implements OperationResponseBody {

}
