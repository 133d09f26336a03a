package io.github.distlock.core;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * One node of a lock's queue: a holder or a waiter.
 *
 * @param name the node name
 * @param sequence the sequence number ZooKeeper gave it
 * @param fencingToken the fencing token of its holder: the zxid that created it, or for a
 * read lock taken by a writer of the same session (a downgrade) the write node's, while
 * that one exists
 * @param createdAt when ZooKeeper created the node (its {@code ctime}): for a holder that
 * waited, earlier than its acquisition
 * @param holds whether the node holds the lock now
 * @param side {@code read} or {@code write} for a read/write lock; {@code lease} for a
 * semaphore lease, {@code waiting} for a semaphore waiter that has no lease yet; null for
 * a mutex
 * @param session the ZooKeeper session that owns it
 * @param data the node's data, which names its holder, or Curator's revoke marker once
 * the holder was asked to release ({@link #isReleaseRequested()})
 */
public record LockParticipant(String name, long sequence, long fencingToken, Instant createdAt, boolean holds,
		@Nullable String side, long session, byte[] data) {

	/**
	 * Whether the holder was asked to release ({@link LockAdmin#requestRelease}, or
	 * Curator's {@code Revoker.attemptRevoke}): the node's data is Curator's revoke
	 * marker, which replaced the holder's identity.
	 * @return whether the node's data is the revoke marker
	 */
	public boolean isReleaseRequested() {
		return "__REVOKE__".equals(new String(this.data, StandardCharsets.UTF_8));
	}

	/**
	 * Who made the node, as a distlock node's data names it: {@code app}, {@code host},
	 * {@code pid}, {@code thread} (a thread's name, or an asynchronous scope's) and
	 * {@code since}.
	 * @return the fields of the node's data, empty for a node of another client (raw
	 * Curator writes the client's address) and for a node whose holder was asked to
	 * release (the revoke marker replaced its data)
	 */
	public Map<String, String> identity() {
		return NodeData.fields(this.data);
	}

	/**
	 * Who the node's member is, for a leader election's latch node: its data as text,
	 * which is the member id a distlock member writes ({@link Leadership#memberId()}) and
	 * the participant id a raw Curator {@code LeaderLatch} writes. A node whose data is
	 * distlock's JSON identity (a lock node, or the latch node of an older distlock)
	 * reads as {@code app@host:pid}; a node without data as its session.
	 * @return the member id
	 */
	public String memberId() {
		Map<String, String> identity = identity();
		if (!identity.isEmpty()) {
			return identity.getOrDefault("app", "?") + "@" + identity.getOrDefault("host", "?") + ":"
					+ identity.getOrDefault("pid", "?");
		}
		String text = new String(this.data, StandardCharsets.UTF_8).strip();
		return text.isEmpty() ? "session 0x" + Long.toHexString(this.session) : text;
	}

	/**
	 * The holder or waiter in one line: {@code app@host:pid thread} for a distlock node,
	 * the node's data as text for another client's, {@code release requested} for a node
	 * that carries the revoke marker, and its session either way.
	 * @return a description for operators
	 */
	public String describe() {
		Map<String, String> identity = identity();
		String session = "session 0x" + Long.toHexString(this.session);
		if (isReleaseRequested()) {
			return "release requested (" + session + ")";
		}
		if (identity.isEmpty()) {
			String text = new String(this.data, StandardCharsets.UTF_8).strip();
			return text.isEmpty() ? session : text + " (" + session + ")";
		}
		return identity.getOrDefault("app", "?") + "@" + identity.getOrDefault("host", "?") + ":"
				+ identity.getOrDefault("pid", "?") + " " + identity.getOrDefault("thread", "?") + " (" + session + ")";
	}

	/**
	 * When ZooKeeper created the node.
	 * @return {@link #createdAt()}
	 * @deprecated since 0.1.0 for removal in 0.2.0, use {@link #createdAt()}
	 */
	@Deprecated(since = "0.1.0", forRemoval = true)
	public Instant created() {
		return this.createdAt;
	}

	/**
	 * Whether the node holds the lock now.
	 * @return {@link #holds()}
	 * @deprecated since 0.1.0 for removal in 0.2.0, use {@link #holds()}
	 */
	@Deprecated(since = "0.1.0", forRemoval = true)
	public boolean holder() {
		return this.holds;
	}

}
