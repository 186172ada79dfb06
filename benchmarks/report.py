#!/usr/bin/env python3
"""Writes BENCHMARKS.md from the results of benchmarks/run.sh.

Reads <results>/jmh-*.json (JMH's JSON), <results>/concurrent.jsonl (one JSON object per contender of
ConcurrentAsyncRuns) and <results>/load-*.txt, computes every ratio from numbers of the same run, and appends
benchmarks/ANALYSIS.md (hand-written: what costs time and why) verbatim.
"""
import argparse
import datetime
import json
import os
import platform
import re
import statistics
import subprocess
import xml.etree.ElementTree as ET

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

PEERS = ("Resilience4j", "Failsafe")
MODES = (("sync", "sync"),
         ("async", "async, target answers at once"),
         ("deferred", "async, target answers after the call returns"))


def number_or_zero(value):
    """JMH writes "NaN" (a string) as the error of a single iteration."""
    return float(value) if isinstance(value, (int, float)) and value == value else 0.0


def load_jmh(results):
    scores = {}
    meta = None
    for name in sorted(os.listdir(results)):
        if not (name.startswith("jmh-") and name.endswith(".json")):
            continue
        with open(os.path.join(results, name)) as f:
            for entry in json.load(f):
                cls, method = entry["benchmark"].rsplit(".", 1)
                primary = entry["primaryMetric"]
                alloc = entry.get("secondaryMetrics", {}).get("gc.alloc.rate.norm")
                scores[(cls.rsplit(".", 1)[1], method)] = {
                    "score": primary["score"],
                    "error": number_or_zero(primary["scoreError"]),
                    "unit": primary["scoreUnit"],
                    "alloc": alloc["score"] if alloc else None,
                }
                meta = meta or entry
    return scores, meta


def load_lines(path):
    if not os.path.exists(path):
        return []
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip().startswith("{")]


def load_object(path):
    """The JSON object on the last line of a measurement's output, or None when it did not run."""
    lines = load_lines(path)
    return lines[-1] if lines else None


def read(path, default=""):
    try:
        with open(path) as f:
            return f.read().strip()
    except OSError:
        return default


def pom_versions():
    ns = {"m": "http://maven.apache.org/POM/4.0.0"}
    tree = ET.parse(os.path.join(ROOT, "pom.xml")).getroot()
    props = {child.tag.split("}")[1]: (child.text or "").strip() for child in tree.find("m:properties", ns)}
    props["project.version"] = tree.find("m:version", ns).text.strip()
    return props


def machine():
    cpu = "unknown"
    for line in read("/proc/cpuinfo").splitlines():
        if line.startswith("model name"):
            cpu = line.split(":", 1)[1].strip()
            break
    mem = "unknown"
    match = re.search(r"MemTotal:\s+(\d+) kB", read("/proc/meminfo"))
    if match:
        mem = f"{int(match.group(1)) / 1024 / 1024:.1f} GiB"
    return {"cpu": cpu, "cores": os.cpu_count(), "memory": mem, "os": f"{platform.system()} {platform.release()}"}


def measured_commit(results):
    """The commit run.sh recorded before measuring; the current one if it recorded none."""
    recorded = read(os.path.join(results, "commit.txt")).split()
    if recorded:
        return recorded[0] + (" (with uncommitted changes)" if recorded[-1] == "dirty" else "")
    return git_commit()


def git_commit():
    try:
        sha = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                             check=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", ROOT, "status", "--porcelain", "--", "zeo-core",
                                "zeo-core-autoconfigure", "zeo-core-spring-boot-starter", "benchmarks"],
                               capture_output=True, text=True).stdout.strip()
        return sha + (" (with uncommitted changes)" if dirty else "")
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def ns(value):
    if value >= 100:
        return f"{value:,.0f}".replace(",", " ")
    if value >= 10:
        return f"{value:.1f}"
    return f"{value:.2f}"


def count(n):
    return f"{n:,}".replace(",", " ")


def fmt_score(s):
    return f"{ns(s['score'])} ± {ns(s['error'])}"


def ratio(a, b):
    return a["score"] / b["score"]


def ratio_range(a, b):
    """The ratio's range from the two 99.9% confidence intervals (JMH's error bars); None for an unbounded top."""
    lo = max(a["score"] - a["error"], 0) / (b["score"] + b["error"])
    b_low = b["score"] - b["error"]
    return lo, (a["score"] + a["error"]) / b_low if b_low > 0 else None


def fmt_ratio(a, b):
    lo, hi = ratio_range(a, b)
    return f"**{ratio(a, b):.2f}×** ({lo:.2f}–{'∞' if hi is None else f'{hi:.2f}'})"


def verdict(value, target, at_most=True):
    ok = value <= target if at_most else value >= target
    return "met" if ok else "**missed**"


class Report:
    def __init__(self, results, jmh_args):
        self.results = results
        self.jmh_args = jmh_args
        self.scores, self.meta = load_jmh(results)
        self.concurrent = {c["contender"]: c for c in load_lines(os.path.join(results, "concurrent.jsonl"))}
        self.versions = pom_versions()
        self.lines = []
        self.summary = []
        self.summary_floor = []

    def out(self, text=""):
        self.lines.append(text)

    def jmh(self, cls, method):
        return self.scores.get((cls, method))

    # items 1 and 2 ------------------------------------------------------------------------------------------------
    def runner_item(self, number, cls, title, description):
        if not any(key[0] == cls for key in self.scores):
            self.summary.append(f"| {number} | {title} | not measured in this run | | | | |")
            return
        self.out(f"## {number}. {title}")
        self.out()
        self.out(description)
        self.out()
        for mode, label in MODES:
            zeo = self.jmh(cls, f"{mode}ZeoCore")
            if zeo is None:
                continue
            peers = {p: self.jmh(cls, f"{mode}{p}") for p in PEERS}
            floors = {p: self.jmh(cls, f"{mode}{p}RetryOnly") for p in PEERS}
            direct = self.jmh(cls, f"{mode}Direct")
            best_name, best = min(peers.items(), key=lambda kv: kv[1]["score"])
            best_floor_name, best_floor = min(floors.items(), key=lambda kv: kv[1]["score"])
            r = ratio(zeo, best)
            self.summary.append(
                f"| {number} | {title}, {label} | {ns(zeo['score'])} ns | {best_name}: {ns(best['score'])} ns | "
                f"{fmt_ratio(zeo, best)} | ≤ 1.0× | {verdict(r, 1.0)} |")
            self.summary_floor.append(
                f"| {number} | {title}, {label} | {ns(zeo['score'])} ns | {best_floor_name} retry only: "
                f"{ns(best_floor['score'])} ns | {fmt_ratio(zeo, best_floor)} |")
            self.out(f"### {label[0].upper() + label[1:]}")
            self.out()
            self.out("| Contender | Time per run (ns, ± 99.9% CI) | Allocated (B/run) | ZeoCore ÷ contender |")
            self.out("|---|---:|---:|---:|")
            rows = [("ZeoCore", zeo)]
            rows += [(f"{p} (equivalent: retry + attempt timeout)", peers[p]) for p in PEERS]
            rows += [(f"{p} retry only (no attempt timeout; not equivalent, the peer's floor)", floors[p])
                     for p in PEERS]
            rows += [("direct call, no library (the floor)", direct)]
            for label, s in rows:
                alloc = f"{s['alloc']:.0f}" if s["alloc"] is not None else "–"
                rel = "–" if s is zeo else f"{ratio(zeo, s):.2f}×"
                self.out(f"| {label} | {fmt_score(s)} | {alloc} | {rel} |")
            self.out()

    # item 5 -------------------------------------------------------------------------------------------------------
    def concurrent_item(self):
        title = "10 000 concurrent async runs"
        if "zeocore" not in self.concurrent:
            self.summary.append(f"| 5 | {title} | not measured in this run | | | | |")
            return
        zeo = self.concurrent["zeocore"]
        self.out("## 5. 10 000 concurrent async runs awaiting a 100 ms target")
        self.out()
        self.out(
            f"`ConcurrentAsyncRuns` (a plain main class, not JMH): {count(zeo['runs'])} runs started back to back from one "
            f"thread, all in flight together, each awaiting a non-blocking target that answers after {zeo['delayMs']} ms "
            "from one shared \"provider\" thread (as an HTTP client's selector would). Each contender runs in a fresh "
            f"JVM (`-Xms512m -Xmx512m`): unmeasured warm-up rounds, then {zeo['rounds']} measured rounds. Threads: live "
            "count before the library's first use → peak over the measured rounds "
            "(`ThreadMXBean.resetPeakThreadCount`). Allocated: bytes allocated by all threads per run. Retained: heap "
            "held per in-flight run, measured after full GCs in a gated round whose targets answer only when released "
            "(with 60 s timeouts there, so that none fires across the GCs). Heap left: used heap after every run "
            "completed minus before (a leak check; a few KB is noise).")
        self.out()
        self.out("| Contender | Wall, median (min–max) ms | Launch, median ms | Threads start → peak | "
                 "Allocated B/run | Retained B/in-flight run | Failed runs | Heap left |")
        self.out("|---|---:|---:|---:|---:|---:|---:|---:|")
        labels = {"zeocore": "ZeoCore", "resilience4j": "Resilience4j (Retry + TimeLimiter)",
                  "failsafe": "Failsafe (RetryPolicy + Timeout)", "direct": "direct: the target's futures alone"}
        for key in ("zeocore", "resilience4j", "failsafe", "direct"):
            c = self.concurrent.get(key)
            if not c:
                continue
            wall = c["wallMs"]
            self.out(f"| {labels[key]} | {statistics.median(wall):.0f} ({min(wall):.0f}–{max(wall):.0f}) | "
                     f"{statistics.median(c['launchMs']):.1f} | {c['threadsAtStart']} → {c['peakThreads']} "
                     f"(+{c['peakThreads'] - c['threadsAtStart']}) | {c['allocatedBytesPerRun']} | "
                     f"{c['retainedBytesPerInFlightRun']} | {c['failedRuns']} | "
                     f"{c['heapLeftAfterCompletionBytes'] / 1024:.0f} KB |")
        self.out()
        added = zeo["peakThreads"] - zeo["threadsAtStart"]
        wall = statistics.median(zeo["wallMs"])
        peers = [self.concurrent[p] for p in ("resilience4j", "failsafe") if p in self.concurrent]
        best = min(peers, key=lambda c: statistics.median(c["wallMs"])) if peers else None
        limit = self.concurrent.get("direct")
        threads_ok = "met" if added <= 2 else "**missed**"
        self.summary.append(
            f"| 5 | {title}: threads | +{added} thread(s) for {count(zeo['runs'])} runs | "
            + (f"{labels[best['contender']].split(' ')[0]}: +{best['peakThreads'] - best['threadsAtStart']}"
               if best else "") + f" | – | bounded, no thread per run | {threads_ok} |")
        if best:
            bw = statistics.median(best["wallMs"])
            self.summary.append(
                f"| 5 | {title}: wall time | {wall:.0f} ms (target alone: "
                f"{statistics.median(limit['wallMs']):.0f} ms) | {labels[best['contender']].split(' ')[0]}: {bw:.0f} ms "
                f"| **{wall / bw:.2f}×** | (reported) | – |")
            self.summary.append(
                f"| 5 | {title}: heap | {zeo['retainedBytesPerInFlightRun']} B retained per in-flight run, "
                f"{zeo['allocatedBytesPerRun']} B allocated per run | "
                f"{labels[best['contender']].split(' ')[0]}: {best['retainedBytesPerInFlightRun']} B, "
                f"{best['allocatedBytesPerRun']} B | **{zeo['retainedBytesPerInFlightRun'] / max(best['retainedBytesPerInFlightRun'], 1):.2f}×** "
                f"retained | (reported) | – |")

    # item 3 -------------------------------------------------------------------------------------------------------
    def effects_item(self):
        if os.path.exists(os.path.join(self.results, "durable-effects.jsonl")):
            # issue 20: DurableEffects (SQLite and PostgreSQL, 1/4/16 callers, two JVMs), rendered by effects_report
            import effects_report
            summary, section = effects_report.render(
                self.results, "`DurableEffects " + read(os.path.join(self.results, "effects-args.txt")) + "`")
            self.summary += summary
            for line in section:
                self.out(line)
            return
        self.pending(3, "Durable effects vs raw JDBC", "a run of `DurableEffects`")

    def subprocess_item(self):
        cls = "SubprocessCallBenchmark"
        zeo, raw, setsid = (self.jmh(cls, m) for m in ("zeoCore", "processBuilder", "processBuilderSetsid"))
        kill = load_object(os.path.join(self.results, "kill-latency.json"))
        if zeo is None and kill is None:
            self.pending(4, "Subprocess call vs raw `ProcessBuilder`; kill latency", "a run of the subprocess items")
            return
        self.out("## 4. Subprocess target")
        self.out()
        if zeo is not None:
            r = ratio(zeo, raw)
            self.summary.append(
                f"| 4 | Subprocess call of a trivial child (`/bin/echo ok`) | {ns(zeo['score'])} µs | raw "
                f"`ProcessBuilder`: {ns(raw['score'])} µs | {fmt_ratio(zeo, raw)} | ≤ 1.15× | {verdict(r, 1.15)} |")
            self.summary.append(
                f"| 4 | … against the same raw call through `/usr/bin/setsid` (the containment's extra exec) | "
                f"| {ns(setsid['score'])} µs | {fmt_ratio(zeo, setsid)} | (reported) | – |")
            self.out("### Call overhead")
            self.out()
            self.out("`SubprocessCallBenchmark` (JMH, one run): `runner.runSync` of a subprocess target running "
                     "`/bin/echo ok` (argv as given, empty environment, stdin `/dev/null`, stderr discarded, stdout "
                     "parsed to a `String`) against a raw `ProcessBuilder` start + `readAllBytes` of stdout + "
                     "`waitFor` of the same child set up the same way, and the same raw call through "
                     "`/usr/bin/setsid`, which is how the target makes the child lead its own process group.")
            self.out()
            self.out("| Contender | Time per call (µs, ± 99.9% CI) | ZeoCore ÷ contender |")
            self.out("|---|---:|---:|")
            for label, s in (("ZeoCore subprocess target through the runner", zeo),
                             ("raw `ProcessBuilder` (the physical limit)", raw),
                             ("raw `ProcessBuilder` through `/usr/bin/setsid`", setsid)):
                self.out(f"| {label} | {fmt_score(s)} | {'–' if s is zeo else f'{ratio(zeo, s):.2f}×'} |")
            self.out()
        if kill is not None:
            grace = kill["graceMs"]
            excess = kill["p99Ms"] - grace
            self.summary.append(
                f"| 4 | Kill latency after the deadline: SIGTERM-ignoring child + grandchild, {kill['measured']} "
                f"runs, grace {grace} ms | p50 {kill['p50Ms']:.0f} ms, p99 {kill['p99Ms']:.0f} ms | – | p99 − grace "
                f"= {excess:.0f} ms | ≤ grace + 100 ms | {verdict(excess, 100)} |")
            self.out("### Kill latency")
            self.out()
            self.out(
                "`SubprocessKillLatency` (a plain main class): a `/bin/sh` child that ignores `SIGTERM` "
                "(`trap '' TERM`), starts a grandchild (`/bin/sleep 1000`, which inherits the ignored signal), "
                f"writes both pids to a file and waits, called through the runner with an attempt timeout of "
                f"{kill['timeoutMs']} ms and a termination grace of {grace} ms, {kill['runs']} times in a row. "
                "Latency: the attempt's duration in its record minus the timeout (from the deadline to the target "
                "returning, which it does only once the tree is gone), plus any time the two pids were still seen "
                "running in `/proc` afterwards (zombies count as gone). Every run must end `TIMEOUT`.")
            self.out()
            self.out("| Runs measured | Child not ready by the deadline | Trees left running | p50 | p99 | max | "
                     "p99 − grace |")
            self.out("|---:|---:|---:|---:|---:|---:|---:|")
            self.out(f"| {kill['measured']} | {kill['notReadyAtDeadline']} | {kill['treesLeftRunning']} | "
                     f"{kill['p50Ms']:.1f} ms | {kill['p99Ms']:.1f} ms | {kill['maxMs']:.1f} ms | {excess:.1f} ms |")
            self.out()

    # item 6 -------------------------------------------------------------------------------------------------------
    def startup_item(self):
        title = "Start-up of a minimal Boot app"
        st = load_object(os.path.join(self.results, "startup.json"))
        if st is None:
            self.pending(6, title + " with vs without the starter", "a run of `StartupTime`")
            return
        base = st["withoutStarterMedianMs"]
        self.summary.append(
            f"| 6 | {title} with the starter, SQLite store on (existing file: a restart) | "
            f"{st['withStarterExistingStoreMedianMs']:.0f} ms | without the starter: {base:.0f} ms | "
            f"**{st['existingStoreRatio']:.2f}×** | as little as possible (reported) | – |")
        self.summary.append(
            f"| 6 | … with a fresh store file (created and migrated during start-up) | "
            f"{st['withStarterFreshStoreMedianMs']:.0f} ms | | **{st['freshStoreRatio']:.2f}×** | (reported) | – |")
        self.out("## 6. Start-up with and without the starter")
        self.out()
        self.out(
            "`StartupTime` (a plain main class) starts `MinimalBootApp` — `@SpringBootApplication` with nothing "
            "declared — in fresh JVMs (`-Xms256m -Xmx256m`, banner off, logging at WARN): without ZeoCore (the "
            "classpath of `spring-boot-starter` alone, resolved from `benchmarks/startup/pom.xml`) and with "
            "`zeo-core-spring-boot-starter` (the class path an application depending on the starter gets, in the "
            "starter's order) and its SQLite store switched on (`zeocore.connections.store.path`), "
            "once on a fresh database file and once on the file an earlier start left. After one unmeasured start "
            f"each, the three variants take turns {st['starts']} times, rotating which goes first. Time: from the "
            "JVM's start (`RuntimeMXBean.getStartTime`) to `SpringApplication.run` returning. Each start checks "
            "that ZeoCore's store bean exists exactly when the starter is there.")
        self.out()
        self.out("| Variant | Median ms to ready | All starts (ms) | Bean definitions | ÷ without the starter |")
        self.out("|---|---:|---|---:|---:|")
        for key, label in (("withoutStarter", "without the starter"),
                           ("withStarterExistingStore", "with the starter, existing store file"),
                           ("withStarterFreshStore", "with the starter, fresh store file")):
            median_ms = st[key + "MedianMs"]
            self.out(f"| {label} | {median_ms:.0f} | {', '.join(str(v) for v in st[key + 'Ms'])} | "
                     f"{st[key + 'BeanDefinitions']} | {median_ms / base:.2f}× |")
        self.out()

    def pending(self, number, title, waits_for):
        self.summary.append(f"| {number} | {title} | not measured yet: waits for {waits_for} | | | | |")

    # the document -------------------------------------------------------------------------------------------------
    def items(self):
        """Renders every item into self.lines and fills the summaries; returns the rendered lines."""
        self.lines = []
        self.runner_item(1, "RunnerOverheadBenchmark", "Runner overhead, one successful attempt",
                         "A no-op target that answers at once; every contender may make up to three attempts and "
                         "needs one. Average time per run (JMH `avgt`), allocation from JMH's `gc` profiler.")
        self.runner_item(2, "FallbackPathBenchmark", "Fallback path",
                         "The first target fails with a transient failure, the second answers; zero delay between "
                         "them. ZeoCore plans `[primary, secondary]`; each peer may make two attempts and picks the "
                         "target by attempt number.")
        self.effects_item()
        self.subprocess_item()
        self.concurrent_item()
        self.startup_item()
        body, self.lines = self.lines, []
        return body

    def summary_tables(self):
        rows = self.summary
        self.out("| # | What | ZeoCore | Best equivalent peer / limit | Ratio | Target | Verdict |")
        self.out("|---|---|---:|---:|---:|---|---|")
        self.lines += rows
        self.out()
        if self.summary_floor:
            self.out("Against the peers' **floors** (retry only, no attempt timeout: cheaper than what ZeoCore does, "
                     "not a target, shown so nothing flatters ZeoCore):")
            self.out()
            self.out("| # | What | ZeoCore | Cheapest peer floor | Ratio |")
            self.out("|---|---|---:|---:|---:|")
            self.lines += self.summary_floor
            self.out()

    def write(self, out):
        """The document: summary first (built while rendering the items), then the details and the analysis."""
        body = self.items()

        meta = self.meta or {}
        v = self.versions
        m = machine()
        load_before = read(os.path.join(self.results, "load-before.txt"))
        load_after = read(os.path.join(self.results, "load-after.txt"))
        self.out("# ZeoCore benchmarks")
        self.out()
        self.out(f"Generated by `benchmarks/run.sh` on {datetime.date.today().isoformat()} from commit "
                 f"{measured_commit(self.results)}. Do not edit by hand: edit `benchmarks/report.py` or `benchmarks/ANALYSIS.md` and "
                 "re-run.")
        self.out()
        self.out("> **Absolute numbers are noisy here**: a shared 2-core virtual machine on which other developers run "
                 "builds at the same time. **Ratios are what count**: each comparison runs all its contenders in the "
                 "same JMH run (or back to back, for the plain measurements), so they saw the same machine. "
                 "Ranges after a ratio come from JMH's 99.9% confidence intervals of both scores.")
        self.out()
        self.out(f"Load average before the suite: `{load_before.split('load average:')[-1].strip()}`; after: "
                 f"`{load_after.split('load average:')[-1].strip()}`.")
        self.out()
        self.out("## Summary")
        self.out()
        self.summary_tables()
        self.out("## Machine, JVM, versions, command")
        self.out()
        self.out(f"- Machine: {m['cpu']}, {m['cores']} cores, {m['memory']} RAM, {m['os']}")
        self.out(f"- JVM: {meta.get('vmName', '?')} {meta.get('vmVersion', '?')} (JDK {meta.get('jdkVersion', '?')}); "
                 f"benchmark JVM flags: `{' '.join(meta.get('jvmArgs', []))}`")
        self.out(f"- ZeoCore {v['project.version']}, JMH {v['jmh.version']}, Resilience4j {v['resilience4j.version']} "
                 f"(`resilience4j-retry`, `resilience4j-timelimiter`), Failsafe {v['failsafe.version']}")
        self.out(f"- Command: `benchmarks/run.sh`, i.e. `java -jar benchmarks/target/benchmarks.jar` with "
                 f"`{self.jmh_args} -prof gc -rf json` for items 1–2 (one benchmark thread; `-f` forks, `-wi`/`-i` "
                 "warm-up and measurement iterations of `-w`/`-r` each), and "
                 "`java -Xms512m -Xmx512m -cp benchmarks/target/benchmarks.jar io.zeocore.benchmarks.<Main> …` for the "
                 "plain measurements: `ConcurrentAsyncRuns <contender>` (item 5), `SubprocessKillLatency 100 200 200` "
                 "(item 4; the JMH `SubprocessCallBenchmark` runs with the same options as items 1–2, without `-prof "
                 "gc`), `DurableEffects <directory> --sqlite [--pg <url> --jvms] …` (item 3), `StartupTime <classpath files> <classes> <directory>` "
                 "(item 6)")
        self.out()
        self.out("## How each contender is configured")
        self.out()
        self.out(CONFIGURATION)
        self.out()
        self.lines += body
        analysis = read(os.path.join(HERE, "ANALYSIS.md"))
        if analysis:
            self.out(analysis)
            self.out()
        with open(os.path.join(ROOT, out), "w") as f:
            f.write("\n".join(self.lines).rstrip() + "\n")


CONFIGURATION = """All configuration lives in `benchmarks/src/main/java/io/zeocore/benchmarks/Contenders.java`. Equivalent \
means: at most *n* attempts, no delay and no jitter between them, a per-attempt timeout of 1 s (never reached), retries \
only after the transient failure or an attempt timeout, and a 10 s total budget where the library has one.

- **ZeoCore**: `ResilientRunner.create()` (the JVM-wide scheduler thread for async timers). `ExecutionPolicy`: \
`READ_ONLY`, `totalTimeout` 10 s, `attemptTimeout` 1 s, plan `[noop, noop, noop]` (item 1) or `[primary, secondary]` \
(item 2), no backoff, `jitterFraction` 0, default retryable kinds. Targets: `SyncExecutionTarget.of` / \
`AsyncExecutionTarget.of`. Sync: `runSync`, whose attempt timeout is cooperative (the target receives it; nothing is \
scheduled). Async: `runAsync(...).join()`, which schedules the attempt timeout on the scheduler and cancels it on \
completion. A failing target throws a pre-allocated `AttemptError(TRANSIENT)`.
- **Resilience4j** 2.4.0: `Retry` with `maxAttempts` *n*, `waitDuration(Duration.ZERO)`, `retryExceptions(\
TransientFailure, TimeoutException)`; `TimeLimiter` with `timeoutDuration` 1 s, `cancelRunningFuture(true)`. \
**Sync**: `retry.executeCallable(() -> timeLimiter.executeFutureSupplier(() -> executor.submit(target)))`: \
Resilience4j's TimeLimiter can only bound a `Future`, so each attempt runs on a fixed pool of 2 threads (one per core) \
while the caller waits with a timeout. **Async**: `retry.executeCompletionStage(scheduler, () -> \
timeLimiter.executeCompletionStage(scheduler, target))` with one `ScheduledThreadPoolExecutor(1)` \
(`removeOnCancelPolicy` true, like ZeoCore's scheduler). For the fallback, a per-call counter picks the target: \
Resilience4j's Retry hands the supplier no attempt number.
- **Failsafe** 3.3.2: `Failsafe.with(retryPolicy, timeout)`: the `Timeout` (1 s) is inside the `RetryPolicy`, so it \
bounds each attempt. `RetryPolicy`: `handle(TransientFailure, TimeoutExceededException)`, `withMaxAttempts(n)`, \
default delay (zero; `withDelay(ZERO)` is rejected), `withMaxDuration(10 s)`. Default scheduler (Failsafe's delayer \
thread plus the common `ForkJoinPool`, or a two-thread `ForkJoinPool` of its own when the common pool has one thread, as on 2 cores). Sync: \
`get(...)`, which schedules the timeout on that scheduler for every attempt. Async: `getStageAsync(...)` (the first \
attempt runs on the caller; retries are scheduled). For the fallback, `ExecutionContext.getAttemptCount()` picks the \
target.
- **Retry only** rows: the same `Retry` / `RetryPolicy` without `TimeLimiter` / `Timeout`. Not equivalent (no attempt \
is bounded); shown as each peer's floor.
- **Direct**: the target called with no library (item 2: a hand-written try/catch, or `exceptionallyCompose`).
- Failing peer targets throw one pre-allocated, stackless `TransientFailure`, so no contender pays for a stack trace."""


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--results", required=True)
    parser.add_argument("--jmh-args", default="")
    parser.add_argument("--out", default="BENCHMARKS.md")
    args = parser.parse_args()
    Report(args.results, args.jmh_args).write(args.out)


if __name__ == "__main__":
    main()
