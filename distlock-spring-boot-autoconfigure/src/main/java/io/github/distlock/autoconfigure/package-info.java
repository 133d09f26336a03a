/**
 * Auto-configuration of distlock: the ZooKeeper client and its connection details, the
 * {@code Locks} engine on it, the proxies of the lock annotations, the {@code distlock.*}
 * properties and their checks. The sub-packages configure one job each ({@code security},
 * {@code embedded}, {@code leadership}, {@code actuate}, {@code web},
 * {@code testcontainers}) and depend on this package; this package refers to one of them
 * only, to build the client with {@code security}'s configurer.
 */
@NullMarked
package io.github.distlock.autoconfigure;

import org.jspecify.annotations.NullMarked;
