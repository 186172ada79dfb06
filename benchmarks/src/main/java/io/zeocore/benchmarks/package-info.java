/** JMH benchmarks and plain measurements of ZeoCore against its peers and against physical limits. */
@NullMarked
package io.zeocore.benchmarks;

import org.jspecify.annotations.NullMarked;
