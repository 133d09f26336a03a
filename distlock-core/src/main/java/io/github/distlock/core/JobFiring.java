package io.github.distlock.core;

import java.time.Instant;

import org.jspecify.annotations.Nullable;

/**
 * What one firing of a scheduled job did: ran its slot, or skipped it and why.
 *
 * @param job the job's name
 * @param slot the slot the firing belonged to; {@code null} if the schedule had none
 * @param run the run, ended, if the firing ran the job
 * @param skipped why it did not, if it did not
 */
public record JobFiring(String job, @Nullable Instant slot, @Nullable JobRun run, @Nullable JobSkip skipped) {

	/** Whether the firing ran the job. */
	public boolean ran() {
		return this.run != null;
	}

}
