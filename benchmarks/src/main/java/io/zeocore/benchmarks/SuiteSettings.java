package io.zeocore.benchmarks;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The JMH settings the suite's benchmarks share: benchmark-scoped state, average time in nanoseconds, 3 × 1 s of
 * warm-up and 5 × 1 s of measurement in one fork with a 512 MiB heap (so that peers are measured alike). JMH's
 * annotations are inherited; a benchmark states only what differs (a time unit, say). {@code JMH_ARGS} of
 * {@code benchmarks/run.sh} overrides the counts on the command line.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms512m", "-Xmx512m"})
public abstract class SuiteSettings {}
