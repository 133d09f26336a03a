/**
 * distlock: the interceptor package.
 */
@NullMarked
package io.github.distlock.interceptor;

import org.jspecify.annotations.NullMarked;
