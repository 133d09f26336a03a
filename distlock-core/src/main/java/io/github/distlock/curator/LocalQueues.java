package io.github.distlock.curator;

import java.util.ArrayDeque;
import java.util.concurrent.ConcurrentHashMap;

import org.jspecify.annotations.Nullable;

/**
 * This client's own queues for exclusive locks: per path, one acquisition at a time has
 * the turn and competes in ZooKeeper (and then holds the lock), the others wait here in
 * arrival order. So a hot key costs ZooKeeper one waiter per client instead of one per
 * thread, and a release hands the lock to the next local waiter with one pipelined round
 * trip. Acquisitions of other clients still queue between them in ZooKeeper's order, so a
 * busy client cannot starve the others.
 * <p>
 * The turn passes on when its acquisition ends without the lock, when its hold is
 * released, and when its hold is lost (the session ended: other clients may take the
 * lock, and so may this client's next waiter). A path has an entry only while somebody
 * has its turn: nothing is kept per key once unused.
 */
final class LocalQueues implements LocalTurns {

	private final ConcurrentHashMap<String, ArrayDeque<Turn>> queues = new ConcurrentHashMap<>();

	/**
	 * Take the turn of the path, or line up for it.
	 * @return whether the acquisition has the turn now; if not, it is offered the turn
	 * ({@link Turn#takeTurn()}) when its turn comes
	 */
	@Override
	public boolean enter(String path, Turn acquisition) {
		boolean[] first = new boolean[1];
		this.queues.compute(path, (key, waiting) -> {
			if (waiting == null) {
				first[0] = true;
				return new ArrayDeque<>(2);
			}
			waiting.addLast(acquisition);
			return waiting;
		});
		return first[0];
	}

	/** Leave the line without having had the turn. */
	@Override
	public void withdraw(String path, Turn acquisition) {
		this.queues.computeIfPresent(path, (key, waiting) -> {
			waiting.remove(acquisition);
			return waiting;
		});
	}

	/**
	 * Pass the turn on to the next acquisition in line that still wants it, or free the
	 * path. Acquisitions that ended meanwhile are passed over here, one after the other:
	 * thousands of them timing out together cost a loop, not a deep recursion.
	 */
	@Override
	public void leave(String path) {
		Turn next;
		do {
			next = next(path);
		}
		while (next != null && !next.takeTurn());
	}

	private @Nullable Turn next(String path) {
		Turn[] next = new Turn[1];
		this.queues.computeIfPresent(path, (key, waiting) -> {
			next[0] = waiting.pollFirst();
			return (next[0] != null) ? waiting : null;
		});
		return next[0];
	}

	/** Number of paths whose turn is taken (for tests of what is left behind). */
	int size() {
		return this.queues.size();
	}

	/** Number of acquisitions waiting for the given path's turn, or -1 if it is free. */
	int waiting(@Nullable String path) {
		ArrayDeque<Turn> waiting = (path != null) ? this.queues.get(path) : null;
		return (waiting != null) ? waiting.size() : -1;
	}

}
