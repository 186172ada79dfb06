#!/usr/bin/env bash
# Builds the benchmarks, runs a short reproducible suite and writes BENCHMARKS.md at the repository root.
#
#   benchmarks/run.sh                       # the suite (about 14 minutes on 2 cores)
#   JMH_ARGS='-f 1 -wi 1 -i 1' benchmarks/run.sh   # a smoke run (numbers not worth committing)
#
# Every comparison runs its contenders in the same JMH run (or back to back, for the plain measurements), so ratios
# are comparable even when absolute times are not. Results land in benchmarks/target/results*/.
set -euo pipefail

cd "$(dirname "$0")/.."
ROOT=$(pwd)
JMH_ARGS=${JMH_ARGS:--f 1 -wi 3 -i 5 -w 1s -r 1s}
HEAP=(-Xms512m -Xmx512m)

# run_suite <tree> <results>: builds the benchmarks of <tree> and runs every measurement into <results>.
run_suite() {
  local tree=$1 results=$2
  local jar="$tree/benchmarks/target/benchmarks.jar"
  (cd "$tree" && mvn -B -ntp -q -pl benchmarks -am package -DskipTests)
  rm -rf "$results"
  mkdir -p "$results"
  # the code measured: the commit, and whether the measured modules differed from it
  local changes
  changes=$(git -C "$tree" status --porcelain -- zeo-core zeo-core-autoconfigure zeo-core-spring-boot-starter benchmarks)
  echo "$(git -C "$tree" rev-parse --short HEAD) $([[ -n "$changes" ]] && echo dirty || echo clean)" \
    > "$results/commit.txt"
  uptime > "$results/load-before.txt"

  # Items 1 and 2: runner overhead and the fallback path, ZeoCore and its peers in one JMH run.
  # shellcheck disable=SC2086
  java -jar "$jar" 'io.zeocore.benchmarks.(RunnerOverheadBenchmark|FallbackPathBenchmark)' $JMH_ARGS \
    -prof gc -rf json -rff "$results/jmh-runner.json" | tee "$results/jmh-runner.log"

  # Item 5: 10 000 concurrent async runs, one fresh JVM per contender, back to back.
  for contender in direct zeocore resilience4j failsafe; do
    java "${HEAP[@]}" -cp "$jar" io.zeocore.benchmarks.ConcurrentAsyncRuns "$contender" | tee -a "$results/concurrent.jsonl"
  done

  # Item 4: a subprocess call against raw ProcessBuilder (one JMH run), then the kill latency over 100 runs.
  # shellcheck disable=SC2086
  java -jar "$jar" 'io.zeocore.benchmarks.SubprocessCallBenchmark' $JMH_ARGS \
    -rf json -rff "$results/jmh-subprocess.json" | tee "$results/jmh-subprocess.log"
  java "${HEAP[@]}" -cp "$jar" io.zeocore.benchmarks.SubprocessKillLatency 100 200 200 | tee "$results/kill-latency.json"

  # Item 3: durable effects through the orchestrator against raw JDBC, taking turns on the same disk and server
  # (SQLite, and PostgreSQL at $ZEOCORE_BENCH_PG when it answers: 1/4/16 callers and two JVMs).
  df -T "$results" | tail -1 > "$results/filesystem.txt"
  local effects_args="--sqlite --rounds 16 --effects 200 --warmup 25"
  if pg_isready -q -h 127.0.0.1 -p 5432 2>/dev/null; then
    effects_args="$effects_args --pg ${ZEOCORE_BENCH_PG:-jdbc:postgresql://127.0.0.1:5432/test} --jvms"
  fi
  echo "$effects_args" > "$results/effects-args.txt"
  # shellcheck disable=SC2086
  java "${HEAP[@]}" -cp "$jar" io.zeocore.benchmarks.DurableEffects "$results/effects" $effects_args \
    | tee "$results/durable-effects.jsonl"
  rm -rf "$results/effects"

  # Item 6: start-up of a minimal Boot app without and with the starter (its SQLite store on), fresh JVMs.
  mvn -B -ntp -q -f "$tree/benchmarks/startup/pom.xml" dependency:build-classpath \
    -Dmdep.outputFile="$results/classpath-without-starter.txt"
  java "${HEAP[@]}" -cp "$jar" io.zeocore.benchmarks.StartupTime "$results/classpath-without-starter.txt" \
    "$tree/benchmarks/target/classpath-with-starter.txt" "$tree/benchmarks/target/classes" "$results/startup" \
    | tee "$results/startup.json"
  rm -rf "$results/startup"
  uptime > "$results/load-after.txt"
}

run_suite "$ROOT" "$ROOT/benchmarks/target/results"
python3 benchmarks/report.py --results benchmarks/target/results --jmh-args "$JMH_ARGS" --out BENCHMARKS.md
echo "wrote BENCHMARKS.md"
