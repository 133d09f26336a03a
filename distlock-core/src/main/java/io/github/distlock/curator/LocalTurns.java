package io.github.distlock.curator;

/**
 * This client's queues of exclusive locks as the acquisitions see them: one acquisition
 * at a time takes its turn at a path. Implemented by {@link LocalQueues}.
 */
interface LocalTurns {

	/**
	 * Line up for a path's turn.
	 * @return whether the turn was taken at once
	 */
	boolean enter(String path, Turn acquisition);

	/** Leave the line of a path without having taken its turn. */
	void withdraw(String path, Turn acquisition);

	/** Give up a path's turn: the next in line takes it. */
	void leave(String path);

	/** An acquisition that lines up for a path's turn. */
	interface Turn {

		/**
		 * The turn has come.
		 * @return whether the acquisition took it; {@code false} if it ended meanwhile
		 */
		boolean takeTurn();

	}

}
