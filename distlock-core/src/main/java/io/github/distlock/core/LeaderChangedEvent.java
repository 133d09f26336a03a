package io.github.distlock.core;

import org.jspecify.annotations.Nullable;

/**
 * The leader of a group this instance observes ({@link Leadership#observe(String)})
 * changed: another member leads, or nobody does. Published on distlock's event thread, in
 * the order the changes were seen; a change too short to be read (a leader that came and
 * went between two reads) is not told.
 *
 * @param group the group
 * @param leader the leader now, or {@code null} if the group has none
 * @param previous the leader before, or {@code null} if it had none
 */
public record LeaderChangedEvent(String group, @Nullable ObservedLeader leader, @Nullable ObservedLeader previous) {

}
