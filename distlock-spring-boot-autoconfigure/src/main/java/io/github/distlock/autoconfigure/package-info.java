/**
 * distlock: the autoconfigure package.
 */
@NullMarked
package io.github.distlock.autoconfigure;

import org.jspecify.annotations.NullMarked;
