package io.github.distlock.core;

/**
 * Work entered under the ownership of one partition ({@link Partitions#enter(int)}): a
 * revocation of that ownership does not hand the partition over before every guard is
 * closed (or a bounded time passed). Closing twice does nothing.
 */
public interface PartitionGuard extends AutoCloseable {

	/** The partition. */
	int index();

	/** The epoch of the ownership the work runs under. */
	long epoch();

	/** The work ended. */
	@Override
	void close();

}
