package io.github.distlock.actuate;

import org.jspecify.annotations.Nullable;

/**
 * The input of an operator's action, as the body of its HTTP request gives it; each
 * action reads the fields it needs.
 *
 * @param path the lock's path, such as {@code orders/42}
 * @param protocol the lock's protocol: {@code mutex}, {@code read_write},
 * {@code semaphore} or {@code leader_latch}
 * @param token the fencing token of the holder to remove
 * @param waitTime how long a drain waits for the holds to end, ISO-8601 ({@code PT10S})
 * @param job the job's name
 */
public record AdminActionRequest(@Nullable String path, @Nullable String protocol, @Nullable Long token,
		@Nullable String waitTime, @Nullable String job) {

}
