/**
 * distlock in web applications: lock failures escaping a Spring MVC or WebFlux handler
 * answered as RFC 9457 problem details.
 */
@NullMarked
package io.github.distlock.web;

import org.jspecify.annotations.NullMarked;
