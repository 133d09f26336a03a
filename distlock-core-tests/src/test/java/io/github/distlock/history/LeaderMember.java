package io.github.distlock.history;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

/**
 * One participant of the leadership workload on one client: a distlock node's
 * {@code CuratorLeadership} ({@link DistlockMember}) or a raw Curator {@code LeaderLatch}
 * per group ({@link LatchMember}), both on {@code /leader/<group>}, so they take part in
 * the same elections. Tells {@link Leads} when it is told it leads and no longer leads.
 */
interface LeaderMember {

	/** Its name in the history. */
	String name();

	/** The client it runs on. */
	Node node();

	/** Whether it is distlock's: the engine's contract (told once per tenure) applies. */
	boolean distlock();

	/** Its id in the groups, the data of its latch nodes: what a transfer names. */
	String memberId();

	void join(String group) throws Exception;

	/** Leave the group: returns once the latch node's delete was sent (or confirmed). */
	void leave(String group) throws Exception;

	/** Give the tenure up and queue again at the end, if it leads. */
	void relinquish(String group) throws Exception;

	boolean joined(String group);

	/** Whether it believes it leads now. */
	boolean leads(String group);

	/**
	 * The current tenure, for work under it, or {@code null} if it does not lead.
	 */
	@Nullable Tenure tenure(String group);

	/**
	 * Wait for leadership, at most the given time.
	 * @return whether it leads
	 */
	boolean await(String group, Duration wait) throws Exception;

	/** Stop taking part in every group and release what it holds. */
	void close();

	/** A tenure taken for a piece of work: its epoch and whether it still holds. */
	interface Tenure extends AutoCloseable {

		long epoch();

		boolean held();

		@Override
		void close();

	}

}
