package io.github.distlock.actuate;

import org.springframework.boot.actuate.endpoint.OperationResponseBody;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.annotation.Selector.Match;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.boot.actuate.endpoint.web.annotation.EndpointWebExtension;

import io.github.distlock.core.InvalidLockPathException;
import io.github.distlock.core.LockAcquisitionException;
import io.github.distlock.core.LockPath;

/**
 * The per-path view of the {@code distlock} endpoint over HTTP
 * ({@code GET /actuator/distlock/orders/42}), with a body that says why when there is
 * nothing to show: {@code 404} when no lock of any kind has a node at the path (nothing
 * holds it or waits for it), {@code 400} when the path is not a valid lock path,
 * {@code 503} while ZooKeeper cannot be read.
 */
@EndpointWebExtension(endpoint = DistlockEndpoint.class)
public class DistlockEndpointWebExtension {

	private final DistlockEndpoint endpoint;

	/**
	 * Create the extension.
	 * @param endpoint the endpoint that reads the lock nodes
	 */
	public DistlockEndpointWebExtension(DistlockEndpoint endpoint) {
		this.endpoint = endpoint;
	}

	/**
	 * Show the lock nodes of one path, for every kind of lock, as ZooKeeper has them now.
	 * @param path the segments of the lock path, as escaped in ZooKeeper
	 * @return the nodes ({@code 200}), or a {@link PathMessage} saying that nothing is
	 * held or awaited there ({@code 404}) or why the path is not a lock path
	 * ({@code 400})
	 */
	@ReadOperation
	public WebEndpointResponse<OperationResponseBody> lock(@Selector(match = Match.ALL_REMAINING) String... path) {
		String requested = String.join("/", path);
		LockPath lockPath;
		try {
			lockPath = LockPath.parse(requested);
		}
		catch (InvalidLockPathException ex) {
			return new WebEndpointResponse<>(new PathMessage(requested, ex.getMessage()),
					WebEndpointResponse.STATUS_BAD_REQUEST);
		}
		DistlockEndpoint.PathDescriptor nodes;
		try {
			nodes = this.endpoint.nodes(lockPath);
		}
		catch (LockAcquisitionException ex) {
			return new WebEndpointResponse<>(
					new PathMessage(lockPath.value(), "ZooKeeper cannot be read now; try again once it is reachable"),
					WebEndpointResponse.STATUS_SERVICE_UNAVAILABLE);
		}
		if (nodes == null) {
			return new WebEndpointResponse<>(
					new PathMessage(lockPath.value(), "No lock of any kind is held or awaited " + "at '"
							+ lockPath.value() + "': ZooKeeper has no lock node there"),
					WebEndpointResponse.STATUS_NOT_FOUND);
		}
		return new WebEndpointResponse<>(nodes);
	}

	/**
	 * Why a path shows no lock nodes.
	 *
	 * @param path the lock path asked for
	 * @param message what is (not) there, or why the path is not a lock path
	 */
	public record PathMessage(String path, String message) implements OperationResponseBody {

	}

}
