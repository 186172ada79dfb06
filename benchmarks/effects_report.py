#!/usr/bin/env python3
"""Item 3 of BENCHMARKS.md (durable effects, issues 20 and 40) from the output of DurableEffects.

    python3 benchmarks/effects_report.py --results <dir> --splice BENCHMARKS.md

<dir> holds one full run (durable-effects.jsonl) or several (durable-effects-run1.jsonl, -run2, ...), with
commit.txt, command.txt and load.txt beside them.

renders the item-3 section, its summary rows and the "Item 3" analysis (benchmarks/ANALYSIS.md) and, with --splice,
replaces exactly those parts of an existing BENCHMARKS.md, leaving every other item as it was measured. report.py
uses render() too when it writes the whole file.
"""
import argparse
import json
import os
import re
import subprocess

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

# (numerator, denominator, what, target, comparison): ratios of effects per second (median of per-round ratios)
GOALS = [
    ("pg-zeocore-1", "pg-raw-bc-1", "PostgreSQL, 1 caller, vs raw JDBC + one Ed25519 check", 0.5, ">="),
    ("pg-zeocore-4", "pg-raw-bc-4", "PostgreSQL, 4 callers, vs raw JDBC + one Ed25519 check", 0.5, ">="),
    ("sqlite-zeocore-1", "sqlite-raw-bc-1", "SQLite, 1 caller, vs raw two commits + one Ed25519 check", 0.65, ">="),
    ("sqlite-zeocore-4", "sqlite-raw-1", "SQLite, 4 callers, vs the raw single writer's two commits", 0.9, ">="),
    ("pg-zeocore-16", "pg-raw-bc-16", "PostgreSQL, 16 callers, vs raw JDBC + one Ed25519 check", None, None),
    ("sqlite-zeocore-16", "sqlite-raw-1", "SQLite, 16 callers, vs the raw single writer's two commits", None, None),
]

# the floors, against the same denominators as the goals: what ZeoCore's own rows cost with no software at all
FLOORS = [
    ("pg-rows-bc-1", "pg-raw-bc-1", "PostgreSQL, 1 caller, *ZeoCore's rows by two plain statements* + one check"),
    ("pg-rows-bc-4", "pg-raw-bc-4", "PostgreSQL, 4 callers, *ZeoCore's rows by two plain statements* + one check"),
    ("sqlite-rows-bc-1", "sqlite-raw-bc-1", "SQLite, 1 caller, *ZeoCore's rows by plain statements* + one check"),
    ("sqlite-lean-bc-1", "sqlite-raw-bc-1", "SQLite, 1 caller, *the leanest rows keeping every guarantee* + one check"),
    ("sqlite-rows-bc-4", "sqlite-raw-1", "SQLite, 4 callers, *ZeoCore's rows* through an ideal group commit"),
    ("sqlite-lean-bc-4", "sqlite-raw-1", "SQLite, 4 callers, *the leanest rows* through an ideal group commit"),
]

# (ZeoCore, raw, floor, callers): server CPU per effect on PostgreSQL, target ≤ 3× raw's
SERVER_CPU = [("pg-zeocore-1", "pg-raw-1", "pg-rows-bc-1", 1), ("pg-zeocore-4", "pg-raw-4", "pg-rows-bc-4", 4),
              ("pg-zeocore-16", "pg-raw-16", "pg-rows-bc-16", 16)]

# store, callers -> (ZeoCore, its data model's floor, raw, raw + verify)
PER_STORE = [
    ("SQLite", 1, "sqlite-zeocore-1", "sqlite-rows-bc-1", "sqlite-raw-1", "sqlite-raw-bc-1"),
    ("SQLite", 4, "sqlite-zeocore-4", "sqlite-rows-bc-4", "sqlite-raw-1", "sqlite-raw-bc-1"),
    ("SQLite", 16, "sqlite-zeocore-16", "sqlite-rows-bc-16", "sqlite-raw-1", "sqlite-raw-bc-1"),
    ("PostgreSQL", 1, "pg-zeocore-1", "pg-rows-bc-1", "pg-raw-1", "pg-raw-bc-1"),
    ("PostgreSQL", 4, "pg-zeocore-4", "pg-rows-bc-4", "pg-raw-4", "pg-raw-bc-4"),
    ("PostgreSQL", 16, "pg-zeocore-16", "pg-rows-bc-16", "pg-raw-16", "pg-raw-bc-16"),
]

LABELS = {
    "sqlite-zeocore-1": "ZeoCore `execute()`, 1 caller",
    "sqlite-zeocore-jdk-1": "ZeoCore, 1 caller, JDK Ed25519 verifier",
    "sqlite-raw-1": "raw JDBC, two durable commits",
    "sqlite-raw-jdk-1": "raw JDBC + one JDK Ed25519 check",
    "sqlite-raw-bc-1": "raw JDBC + one BouncyCastle Ed25519 check (raw + verify)",
    "sqlite-zeocore-4": "ZeoCore, 4 callers (group commit)",
    "sqlite-zeocore-16": "ZeoCore, 16 callers (group commit)",
    "sqlite-rows-bc-1": "ZeoCore's rows by plain statements + one check (its data model's floor)",
    "sqlite-lean-bc-1": "the leanest rows that keep every guarantee + one check",
    "sqlite-rows-bc-4": "ZeoCore's rows by plain statements, 4 callers through an ideal group commit",
    "sqlite-lean-bc-4": "the leanest rows that keep every guarantee, 4 callers through an ideal group commit",
    "sqlite-rows-bc-16": "ZeoCore's rows by plain statements, 16 callers through an ideal group commit",
}


def load(path):
    contenders, calls, ratios = {}, {}, {}
    with open(path) as f:
        for line in f:
            line = line.strip()
            if not line.startswith("{"):
                continue
            obj = json.loads(line)
            if "contender" in obj:
                contenders[obj["contender"]] = obj
            elif "storeCall" in obj:
                calls[obj["storeCall"]] = obj
            elif "ratios" in obj:
                ratios.update(obj["ratios"])
    return contenders, calls, ratios


def runs(results):
    """Every full run in results: durable-effects-run*.jsonl in order, else durable-effects.jsonl alone."""
    names = sorted(n for n in os.listdir(results) if re.match(r"durable-effects-run\d+\.jsonl$", n))
    if not names:
        names = ["durable-effects.jsonl"]
    return [load(os.path.join(results, n)) for n in names]


def label(name):
    if name in LABELS:
        return LABELS[name]
    m = re.match(r"(pg2jvm|pg)-(zeocore-url|zeocore|raw-bc|raw|rows-bc)-(\d+)", name)
    if m:
        who = {"zeocore": "ZeoCore", "zeocore-url": "ZeoCore on a `store.url` (its own pool)", "raw": "raw JDBC",
               "raw-bc": "raw JDBC + one BouncyCastle Ed25519 check (raw + verify)",
               "rows-bc": "ZeoCore's rows by two plain statements + one check (its data model's floor)"}[m.group(2)]
        if m.group(1) == "pg2jvm":
            return f"{who}, two JVMs × {m.group(3)} callers"
        return f"{who}, {m.group(3)} caller{'s' if m.group(3) != '1' else ''}"
    return name


def table(rows, contenders, pg):
    out = ["| Contender | Effects/s | Client CPU µs/effect | "
           + ("Server CPU µs/effect (backends alone) | WAL B/effect | client write() calls/effect (≈ round trips) | "
              if pg
              else "Written B/effect | write() calls/effect | ")
           + "Allocated B/effect | Latency p50 / p99 (ms) |",
           "|---|---:|---:|---:|---:|---:|---:|---:|" if pg else "|---|---:|---:|---:|---:|---:|---:|"]
    for name in rows:
        c = contenders.get(name)
        if not c:
            continue
        calls = f"{c['writeCallsPerEffect']:.1f}" if c['writeCallsPerEffect'] > 0 else "–"
        io = (f"{c.get('serverCpuMicrosPerEffect', 0):.0f} ({c.get('backendCpuMicrosPerEffect', 0):.0f}) | "
              f"{c['walBytesPerEffect']:.0f} | {calls} | " if pg
              else f"{c['writeBytesPerEffect']:.0f} | {calls} | ")
        out.append(f"| {label(name)} | {c['effectsPerSecond']:.0f} | {c['cpuMicrosPerEffect']:.0f} | {io}"
                   f"{c['allocatedBytesPerEffect']:.0f} | {c['latencyP50Micros'] / 1000:.1f} / "
                   f"{c['latencyP99Micros'] / 1000:.1f} |")
    return out


def median(values):
    values = sorted(values)
    n = len(values)
    return values[n // 2] if n % 2 else (values[n // 2 - 1] + values[n // 2]) / 2


def spread(values, fmt="{:.2f}"):
    """'a, b, c' (each run) for a few runs."""
    return ", ".join(fmt.format(v) for v in values)


def verdict(value, target, comparison):
    if target is None:
        return "(reported)", "–"
    met = value >= target if comparison == ">=" else value <= target
    sign = "≥" if comparison == ">=" else "≤"
    return f"{sign} {target:g}×", "met" if met else "**missed**"


def server_ratio(contenders, a, b, field="serverCpuMicrosPerEffect"):
    x, y = contenders.get(a), contenders.get(b)
    if not x or not y or not y.get(field):
        return None
    return x[field] / y[field]


def render(results, meta):
    every = runs(results)
    n = len(every)
    summary, section = [], []
    section.append("## 3. Durable effects: the database's own cost per effect (SQLite WAL + FULL, PostgreSQL)")
    section.append("")
    section.append(
        f"`DurableEffects` (a plain main class; {meta}; {n} full run{'s' if n > 1 else ''}). Effects per second "
        "through `EffectOrchestrator.execute()` end to end — Ed25519 verification of a pre-signed authorization with "
        "the default verifier (BouncyCastle), the preflight on the connection last read, the claim commit (nonce, "
        "idempotency identity, `CREATED … DISPATCH_STARTED`, holding the connection it checked), a no-op dispatcher "
        "that confirms, the outcome commit (`SUCCEEDED`, receipt, evidence) — against *raw*: raw JDBC doing two "
        "durable commits per effect on the same disk or server (insert + commit; update + receipt insert + commit, "
        "prepared statements, one connection per caller, SQLite with the store's settings), *raw + verify*: the same "
        "plus one BouncyCastle Ed25519 check per effect, and *the floor of ZeoCore's data model*: ZeoCore's own "
        "schema, migrated by the store, with every guard trigger dropped, and per effect exactly the rows ZeoCore "
        "writes (the nonce, the execution at `DISPATCH_STARTED` with its history and dispatch clock; then the "
        "execution moved to `SUCCEEDED`, the evidence reference and the receipt) by plain prepared statements in "
        "the same two durable commits (PostgreSQL: one auto-committed statement per commit), plus the same one "
        "check — no guard, no read, no function; on SQLite with 4 and 16 callers through an ideal group commit "
        "(one writer takes every waiting work, up to 64, in one transaction, no savepoint). On SQLite also *the "
        "leanest rows that keep every guarantee* (one b-tree entry per guarantee; the receipt and the confirmation "
        "in the execution's row). Every contender takes one turn per round with a small batch, rotating who goes "
        "first; a ratio is the **median of the per-round throughput ratios** of a run. Per effect: the client "
        "process's CPU (every thread: JIT, GC and the kernel's time in `write`/`fsync` included; on SQLite the "
        "database engine runs here), the **server's CPU** (PostgreSQL: every server process on this machine — "
        "backends, WAL writer, checkpointer, autovacuum — from `/proc/<pid>/schedstat`), bytes allocated by every "
        "thread, `write()` bytes and calls (`/proc/self/io`), the server's WAL bytes (`pg_current_wal_insert_lsn()`), "
        "and each effect's latency as its caller saw it.")
    section.append("")
    section.append(f"### Targets of issue 40 ({n} full run{'s' if n > 1 else ''} the same day: each run's median "
                   "per-round ratio, then their median)")
    section.append("")
    section.append("| Comparison | " + " | ".join(f"Run {i + 1}" for i in range(n))
                   + " | Median of the runs | Target | Verdict |")
    section.append("|---|" + "---:|" * n + "---:|---|---|")

    def goal_row(a, b, text, target, comparison, kind="rate", in_summary=True):
        if kind == "rate":
            values = [r[2].get(f"{a}/{b}") for r in every]
        elif kind == "backends":
            values = [server_ratio(r[0], a, b, "backendCpuMicrosPerEffect") for r in every]
        else:
            values = [server_ratio(r[0], a, b) for r in every]
        values = [v for v in values if v is not None]
        if not values:
            return
        m = median(values)
        t, v = verdict(m, target, comparison)
        section.append(f"| {text} | " + " | ".join(f"{x:.2f}×" for x in values) + f" | **{m:.2f}×** | {t} | {v} |")
        if not in_summary:
            return
        field, unit = {"rate": ("effectsPerSecond", " effects/s"),
                       "server": ("serverCpuMicrosPerEffect", " µs server CPU/effect"),
                       "backends": ("backendCpuMicrosPerEffect", " µs backends' CPU/effect")}[kind]
        mine = median([r[0][a][field] for r in every if a in r[0]])
        theirs = median([r[0][b][field] for r in every if b in r[0]])
        summary.append(f"| 3 | Durable effects: {text} | {mine:.0f}{unit} | {label(b)}: {theirs:.0f}{unit} | "
                       f"**{m:.2f}×** (runs: {spread(values, '{:.2f}')}) | {t} | {v} |")

    for a, b, text, target, comparison in GOALS:
        goal_row(a, b, text, target, comparison, in_summary=target is not None)
    for a, raw, floor, callers in SERVER_CPU:
        who = f"{callers} caller{'s' if callers > 1 else ''}"
        goal_row(a, raw, f"PostgreSQL, {who}: server CPU per effect, ZeoCore ÷ raw", 3.0 if callers < 16 else None,
                 "<=", kind="server", in_summary=callers < 16)
        goal_row(a, raw, f"PostgreSQL, {who}: the client backends' CPU alone per effect, ZeoCore ÷ raw",
                 3.0 if callers < 16 else None, "<=", kind="backends", in_summary=callers < 16)
        goal_row(a, floor, f"PostgreSQL, {who}: server CPU per effect, ZeoCore ÷ its data model's floor", None,
                 None, kind="server", in_summary=callers == 1)
        goal_row(floor, raw, f"PostgreSQL, {who}: server CPU per effect, the floor ÷ raw", None, None,
                 kind="server", in_summary=callers == 1)
    for a, b, text in FLOORS:
        goal_row(a, b, text, None, None)
    section.append("")
    section.append(f"### Per store and caller count (median of the {n} runs; each run's figure in the tables below)")
    section.append("")
    section.append("| Store, callers | ZeoCore effects/s | its data model's floor | raw | raw + verify | ZeoCore ÷ raw | "
                   "ZeoCore ÷ raw + verify | ZeoCore ÷ floor | client CPU µs/effect: ZeoCore / floor / raw + verify | "
                   "server CPU µs/effect: ZeoCore / floor / raw (the client backends alone) |")
    section.append("|---|---:|---:|---:|---:|---:|---:|---:|---|---|")
    for store, callers, zeo, floor, raw, rawv in PER_STORE:
        def med(name, field):
            values = [r[0][name][field] for r in every if name in r[0]]
            return median(values) if values else None
        if med(zeo, "effectsPerSecond") is None:
            continue
        rates = [med(x, "effectsPerSecond") for x in (zeo, floor, raw, rawv)]
        cpu = [med(x, "cpuMicrosPerEffect") for x in (zeo, floor, rawv)]
        server = [med(x, "serverCpuMicrosPerEffect") for x in (zeo, floor, raw)]
        backends = [med(x, "backendCpuMicrosPerEffect") for x in (zeo, floor, raw)]
        show = lambda v: "–" if v is None else f"{v:.0f}"
        def rate_ratio(a, b):
            # the median of the runs' median per-round ratios, else (different rounds) the ratio of median rates
            values = [r[2][f"{a}/{b}"] for r in every if f"{a}/{b}" in r[2]]
            if values:
                return median(values)
            x, y = med(a, "effectsPerSecond"), med(b, "effectsPerSecond")
            return x / y if x and y else 0
        section.append(f"| {store}, {callers} | {show(rates[0])} | {show(rates[1])} | {show(rates[2])} | "
                       f"{show(rates[3])} | {rate_ratio(zeo, raw):.2f}× | {rate_ratio(zeo, rawv):.2f}× | "
                       f"{rate_ratio(zeo, floor):.2f}× | {' / '.join(show(v) for v in cpu)} | "
                       + (" / ".join(show(v) for v in server) + " (backends alone: "
                          + " / ".join(show(v) for v in backends) + ")" if store == "PostgreSQL" else "(in process)")
                       + " |")
    section.append("")
    jvm = [r[0].get("pg2jvm-zeocore-16") for r in every]
    if any(jvm):
        section.append("### Many instances: two JVMs × 16 callers on one PostgreSQL")
        section.append("")
        section.append("| Run | ZeoCore, two JVMs × 16: effects/s | raw JDBC the same way | ZeoCore ÷ raw | ZeoCore, one JVM "
                       "× 16 | two JVMs ÷ one | server CPU µs/effect: ZeoCore / raw | sessions waiting on a lock "
                       "(heavyweight / lightweight), mean: ZeoCore | … raw | what ZeoCore's sessions wait on most |")
        section.append("|---|---:|---:|---:|---:|---:|---|---|---|---|")
        for i, (contenders, _, ratios) in enumerate(every):
            z, w, one = (contenders.get(k) for k in ("pg2jvm-zeocore-16", "pg2jvm-raw-16", "pg-zeocore-16"))
            if not z or not w:
                continue
            section.append(
                f"| run {i + 1} | {z['effectsPerSecond']:.0f} | {w['effectsPerSecond']:.0f} | "
                f"{ratios.get('pg2jvm-zeocore-16/pg2jvm-raw-16', 0):.2f}× | "
                f"{one['effectsPerSecond'] if one else 0:.0f} | "
                f"{z['effectsPerSecond'] / one['effectsPerSecond'] if one else 0:.2f}× | "
                f"{z.get('serverCpuMicrosPerEffect', 0):.0f} / {w.get('serverCpuMicrosPerEffect', 0):.0f} | "
                f"{z.get('sessionsWaitingOnLocks', 0):.2f} / {z.get('sessionsWaitingOnLightweightLocks', 0):.2f} | "
                f"{w.get('sessionsWaitingOnLocks', 0):.2f} / {w.get('sessionsWaitingOnLightweightLocks', 0):.2f} | "
                + ", ".join(f"`{e}` {v:.2f}" for e, v in sorted(z.get("sessionsWaitingByEvent", {}).items(),
                                                                key=lambda kv: -kv[1])[:3]) + " |")
        section.append("")
    for i, (contenders, calls, _) in enumerate(every):
        for prefix, heading, pg in (
                ("sqlite-", "SQLite (WAL, synchronous=FULL), one file per contender in one directory", False),
                ("pg", "PostgreSQL (127.0.0.1:5432, same server for all; ZeoCore through a HikariCP pool of 16, "
                       "`pg-zeocore-url-N` through the store's own pool for a JDBC URL, size 16)", True)):
            rows = [c for c in contenders if c.startswith(prefix)]
            if rows:
                section.append(f"### Run {i + 1} of {n}: {heading}" if n > 1 else f"### {heading}")
                section.append("")
                section += table(rows, contenders, pg)
                section.append("")
        if calls:
            section.append("#### Store calls (`--breakdown`: wall µs per call)")
            section.append("")
            section.append("| Store call | Calls | Wall µs per call |")
            section.append("|---|---:|---:|")
            for name, c in calls.items():
                section.append(f"| `{name}` | {c['calls']} | {c['wallMicrosPerCall']:.0f} |")
            section.append("")
    return summary, section


def analysis_item3():
    with open(os.path.join(HERE, "ANALYSIS.md")) as f:
        text = f.read()
    m = re.search(r"^### Item 3.*?(?=^### Item 4)", text, re.S | re.M)
    return m.group(0).rstrip("\n").split("\n") if m else []


def splice(path, summary, section, analysis, note):
    with open(path) as f:
        lines = f.read().split("\n")
    # summary rows of item 3
    rows = [i for i, line in enumerate(lines) if line.startswith("| 3 |")]
    if rows:
        lines[rows[0]:rows[-1] + 1] = summary
    start = next(i for i, line in enumerate(lines) if line.startswith("## 3."))
    end = next(i for i, line in enumerate(lines) if line.startswith("## 4."))
    lines[start:end] = section
    start = next(i for i, line in enumerate(lines) if line.startswith("### Item 3"))
    end = next(i for i, line in enumerate(lines) if line.startswith("### Item 4"))
    lines[start:end] = analysis + [""]
    notes = [i for i, line in enumerate(lines) if line.startswith("> **Item 3 re-measured")]
    if notes:
        lines[notes[0]] = note
    else:
        first = next(i for i, line in enumerate(lines) if line.startswith("> **Absolute numbers"))
        lines[first + 1:first + 1] = ["", note]
    with open(path, "w") as f:
        f.write("\n".join(lines))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--results", required=True)
    parser.add_argument("--splice")
    args = parser.parse_args()
    commit = open(os.path.join(args.results, "commit.txt")).read().strip() \
        if os.path.exists(os.path.join(args.results, "commit.txt")) else \
        subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    command = open(os.path.join(args.results, "command.txt")).read().strip() \
        if os.path.exists(os.path.join(args.results, "command.txt")) else "DurableEffects"
    load_text = "; ".join(line for line in open(os.path.join(args.results, "load.txt")).read().split("\n")
                          if line.strip() and line.strip() != "all done") \
        if os.path.exists(os.path.join(args.results, "load.txt")) else ""
    meta = f"commit {commit}, `{command}`"
    summary, section = render(args.results, meta)
    note = (f"> **Item 3 re-measured separately** (issue 40) from commit {commit} with `{command}`, three full runs "
            f"the same day; the other items are from the run named above. Load averages: {load_text}. Absolute "
            f"figures swing with the shared disk and host between runs; compare ratios.")
    if args.splice:
        splice(args.splice, summary, section, analysis_item3(), note)
    else:
        print("\n".join(summary + [""] + section))


if __name__ == "__main__":
    main()
