/**
 * distlock: the annotation package.
 */
@NullMarked
package io.github.distlock.annotation;

import org.jspecify.annotations.NullMarked;
