package io.github.distlock.core;

import java.util.concurrent.Callable;

import org.jspecify.annotations.Nullable;

/**
 * The run of a scheduled job the current thread is in, behind {@link JobRun#current()}.
 * For implementations of {@link ScheduledJobs}: applications read it through
 * {@link JobRun#current()}.
 */
public final class JobRunContext {

	private static final ThreadLocal<@Nullable JobRun> CURRENT = new ThreadLocal<>();

	private JobRunContext() {
	}

	static @Nullable JobRun current() {
		return CURRENT.get();
	}

	/**
	 * Call the body with the given run as the current thread's, and restore what was
	 * there before.
	 * @param <T> the body's result type
	 * @param run the run
	 * @param body what the run does
	 * @return the body's result
	 * @throws Exception whatever the body threw
	 */
	public static <T> T callAs(JobRun run, Callable<T> body) throws Exception {
		JobRun outer = CURRENT.get();
		CURRENT.set(run);
		try {
			return body.call();
		}
		finally {
			if (outer != null) {
				CURRENT.set(outer);
			}
			else {
				CURRENT.remove();
			}
		}
	}

}
