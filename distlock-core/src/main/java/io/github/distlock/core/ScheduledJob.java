package io.github.distlock.core;

/**
 * A job that runs once per slot of its schedule across the cluster.
 *
 * @param name the job's name, unique in the namespace; its lock is the mutex
 * {@code jobs/<name>} and its record the node {@code /jobs/<name>} under the namespace
 * @param schedule its slots
 * @see ScheduledJobs
 */
public record ScheduledJob(String name, JobSchedule schedule) {

	/** The path of the job's lock, which is also where its record lives. */
	public LockPath lockPath() {
		return LockPath.of("jobs", this.name);
	}

}
