package io.github.distlock.core;

import java.nio.charset.StandardCharsets;
import java.util.Collection;

/**
 * The hash every instance of {@link Partitions}, in every JVM, computes the same: the
 * partition of a key, and the owner each partition should have among the live members.
 * <ul>
 * <li>{@link #hash64(String)}: 64-bit FNV-1a over the string's UTF-8 bytes (offset basis
 * {@code 0xcbf29ce484222325}, prime {@code 0x100000001b3}), then the 64-bit finalizer of
 * MurmurHash3 ({@code h ^= h >>> 33; h *= 0xff51afd7ed558ccd; h ^= h >>> 33;
 * h *= 0xc4ceb9fe1a85ec53; h ^= h >>> 33}), so that keys differing in their last bytes
 * spread over all bits.</li>
 * <li>{@link #partitionOf(String, int)}: that hash, as an unsigned number, modulo the
 * count.</li>
 * <li>{@link #weight(String, int)}: the hash of {@code memberId + "#" + index}, compared
 * as unsigned numbers; {@link #ownerOf(Collection, int)} is the member of highest weight
 * (rendezvous, or highest-random-weight, hashing), the smaller member id on a tie. A
 * member joining or leaving changes the owner of only the partitions it wins or held:
 * about {@code count / members} of them.</li>
 * </ul>
 * Changing any of this changes where keys and partitions go, across a rolling upgrade: it
 * is part of the wire format.
 */
public final class PartitionHash {

	private static final long FNV_OFFSET_BASIS = 0xcbf29ce484222325L;

	private static final long FNV_PRIME = 0x100000001b3L;

	private PartitionHash() {
	}

	/**
	 * The 64-bit hash of a string's UTF-8 bytes.
	 * @param key the string
	 * @return FNV-1a of its UTF-8 bytes, finalized as MurmurHash3's 64-bit finalizer
	 */
	public static long hash64(String key) {
		long hash = FNV_OFFSET_BASIS;
		for (byte b : key.getBytes(StandardCharsets.UTF_8)) {
			hash ^= (b & 0xff);
			hash *= FNV_PRIME;
		}
		hash ^= hash >>> 33;
		hash *= 0xff51afd7ed558ccdL;
		hash ^= hash >>> 33;
		hash *= 0xc4ceb9fe1a85ec53L;
		hash ^= hash >>> 33;
		return hash;
	}

	/**
	 * The partition of a key.
	 * @param key the key
	 * @param count the number of partitions, at least 1
	 * @return {@link #hash64(String)} of the key, unsigned, modulo the count
	 */
	public static int partitionOf(String key, int count) {
		if (count < 1) {
			throw new IllegalArgumentException("PartitionHash.partitionOf: count must be at least 1, was " + count);
		}
		return (int) Long.remainderUnsigned(hash64(key), count);
	}

	/**
	 * A member's weight for one partition, compared as an unsigned number.
	 * @param memberId the member id
	 * @param index the partition
	 * @return {@link #hash64(String)} of {@code memberId + "#" + index}
	 */
	public static long weight(String memberId, int index) {
		return hash64(memberId + "#" + index);
	}

	/**
	 * The member that should own a partition: the one of highest weight.
	 * @param memberIds the live members' ids, at least one
	 * @param index the partition
	 * @return the member of highest unsigned {@link #weight(String, int)}, the smaller id
	 * on a tie
	 */
	public static String ownerOf(Collection<String> memberIds, int index) {
		String owner = null;
		long best = 0;
		for (String member : memberIds) {
			long weight = weight(member, index);
			int order = (owner != null) ? Long.compareUnsigned(weight, best) : 1;
			if (order > 0 || (order == 0 && member.compareTo(owner) < 0)) {
				owner = member;
				best = weight;
			}
		}
		if (owner == null) {
			throw new IllegalArgumentException("PartitionHash.ownerOf: no member to own partition " + index);
		}
		return owner;
	}

}
