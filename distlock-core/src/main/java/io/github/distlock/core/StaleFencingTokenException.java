package io.github.distlock.core;

/**
 * A fenced write was refused because a holder of the same lock with a newer fencing token
 * wrote before it: the writer lost its lock without knowing it (its session ended during
 * a pause, say) and another holder took the lock and used the store meanwhile. For a
 * fenced transaction the transaction was rolled back: nothing it wrote is kept.
 */
public class StaleFencingTokenException extends LockLostException {

	private final LockPath path;

	private final long token;

	private final long newerToken;

	/**
	 * Create an exception.
	 * @param message the message, naming the path and both tokens
	 * @param path the lock path
	 * @param token the fencing token of the refused writer
	 * @param newerToken the newer token the store holds for the path
	 */
	public StaleFencingTokenException(String message, LockPath path, long token, long newerToken) {
		super(message);
		this.path = path;
		this.token = token;
		this.newerToken = newerToken;
	}

	/** The path of the lock whose fence refused the write. */
	public LockPath getPath() {
		return this.path;
	}

	/** The fencing token of the refused writer. */
	public long getToken() {
		return this.token;
	}

	/**
	 * The newer fencing token the store holds for the path, written by another holder.
	 */
	public long getNewerToken() {
		return this.newerToken;
	}

}
