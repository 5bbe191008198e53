#!/usr/bin/env python3
"""Writes the generated tables of bench/README.md, bench/HISTORY.md and
RELIABILITY.md from the raw result files.

A table is generated where a document holds a marker line

    <!-- tables.py: KIND ARG... -->

and everything up to the next `<!-- /tables.py -->` line is replaced by the
table. Each table row names the result file (under bench/results/) it comes
from: a table with no result file behind it is not a result.

Kinds:
  runonce GLOB...               propscaler_runonce --json_out files
  soak GLOB...                  propscaler_soak --json_out files
  memory GLOB...                propscaler_nodescale_memory --json_out files
  podcount GLOB...              propscaler_pod_count_memory --json_out files
  scale GLOB...                 propscaler_scale_harness --json_out files
  gbench FILE [REGEX]           a propscaler_bench --benchmark_out file: each
                                benchmark (its median when repeated) and its
                                counters
  compare BEFORE AFTER [REGEX]  two such files side by side
  karpenter FILE...             the Karpenter mix beside Karpenter's
                                published figures
  karpenter-claims FILE [REGEX] the NodePool scheduler on the Karpenter mix
                                beside Karpenter's best published figures;
                                the file must name its binary's commit
  image GLOB...                 bench/image_size.sh result files

A result file written from PROVENANCE_FROM on is refused unless it names
its binary's clean commit and build type, the command, the machine and the
verdict.

Usage: bench/tables.py [--check]   (--check: exit 1 when a table is stale)
"""

import glob
import json
import math
import os
import re
import statistics
import sys

BENCH = os.path.dirname(os.path.abspath(__file__))
RESULTS = os.path.join(BENCH, "results")
DOCUMENTS = [os.path.join(BENCH, "README.md"),
             os.path.join(BENCH, "HISTORY.md"),
             os.path.join(os.path.dirname(BENCH), "RELIABILITY.md")]
MARKER = re.compile(r"^<!-- tables\.py: (.+) -->$")
END = "<!-- /tables.py -->"

# Karpenter's published figures for its diverse mix (PR
# kubernetes-sigs/karpenter#1938, January 2025, its machine): pods ->
# (ms, nodes).
KARPENTER_MIX = {100: (93, 20), 1000: (891, 200), 5000: (5086, 1000),
                 20000: (35740, 4000)}
# Its best published figures (medians of 10 runs in a comment on PR
# kubernetes-sigs/karpenter#2486, November 2025, an M3 Pro; 100 pods from
# #1938): pods -> ms. Its nodes: pods / 5.
KARPENTER_BEST = {100: 93, 1000: 780, 5000: 3740, 10000: 8110, 20000: 20200}


class TableError(Exception):
    pass


# Result files written from here on must say what made them (issue 65):
# the binary's clean commit and build type, the command, the machine and
# the verdict. Older files are kept as they were written.
PROVENANCE_FROM = "2026-12-03T18:00:00"


def written_at(doc):
    return doc.get("at") or doc.get("context", {}).get("date", "")


def provenance_missing(doc):
    """What a file written from PROVENANCE_FROM on lacks ([] for none)."""
    if "context" in doc:  # propscaler_bench's Google Benchmark JSON
        c = doc["context"]
        commit, build = c.get("propscaler_commit"), \
            c.get("propscaler_build_type")
        have = {"command": "command" in c, "machine": "machine" in c,
                "verdict": "passed" in c}
    else:
        binary = doc.get("binary") or {}
        commit, build = binary.get("commit"), binary.get("build_type")
        have = {"command": "command" in doc, "machine": "machine" in doc,
                "verdict": "passed" in doc}
    missing = [k for k, ok in have.items() if not ok]
    if commit in (None, "", "unknown"):
        missing.append("the binary's commit")
    elif commit.endswith("-dirty"):
        missing.append(f"a clean binary (it was built dirty: {commit})")
    if build in (None, "", "unknown"):
        missing.append("the binary's build type")
    return missing


def load(path):
    try:
        with open(path) as f:
            doc = json.load(f)
    except (OSError, ValueError) as e:
        raise TableError(f"{path}: {e}")
    # Google Benchmark writes its date with a zone offset: compare the
    # first 19 characters, both UTC on this machine.
    if written_at(doc)[:19] >= PROVENANCE_FROM:
        missing = provenance_missing(doc)
        if missing:
            raise TableError(f"{path}: written {written_at(doc)}, lacks "
                             + ", ".join(missing))
    return doc


def files(patterns):
    found = []
    for pattern in patterns:
        matched = sorted(glob.glob(os.path.join(RESULTS, pattern)))
        if not matched:
            raise TableError(f"no result file matches bench/results/{pattern}")
        found += matched
    return found


def figures(doc):
    # Files written before ResultFile kept their figures at the top level.
    return doc.get("figures", doc)


def commit_of(doc):
    """The commit of the binary that ran (its --version), else the
    checkout's when the file was written (files from before 2026-12-02)."""
    binary = doc.get("binary")
    if binary and binary.get("commit") not in (None, "unknown"):
        return binary["commit"]
    return doc["commit"]["id"]


def verdict(doc):
    if "passed" not in doc:
        return "exit " + str(figures(doc).get("exit", "?"))
    if doc["passed"]:
        return "passed"
    return "FAILED: " + "; ".join(doc.get("failures", []))


def name(path):
    return "`" + os.path.basename(path) + "`"


def num(value, digits=0):
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "-"
    return f"{value:,.{digits}f}"


def mib(kib):
    return num(kib / 1024, 1) + " MiB"


def table(header, rows):
    lines = ["| " + " | ".join(header) + " |",
             "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return lines


REQUEST_KINDS = [
    ("node creations", re.compile(r"^POST /api/v1/nodes$")),
    ("Events", re.compile(r"^POST .*/events$")),
    ("evictions", re.compile(r"^POST .*/eviction$")),
    ("node reads", re.compile(r"^GET /api/v1/nodes/[^/]+$")),
    ("node patches", re.compile(r"^PATCH /api/v1/nodes/[^/]+$")),
]


def requests(fig):
    reqs = fig["requests"]
    if isinstance(reqs, dict):  # the simulated server's own count
        total, by_kind = reqs["total"], reqs["requests"]
    else:
        total, by_kind = reqs, fig.get("requests_by_kind", {})
    parts = []
    for label, pattern in REQUEST_KINDS:
        count = sum(n for k, n in by_kind.items() if pattern.match(k))
        if count:
            parts.append(f"{num(count)} {label}")
    return num(total) + (": " + ", ".join(parts) if parts else "")


def runonce(*patterns):
    rows = []
    for path in files(patterns):
        doc = load(path)
        fig = figures(doc)
        made = "made" if fig["shape"] == "scale-up" else "marked"
        rows.append([fig["shape"], num(fig["nodes"]), fig["server"],
                     num(fig["wall_ms"] / 1000, 2) + " s",
                     mib(fig["peak_rss_kib"]), requests(fig),
                     f"{num(fig['outcome'])} {made} (want {num(fig['want'])})",
                     runonce_targets(fig), verdict(doc), name(path)])
    return table(["shape", "nodes", "server", "start to exit", "peak RSS",
                  "requests", "outcome",
                  "targets: time, peak RSS, requests", "verdict", "raw"],
                 rows)


def runonce_targets(fig):
    """The run's targets ("-": the run predates them)."""
    if "wall_target_s" not in fig:
        return "-"
    parts = [(fig["wall_target_s"], " s"), (fig["peak_rss_target_mib"], " MiB"),
             (fig["requests_target"], "")]
    return ", ".join(f"{num(value)}{unit}" if value > 0 else "none"
                     for value, unit in parts)


def follow(fig, key):
    count = fig.get(key + "_changes", 0)
    if not count:
        return "-"
    return (f"{count}: {num(fig[key + '_p50_ms'])} / "
            f"{num(fig[key + '_p99_ms'])} / {num(fig[key + '_max_ms'])} ms "
            f"(target {num(fig[key + '_target_ms'])})")


def per_hour(fig, key):
    trend = fig.get(key + "_trend", {})
    if not trend.get("samples"):
        return "-"
    return (f"{num(trend['per_hour'], 1)} "
            f"({num(trend['percent_per_hour'], 1)} %)")


def soak(*patterns):
    rows = []
    for path in files(patterns):
        doc = load(path)
        fig = figures(doc)
        effects = len(fig.get("fault_effects", []))
        missing = len(fig.get("faults_not_effective", []))
        rows.append([
            fig["mode"], num(fig["duration_s"] / 60) + " min",
            follow(fig, "followed"), follow(fig, "after_outage"),
            follow(fig, "scale_down"), num(fig["unchanged_answers"]),
            f"{num(fig['writes_accepted'])} / "
            f"{num(fig['writes_unexplained'])}",
            f"{len(fig['late'])} / {len(fig['wrong_values'])}",
            f"{effects} / {missing}",
            mib(fig["peak_rss_kib"]), per_hour(fig, "rss_kib"),
            per_hour(fig, "anon_kib"), per_hour(fig, "fds"),
            verdict(doc), name(path)])
    return table(
        ["mode", "run", "changes followed: p50 / p99 / max",
         "first after an outage", "empty node removed",
         "changes that left the answer", "writes accepted / unexplained",
         "late / wrong between changes", "faults seen / without effect",
         "peak RSS", "RSS KiB per hour", "anonymous KiB per hour",
         "fds per hour", "verdict", "raw"], rows)


def memory(*patterns):
    rows = []
    for path in files(patterns):
        doc = load(path)
        fig = figures(doc)
        bursts = "-"
        if "burst_batched_last_node_p50_s" in fig:
            bursts = (f"{fig['bursts']} x {num(fig['burst_pods'])} pods: "
                      f"{num(fig['burst_batched_last_node_p50_s'], 2)} s "
                      f"(target {num(fig['burst_target_s'], 2)} s)")
        whole = fig.get("peak_rss_whole_run_kib")
        rows.append([
            fig["server"], f"{num(fig['nodes'])} x {num(fig['pods'])} "
            f"{fig['pod_kind']}", num(fig["first_loop_s"], 2) + " s",
            mib(fig["peak_rss_first_loops_kib"]),
            mib(whole) if whole else "-", mib(fig["rss_anon_kib"]),
            num(fig["rest_cpu_ms_per_loop"]) + " ms", bursts,
            memory_targets(fig), verdict(doc), name(path)])
    return table(["server", "nodes x pods", "first loop", "peak RSS (lists, "
                  "first loops)", "peak RSS (whole run)", "anonymous RSS",
                  "CPU a loop at rest", "bursts: p50 to the last node",
                  "targets: peak RSS, first loop, CPU at rest", "verdict",
                  "raw"], rows)


def memory_targets(fig):
    """The run's targets ("-": the run predates them, or had none)."""
    if "peak_rss_target_mib" not in fig:
        return "-"
    parts = [(fig["peak_rss_target_mib"], "MiB", 0),
             (fig["first_loop_target_s"], "s", 0),
             (fig["rest_cpu_target_ms"], "ms", 0)]
    shown = [f"{num(value, digits)} {unit}" if value > 0 else "none"
             for value, unit, digits in parts]
    return ", ".join(shown)


def podcount(*patterns):
    rows = []
    for path in files(patterns):
        doc = load(path)
        fig = figures(doc)
        rows.append([
            fig["server"], num(fig["pods"]), num(fig["pods_per_replica"]),
            num(fig["first_scale_seconds"], 2) + " s",
            num(fig["baseline_peak_rss_mib"], 1) + " MiB",
            num(fig["pods_peak_rss_mib"], 1) + " MiB",
            num(fig["baseline_rss_anon_mib"], 1) + " MiB",
            num(fig["pods_rss_anon_mib"], 1) + " MiB",
            "+" + num(fig["added_anon_mib"], 1) + " MiB",
            num(fig.get("reaction_median_ms"), 0) + " ms",
            verdict(doc), name(path)])
    return table(["server", "matching pods", "podsPerReplica", "first scale",
                  "peak RSS, no pods counted", "peak RSS, pods counted",
                  "anonymous RSS, no pods", "anonymous RSS, pods",
                  "pods add", "reaction to a pod (median)", "verdict", "raw"],
                 rows)


def reaction(size):
    """p50 / p99 and the trials; under 100 trials the nearest-rank p99 is
    the slowest trial, and the cell says so."""
    trials = size["reaction_trials"]
    of = f"max of {num(trials)}" if trials < 100 else num(trials)
    return (f"{num(size['reaction_p50_ms'])} / "
            f"{num(size['reaction_p99_ms'])} ms ({of})")


def scale(*patterns):
    rows = []
    for path in files(patterns):
        doc = load(path)
        fig = figures(doc)
        for size in fig["sizes"]:
            rows.append([
                fig["server"], num(size["nodes"]), size["rbac"],
                num(size["runs"]), num(size["list_send_s"], 3) + " s",
                num(size["first_scale_s"], 3) + " s",
                num(size["peak_rss_after_list_mib"], 1) + " MiB",
                num(size["peak_rss_after_events_mib"], 1) + " MiB",
                num(size["anon_after_events_mib"], 1) + " MiB",
                reaction(size),
                num(size["requests_at_rest_per_hour"]) + " /h",
                num(size["events_per_cpu_s"]) + " /s",
                verdict(doc), name(path)])
    return table(["server", "nodes", "RBAC", "runs", "list send",
                  "first scale", "peak RSS after list",
                  "peak RSS after events", "anonymous RSS after events",
                  "reaction p50 / p99 (trials)", "requests at rest",
                  "events per CPU-second", "verdict", "raw"], rows)


COUNTERS_SKIPPED = {"pods_per_s"}


def benchmarks(path, regex=None):
    """name -> (ms, counters): the median of repetitions, else the run."""
    doc = load(path)
    runs, medians = {}, {}
    for b in doc["benchmarks"]:
        if regex and not re.search(regex, b["run_name"]):
            continue
        scale = {"ns": 1e-6, "us": 1e-3, "ms": 1, "s": 1e3}[b["time_unit"]]
        counters = {k: v for k, v in b.items() if k not in (
            "name", "family_index", "per_family_instance_index", "run_name",
            "run_type", "repetitions", "repetition_index", "threads",
            "iterations", "real_time", "cpu_time", "time_unit",
            "aggregate_name", "aggregate_unit", "error_occurred",
            "error_message") and k not in COUNTERS_SKIPPED}
        entry = (b["real_time"] * scale, counters)
        if b.get("error_occurred"):
            raise TableError(f"{path}: {b['run_name']} failed its check: "
                             f"{b.get('error_message')}")
        if b["run_type"] == "aggregate":
            if b["aggregate_name"] == "median":
                medians[b["run_name"]] = entry
        else:
            runs.setdefault(b["run_name"], entry)
    runs.update(medians)
    if not runs:
        raise TableError(f"{path}: no benchmark matches {regex}")
    return runs


def counters_text(counters):
    return ", ".join(f"{k} {num(v)}" for k, v in sorted(counters.items()))


def duration(ms):
    if ms >= 1:
        return num(ms, 2) + " ms"
    if ms >= 1e-3:
        return num(ms * 1e3, 2) + " us"
    return num(ms * 1e6, 1) + " ns"


def gbench(path, regex=None):
    full = os.path.join(RESULTS, path)
    rows = [[f"`{n}`", duration(ms), counters_text(c)]
            for n, (ms, c) in benchmarks(full, regex).items()]
    return table(["benchmark", "time", "counters"], rows) + [
        "", f"Raw: {name(full)}."]


def compare(before, after, *options):
    """Before and after, side by side. Options: a regex of the benchmarks
    to show, and max=R, the not-slower target: a ratio above R fails."""
    regex, most = None, None
    for option in options:
        if option.startswith("max="):
            most = float(option[len("max="):])
        else:
            regex = option
    b = benchmarks(os.path.join(RESULTS, before), regex)
    a = benchmarks(os.path.join(RESULTS, after), regex)
    rows = []
    for n in b:
        if n not in a:
            continue
        if most is not None and a[n][0] / b[n][0] > most:
            raise TableError(f"{n}: after / before {a[n][0] / b[n][0]:.2f}x, "
                             f"above the target of {most}x")
        rows.append([f"`{n}`", num(b[n][0], 2) + " ms", counters_text(b[n][1]),
                     num(a[n][0], 2) + " ms", counters_text(a[n][1]),
                     num(a[n][0] / b[n][0], 2) + "x"])
    return table(["benchmark", "before", "", "after", "", "after / before"],
                 rows) + ["", f"Raw: `{before}`, `{after}`."]


def memory_compare(before, after, *options):
    """The loop's memory runs before and after a change, medians side by
    side. Options: rss=R, the not-higher target of the peak RSS and the
    anonymous RSS, and time=R, the not-slower target of the first loop and
    the CPU a loop at rest: a ratio above either fails."""
    most = {"rss": None, "time": None}
    for option in options:
        key, _, value = option.partition("=")
        if key not in most or not value:
            raise TableError(f"memory-compare: unknown option {option!r}")
        most[key] = float(value)
    shown = [("first loop", "first_loop_s", "time",
              lambda v: num(v, 2) + " s"),
             ("peak RSS (lists, first loops)", "peak_rss_first_loops_kib",
              "rss", mib),
             ("anonymous RSS", "rss_anon_kib", "rss", mib),
             ("CPU a loop at rest", "rest_cpu_ms_per_loop", "time",
              lambda v: num(v) + " ms")]
    runs = {}
    for side, pattern in (("before", before), ("after", after)):
        docs = [load(path) for path in files([pattern])]
        for doc in docs:
            if verdict(doc) != "passed":
                raise TableError(f"memory-compare: a {side} run did not pass")
        runs[side] = [figures(doc) for doc in docs]
    rows = []
    for label, key, kind, text in shown:
        b = statistics.median(fig[key] for fig in runs["before"])
        a = statistics.median(fig[key] for fig in runs["after"])
        ratio = a / b
        if most[kind] is not None and ratio > most[kind]:
            raise TableError(f"memory-compare: {label}: after / before "
                             f"{ratio:.2f}x, above the target of "
                             f"{most[kind]}x")
        rows.append([label, text(b), text(a), num(ratio, 2) + "x"])
    n = f"{len(runs['before'])} and {len(runs['after'])}"
    return table(["figure (median of " + n + " runs)", "before", "after",
                  "after / before"], rows)


def karpenter(*paths):
    ours = {}
    for path in paths:
        full = os.path.join(RESULTS, path)
        for n, (ms, c) in benchmarks(full, "PlanScaleUpKarpenterMix").items():
            ours[int(re.search(r"pods:(\d+)", n).group(1))] = (ms, c)
    rows = []
    for pods in sorted(set(ours) | set(KARPENTER_MIX)):
        theirs = KARPENTER_MIX.get(pods)
        mine = ours.get(pods)
        ratio = ""
        if mine and theirs:
            ratio = num(mine[0] / theirs[0], 1) + "x"
        rows.append([num(pods),
                     num(mine[0]) + " ms" if mine else "not run",
                     num(mine[1]["new_nodes"]) if mine else "",
                     num(theirs[0]) + " ms" if theirs else "",
                     num(theirs[1]) if theirs else "", ratio])
    return table(["pods", "propscaler", "nodes", "Karpenter (published)",
                  "nodes", "propscaler / Karpenter"], rows) + [
        "", "Raw: " + ", ".join(f"`{p}`" for p in paths) + "."]


def karpenter_claims(path, regex="PlanClaimsKarpenterMix"):
    full = os.path.join(RESULTS, path)
    doc = load(full)
    commit = doc.get("context", {}).get("propscaler_commit")
    if not commit:
        raise TableError(f"{path}: no context.propscaler_commit: the file "
                         "does not name the binary that made it")
    rows = []
    for n, (ms, c) in sorted(benchmarks(full, regex).items(),
                             key=lambda kv: int(re.search(
                                 r"pods:(\d+)", kv[0]).group(1))):
        pods = int(re.search(r"pods:(\d+)", n).group(1))
        best = KARPENTER_BEST.get(pods)
        rows.append([num(pods), num(ms, 1) + " ms", num(c["new_nodes"]),
                     num(c["lower_bound"]),
                     num(best) + " ms" if best else "",
                     num(pods / 5) if pods >= 1000 else "",
                     num(ms / best, 3) + "x" if best else ""])
    return table(["pods", "propscaler", "nodes", "lower bound",
                  "Karpenter (best published)", "its nodes",
                  "propscaler / Karpenter"], rows) + [
        "", f"Raw: {name(full)} (binary `{commit}`)."]


def image(*patterns):
    rows = []
    for path in files(patterns):
        doc = load(path)
        fig = figures(doc)
        rows.append([
            num(fig["image_bytes"] / 1e6, 1) + " MB",
            num(fig["binary_stripped_bytes"] / 1e6, 2) + " MB",
            f"{num(fig['libraries_bytes'] / 1e6, 1)} MB "
            f"({num(fig['library_count'])} files)",
            num(fig["ceiling_bytes"] / 1e6, 1) + " MB",
            "`" + commit_of(doc)[:7] + "`", verdict(doc), name(path)])
    return table(["image (uncompressed)", "binary, stripped",
                  "shared libraries and loader", "ceiling", "commit",
                  "verdict", "raw"], rows)


KINDS = {"runonce": runonce, "soak": soak, "memory": memory,
         "podcount": podcount, "scale": scale, "gbench": gbench,
         "compare": compare, "memory-compare": memory_compare,
         "karpenter": karpenter,
         "karpenter-claims": karpenter_claims, "image": image}


def generate(text, document):
    out, lines, i = [], text.split("\n"), 0
    while i < len(lines):
        line = lines[i]
        out.append(line)
        match = MARKER.match(line)
        i += 1
        if not match:
            continue
        kind, *args = match.group(1).split()
        if kind not in KINDS:
            raise TableError(f"{document}: unknown table kind {kind!r}")
        end = i
        while end < len(lines) and lines[end] != END:
            end += 1
        if end == len(lines):
            raise TableError(f"{document}: {line} has no {END} line")
        out += KINDS[kind](*args)
        out.append(END)
        i = end + 1
    return "\n".join(out)


def main():
    check = "--check" in sys.argv[1:]
    stale = []
    for document in DOCUMENTS:
        with open(document) as f:
            text = f.read()
        try:
            new = generate(text, os.path.basename(document))
        except TableError as e:
            print(f"tables.py: {e}", file=sys.stderr)
            return 1
        if new == text:
            continue
        if check:
            stale.append(os.path.basename(document))
            continue
        with open(document, "w") as f:
            f.write(new)
    if stale:
        print("tables.py: stale tables in " + ", ".join(stale) +
              ": run bench/tables.py", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
