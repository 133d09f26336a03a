/**
 * Auto-configuration of distlock's Spring Integration {@code LockRegistry}.
 */
@NullMarked
package io.github.distlock.integration.autoconfigure;

import org.jspecify.annotations.NullMarked;
