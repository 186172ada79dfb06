/** JMH benchmarks and plain measurements of ZeoCore against its peers and against physical limits. */
package io.zeocore.benchmarks;
