/**
 * distlock: the curator package.
 */
@NullMarked
package io.github.distlock.curator;

import org.jspecify.annotations.NullMarked;
