/**
 * A standalone ZooKeeper server for development, run from the command line.
 */
@NullMarked
package io.github.distlock.embedded;

import org.jspecify.annotations.NullMarked;
