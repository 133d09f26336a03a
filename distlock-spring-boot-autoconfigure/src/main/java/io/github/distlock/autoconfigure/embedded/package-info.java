/**
 * Auto-configuration of the embedded development ZooKeeper server
 * ({@code distlock.zookeeper.embedded.*}): the server itself, the connection details
 * pointing at it, the report of a server that cannot start, the quieter ZooKeeper logging
 * while it runs, and its runtime hints. It runs before the main auto-configuration and
 * depends on it only for the properties.
 */
@NullMarked
package io.github.distlock.autoconfigure.embedded;

import org.jspecify.annotations.NullMarked;
