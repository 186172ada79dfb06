/** Micrometer observations of runs, attempts, effects and reads, and their conventions. */
@NullMarked
package io.zeocore.autoconfigure.observation;

import org.jspecify.annotations.NullMarked;
