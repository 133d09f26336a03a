package io.github.distlock.console;

import java.util.List;

import org.jspecify.annotations.Nullable;

import io.github.distlock.actuate.ClusterDescriptor;
import io.github.distlock.actuate.DistlockEndpoint.HeldLockDescriptor;
import io.github.distlock.actuate.DistlockEndpoint.JobDescriptor;

/**
 * What the console page shows, read once per poll.
 *
 * @param admin whether operators' actions are on ({@code distlock.admin.enabled}): the
 * page shows their buttons only then
 * @param held the locks this instance holds, oldest first
 * @param cluster the cluster's locks, deadlocks and elections, and whether this instance
 * drains, or {@code null} if the lock engine cannot tell
 * @param jobs this instance's jobs, with their last run and next slot
 * @param csrf the CSRF token the page sends with its actions, or {@code null} without
 * Spring Security's CSRF protection
 */
public record ConsoleState(boolean admin, List<HeldLockDescriptor> held, @Nullable ClusterDescriptor cluster,
		List<JobDescriptor> jobs, @Nullable CsrfToken csrf) {

	/**
	 * A CSRF token and the header it goes in.
	 *
	 * @param headerName the request header
	 * @param token the token
	 */
	public record CsrfToken(String headerName, String token) {

	}

}
