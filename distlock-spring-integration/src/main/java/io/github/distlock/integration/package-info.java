/**
 * Spring Integration's {@code LockRegistry} on distlock's engine:
 * {@link io.github.distlock.integration.DistlockLockRegistry}. Each key's lock is a layer
 * of thread ownership and reentrancy, as Spring Integration's registries have, over one
 * distlock mutex handle per owning thread; waiting, deadlines, loss and release are the
 * engine's.
 */
@NullMarked
package io.github.distlock.integration;

import org.jspecify.annotations.NullMarked;
