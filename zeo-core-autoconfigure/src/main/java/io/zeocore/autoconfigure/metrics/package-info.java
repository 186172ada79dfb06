/** Micrometer meters of runs and effects. */
@NullMarked
package io.zeocore.autoconfigure.metrics;

import org.jspecify.annotations.NullMarked;
