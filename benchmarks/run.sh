#!/usr/bin/env bash
# Builds the benchmarks, runs a short reproducible suite and writes BENCHMARKS.md at the repository root.
#
#   benchmarks/run.sh                       # the suite (about 12 minutes on 2 cores)
#   benchmarks/run.sh --with-proposal       # then the runner's measurements again on a copy of the tree with
#                                           # benchmarks/proposals/runner-hot-path.patch applied (8 more minutes)
#   JMH_ARGS='-f 1 -wi 1 -i 1' benchmarks/run.sh   # a smoke run (numbers not worth committing)
#
# Every comparison runs its contenders in the same JMH run (or back to back, for the plain measurements), so ratios
# are comparable even when absolute times are not. Results land in benchmarks/target/results*/.
set -euo pipefail

cd "$(dirname "$0")/.."
ROOT=$(pwd)
JMH_ARGS=${JMH_ARGS:--f 1 -wi 3 -i 5 -w 1s -r 1s}
HEAP=(-Xms512m -Xmx512m)
PATCH=benchmarks/proposals/runner-hot-path.patch

# run_suite <tree> <results> [runner]: builds the benchmarks of <tree> and runs every measurement into <results>;
# with "runner", only the measurements of the runner (items 1, 2 and 5).
run_suite() {
  local tree=$1 results=$2 only=${3:-}
  local jar="$tree/benchmarks/target/benchmarks.jar"
  (cd "$tree" && mvn -B -ntp -q -pl benchmarks -am package -DskipTests)
  rm -rf "$results"
  mkdir -p "$results"
  uptime > "$results/load-before.txt"

  # Items 1 and 2: runner overhead and the fallback path, ZeoCore and its peers in one JMH run.
  # shellcheck disable=SC2086
  java -jar "$jar" 'io.zeocore.benchmarks.(RunnerOverheadBenchmark|FallbackPathBenchmark)' $JMH_ARGS \
    -prof gc -rf json -rff "$results/jmh-runner.json" | tee "$results/jmh-runner.log"

  # Item 5: 10 000 concurrent async runs, one fresh JVM per contender, back to back.
  for contender in direct zeocore resilience4j failsafe; do
    java "${HEAP[@]}" -cp "$jar" io.zeocore.benchmarks.ConcurrentAsyncRuns "$contender" | tee -a "$results/concurrent.jsonl"
  done

  if [[ "$only" != runner ]]; then
    # Item 4: a subprocess call against raw ProcessBuilder (one JMH run), then the kill latency over 100 runs.
    # shellcheck disable=SC2086
    java -jar "$jar" 'io.zeocore.benchmarks.SubprocessCallBenchmark' $JMH_ARGS \
      -rf json -rff "$results/jmh-subprocess.json" | tee "$results/jmh-subprocess.log"
    java "${HEAP[@]}" -cp "$jar" io.zeocore.benchmarks.SubprocessKillLatency 100 200 200 | tee "$results/kill-latency.json"

    # Item 3: durable effects through the orchestrator against raw JDBC, taking turns on the same disk.
    df -T "$results" | tail -1 > "$results/filesystem.txt"
    java "${HEAP[@]}" -cp "$jar" io.zeocore.benchmarks.EffectThroughput "$results/effects" | tee "$results/effects.json"
    rm -rf "$results/effects"
  fi
  uptime > "$results/load-after.txt"
}

run_suite "$ROOT" "$ROOT/benchmarks/target/results"
REPORT_ARGS=(--results benchmarks/target/results --jmh-args "$JMH_ARGS" --out BENCHMARKS.md)

if [[ "${1:-}" == "--with-proposal" ]]; then
  copy="$ROOT/benchmarks/target/proposal-tree"
  rm -rf "$copy"
  mkdir -p "$copy"
  git ls-files -co --exclude-standard -z | tar --null -cf - -T - | tar -xf - -C "$copy"
  # patch, not git apply: inside this worktree git apply would skip the paths of the copy
  patch -s -p1 -d "$copy" < "$PATCH"
  run_suite "$copy" "$ROOT/benchmarks/target/results-proposal" runner
  REPORT_ARGS+=(--proposal-results benchmarks/target/results-proposal)
fi

python3 benchmarks/report.py "${REPORT_ARGS[@]}"
echo "wrote BENCHMARKS.md"
