/**
 * Auto-configuration of distlock's answer to lock failures in Spring MVC and WebFlux
 * applications: the problem-details exception handler of {@code io.github.distlock.web}
 * ({@code distlock.web.problem-details.*}).
 */
@NullMarked
package io.github.distlock.autoconfigure.web;

import org.jspecify.annotations.NullMarked;
