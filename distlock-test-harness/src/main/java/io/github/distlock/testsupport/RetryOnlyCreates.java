package io.github.distlock.testsupport;

import java.lang.reflect.Field;

import org.apache.curator.RetryPolicy;
import org.apache.curator.RetrySleeper;
import org.apache.curator.retry.RetryNTimes;

/**
 * A retry policy that lets Curator retry its background creates (and every foreground
 * call) after a lost connection, but no other background request: those fail to their
 * callback with the lost connection at once. With a
 * {@link io.github.distlock.relay.TcpRelay} that loses the replies to a pipelined create
 * and read, it forces the order in which a lock's create is answered by Curator's
 * protected-mode recovery after the read already failed.
 * <p>
 * Curator passes a background request to the policy as the sleeper; which request it is
 * is read from it by reflection.
 */
public final class RetryOnlyCreates implements RetryPolicy {

	private final RetryPolicy retries = new RetryNTimes(20, 100);

	@Override
	public boolean allowRetry(int retryCount, long elapsedTimeMs, RetrySleeper sleeper) {
		String request = backgroundRequest(sleeper);
		if (request != null && !request.startsWith("CreateBuilderImpl")) {
			return false;
		}
		return this.retries.allowRetry(retryCount, elapsedTimeMs, sleeper);
	}

	private static String backgroundRequest(RetrySleeper sleeper) {
		if (!sleeper.getClass().getSimpleName().equals("OperationAndData")) {
			return null;
		}
		try {
			Field operation = sleeper.getClass().getDeclaredField("operation");
			operation.setAccessible(true);
			return operation.get(sleeper).getClass().getSimpleName();
		}
		catch (ReflectiveOperationException ex) {
			throw new IllegalStateException("Curator's background request is not where it used to be", ex);
		}
	}

}
