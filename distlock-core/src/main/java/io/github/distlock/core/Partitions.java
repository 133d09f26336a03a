package io.github.distlock.core;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * This instance's membership of one partitioned group ({@link Leadership#partitions}): a
 * fixed number of partitions, each owned by at most one live member at a time, and meant
 * to be owned by the member that {@link PartitionHash#ownerOf rendezvous hashing} picks
 * among the live members. A member joining or leaving moves only the partitions whose
 * owner by that hash changed.
 * <p>
 * An ownership is an ephemeral owner node in ZooKeeper, created only when absent: it
 * lasts until this instance gives the partition up (the live members changed, it leaves,
 * its locks drain) or its session ends. Giving up tells the {@link PartitionListener}s
 * first, waits for the work {@linkplain #enter(int) entered} under the ownership (at most
 * 10 s by default), then deletes the node, and only then may another member own the
 * partition. Each ownership's {@linkplain OwnedPartition#epoch() epoch}, the owner node's
 * creating zxid, grows from one owner of a partition to the next.
 * <p>
 * An ownership ends with its session on the server: another member may own the partition
 * before this instance learns that its session ended (as with a lock): pass the epoch to
 * what the owner writes, as a fencing token.
 */
public interface Partitions {

	/** The group's name. */
	String group();

	/** The number of partitions, numbered from 0. */
	int count();

	/**
	 * The partitions this instance owns now, by index; not those being given up.
	 * @return the owned partitions
	 */
	List<OwnedPartition> owned();

	/**
	 * The member that owns a partition, as this instance last read or was told by its
	 * watch of the owner node (no read now).
	 * @param index the partition
	 * @return the owner's member id, or empty if it has none, or none is known yet
	 * @throws IllegalArgumentException if the index is not a partition of the group
	 */
	Optional<String> ownerOf(int index);

	/**
	 * The partition of a key: {@link PartitionHash#partitionOf(String, int)}, the same in
	 * every instance and JVM.
	 * @param key the key
	 * @return the partition
	 */
	default int partitionOf(String key) {
		return PartitionHash.partitionOf(key, count());
	}

	/**
	 * The partition of a key that is not a string: that of {@link String#valueOf(Object)}
	 * of it, so the key's {@code toString()} must be stable across instances.
	 * @param key the key
	 * @return the partition
	 */
	default int partitionOf(Object key) {
		return partitionOf(String.valueOf(key));
	}

	/**
	 * Enter work under this instance's ownership of a partition: until the guard is
	 * closed, a revocation of the ownership waits (at most a bounded time, 10 s by
	 * default) before it hands the partition over.
	 * @param index the partition
	 * @return the guard, to close when the work ends
	 * @throws IllegalStateException if this instance does not own the partition, or is
	 * giving it up
	 * @throws IllegalArgumentException if the index is not a partition of the group
	 */
	PartitionGuard enter(int index);

	/**
	 * Leave the group: this instance's member node is deleted, and each owned partition
	 * is given up at once (listeners told, work drained, owner node deleted), so its new
	 * owner takes over without waiting for a session to end.
	 * @return completes once ZooKeeper confirmed the deletes
	 */
	CompletableFuture<Void> leave();

	/**
	 * Add a listener told of every ownership's start and end from now on.
	 * @param listener the listener
	 */
	void addListener(PartitionListener listener);

}
