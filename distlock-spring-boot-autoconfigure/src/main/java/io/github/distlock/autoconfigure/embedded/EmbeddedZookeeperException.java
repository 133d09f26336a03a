package io.github.distlock.autoconfigure.embedded;

/**
 * The embedded development ZooKeeper server cannot start: a dependency it needs is
 * missing, or its port is taken. Spring Boot reports it with its "Description / Action"
 * failure report ({@link EmbeddedZookeeperFailureAnalyzer}).
 */
public class EmbeddedZookeeperException extends IllegalStateException {

	private final String description;

	private final String action;

	/**
	 * Create an exception.
	 * @param description what went wrong
	 * @param action what to do about it, as a sentence
	 * @param cause the cause, or {@code null}
	 */
	public EmbeddedZookeeperException(String description, String action, Throwable cause) {
		super(description + ". " + action, cause);
		this.description = description;
		this.action = action;
	}

	/**
	 * Create an exception.
	 * @param description what went wrong
	 * @param action what to do about it, as a sentence
	 */
	public EmbeddedZookeeperException(String description, String action) {
		super(description + ". " + action);
		this.description = description;
		this.action = action;
	}

	/** What went wrong. */
	public String getDescription() {
		return this.description;
	}

	/** What to do about it. */
	public String getAction() {
		return this.action;
	}

}
