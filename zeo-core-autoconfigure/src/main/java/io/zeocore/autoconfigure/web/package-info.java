/**
 * Results as HTTP answers: a run that did not succeed, thrown as an
 * {@link io.zeocore.execution.ExecutionFailedException}, becomes an RFC 9457 {@code ProblemDetail} in Spring MVC and
 * WebFlux applications.
 */
@NullMarked
package io.zeocore.autoconfigure.web;

import org.jspecify.annotations.NullMarked;
