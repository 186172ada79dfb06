/** Summaries through a read-only policy: a model with the local subprocess provider as its fallback. */
@NullMarked
package io.zeocore.sample.summaries;

import org.jspecify.annotations.NullMarked;
