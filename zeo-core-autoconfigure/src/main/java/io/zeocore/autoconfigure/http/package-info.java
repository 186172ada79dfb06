/**
 * Attempt timeouts on Spring's HTTP clients: {@code RestClient} and {@code WebClient} exchanges made inside a ZeoCore
 * attempt are bounded by what is left of it.
 */
@NullMarked
package io.zeocore.autoconfigure.http;

import org.jspecify.annotations.NullMarked;
