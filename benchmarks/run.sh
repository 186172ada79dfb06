#!/usr/bin/env bash
# Builds the benchmarks, runs a short reproducible suite and writes BENCHMARKS.md at the repository root.
#
#   benchmarks/run.sh                      # the whole suite (about 5 minutes on 2 cores)
#   JMH_ARGS='-f 1 -wi 1 -i 1' benchmarks/run.sh    # a smoke run (numbers not worth committing)
#
# Every comparison runs its contenders in the same JMH run (or back to back for the plain measurements), so ratios are
# comparable even when absolute times are not. Results land in benchmarks/target/results/.
set -euo pipefail

cd "$(dirname "$0")/.."
RESULTS=benchmarks/target/results
JAR=benchmarks/target/benchmarks.jar
JMH_ARGS=${JMH_ARGS:--f 1 -wi 3 -i 5 -w 1s -r 1s}
HEAP=(-Xms512m -Xmx512m)

mvn -B -ntp -q -pl benchmarks -am package -DskipTests
rm -rf "$RESULTS"
mkdir -p "$RESULTS"
uptime > "$RESULTS/load-before.txt"

# Items 1 and 2: runner overhead and the fallback path, ZeoCore and its peers in one JMH run.
# shellcheck disable=SC2086
java -jar "$JAR" 'io.zeocore.benchmarks.(RunnerOverheadBenchmark|FallbackPathBenchmark)' $JMH_ARGS \
  -prof gc -rf json -rff "$RESULTS/jmh-runner.json" | tee "$RESULTS/jmh-runner.log"

# Item 5: 10 000 concurrent async runs, one fresh JVM per contender, back to back.
for contender in direct zeocore resilience4j failsafe; do
  java "${HEAP[@]}" -cp "$JAR" io.zeocore.benchmarks.ConcurrentAsyncRuns "$contender" | tee -a "$RESULTS/concurrent.jsonl"
done

uptime > "$RESULTS/load-after.txt"
python3 benchmarks/report.py --results "$RESULTS" --jmh-args "$JMH_ARGS" --out BENCHMARKS.md
echo "wrote BENCHMARKS.md"
