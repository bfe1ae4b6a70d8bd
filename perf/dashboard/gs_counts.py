#!/usr/bin/python3
"""gs-counts: the deterministic metric. Instructions and simulated cache misses per call of
gs-bench's benchmarks, counted by valgrind's callgrind on the count suite (count_suite.json).

gs-bench's count mode (--valgrind-calls=N) makes N calls per benchmark between callgrind
client requests (a warm-up call outside them); callgrind dumps each benchmark's counts under
its name and this script divides them by N. The caches are simulated with a fixed geometry
(CACHES below), not the host's, so the counts depend on the build and the suite only: the same
build gives the same numbers on a busy or a quiet machine (perf/README.md, "The
deterministic metric").

Output: Google Benchmark-shaped JSON (context, one iteration row per benchmark) with the
counters instructions_per_call, ll_misses_per_call, d1_misses_per_call and
est_cycles_per_call; gs_gate.py gates it, the history keeps it as <when>-<host>-gs-counts.json.
"""

import argparse
import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile

DEFAULT_SUITE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "count_suite.json")
# The simulated caches: L1s of 32 KiB, 8-way, and a 2 MiB 16-way last level (a core's share of
# a server's LLC): small enough that the count suite's tensors (4 to 16 MiB) stream through it.
CACHES = ["--I1=32768,8,64", "--D1=32768,8,64", "--LL=2097152,16,64"]
COUNTERS = ("instructions_per_call", "ll_misses_per_call", "d1_misses_per_call",
            "est_cycles_per_call")


class CountError(Exception):
    pass


def read_dump(path):
    """(benchmark name, {event: count}) of one callgrind dump triggered by a client request."""
    name, events, summary = None, None, None
    with open(path) as f:
        for line in f:
            if line.startswith("desc: Trigger: Client Request: "):
                name = line[len("desc: Trigger: Client Request: "):].strip()
            elif line.startswith("events: "):
                events = line.split()[1:]
            elif line.startswith("summary: "):
                summary = [int(v) for v in line.split()[1:]]
    if name is None or events is None or summary is None:
        return None, None  # the final dump at exit, or not a dump of ours
    summary += [0] * (len(events) - len(summary))  # callgrind leaves trailing zeros out
    return name, dict(zip(events, summary))


def per_call(events, calls):
    """The counters of one benchmark from callgrind's events (Ir, I1mr, D1mr, D1mw, ILmr, ...)."""
    d1 = events["I1mr"] + events["D1mr"] + events["D1mw"]
    ll = events["ILmr"] + events["DLmr"] + events["DLmw"]
    return {"instructions_per_call": events["Ir"] / calls,
            "ll_misses_per_call": ll / calls,
            "d1_misses_per_call": d1 / calls,
            # callgrind's documented cycle estimate: Ir + 10 L1 misses + 100 LL misses
            "est_cycles_per_call": (events["Ir"] + 10 * d1 + 100 * ll) / calls}


def count(gs_bench, suite, calls, threads, bench_filter, valgrind="valgrind"):
    """Runs gs-bench's count mode under callgrind; returns the JSON document."""
    if shutil.which(valgrind) is None:
        raise CountError("%s not found (Debian package valgrind)" % valgrind)
    scratch = tempfile.mkdtemp(prefix="gs-counts-")
    try:
        command = [valgrind, "--tool=callgrind", "--cache-sim=yes", "--collect-atstart=no",
                   "--callgrind-out-file=" + os.path.join(scratch, "callgrind.out")] + CACHES + [
                   gs_bench, "--suite=" + suite, "--threads=" + threads,
                   "--valgrind-calls=%d" % calls]
        if bench_filter:
            command.append("--benchmark_filter=" + bench_filter)
        done = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            doc = json.loads(done.stdout)
        except ValueError:
            raise CountError("gs-bench's count mode printed no JSON (exit %d): %s"
                             % (done.returncode, done.stderr[-2000:])) from None
        counts = {}
        for path in glob.glob(os.path.join(scratch, "callgrind.out*")):
            name, events = read_dump(path)
            if name is not None:
                counts[name] = events
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    rows = []
    for index, row in enumerate(doc["benchmarks"]):
        name = row["name"]
        out = {"name": name, "run_name": name, "run_type": "iteration", "repetition_index": 0,
               "family_index": index, "per_family_instance_index": 0, "iterations": calls}
        if row.get("error_occurred"):
            out.update(error_occurred=True, error_message=row.get("error_message", ""))
        elif name not in counts:
            out.update(error_occurred=True, error_message="callgrind dumped no counts for it")
        else:
            out.update(per_call(counts[name], calls))
        rows.append(out)
    # The machine is the host's, as gs-bench sees it natively (under valgrind the CPU reports
    # valgrind's features): the count mode with no benchmark selected prints only the context.
    native = subprocess.run([gs_bench, "--suite=" + suite, "--valgrind-calls=1",
                             "--benchmark_filter=^$"], stdout=subprocess.PIPE, text=True)
    for key in ("kernel_set", "llc_bytes"):
        doc["context"]["valgrind_" + key] = doc["context"].get(key)
    doc["context"].update(json.loads(native.stdout)["context"])
    doc["context"]["gs_bench_mode"] = "valgrind"
    doc["context"]["calls_per_benchmark"] = calls
    doc["context"]["valgrind_caches"] = " ".join(CACHES)
    doc["context"]["valgrind_version"] = subprocess.run(
        [valgrind, "--version"], stdout=subprocess.PIPE, text=True).stdout.strip()
    doc["benchmarks"] = rows
    if done.returncode != 0 or not rows or any(r.get("error_occurred") for r in rows):
        bad = [r["name"] + ": " + r.get("error_message", "") for r in rows if r.get("error_occurred")]
        raise CountError("gs-bench's count mode failed (exit %d): %s"
                         % (done.returncode, "; ".join(bad) or done.stderr[-2000:]))
    return doc


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--gs-bench", required=True, help="the gs-bench executable")
    parser.add_argument("--suite", default=DEFAULT_SUITE, help="default: count_suite.json beside")
    parser.add_argument("--calls", type=int, default=5, help="calls per benchmark (default 5)")
    parser.add_argument("--threads", default="1",
                        help="thread counts (default 1: callgrind runs threads one at a time, "
                             "and a pool's idle spinning would count)")
    parser.add_argument("--filter", default="", help="a regex on the benchmark names")
    parser.add_argument("--out", required=True, help="the JSON file to write")
    args = parser.parse_args(argv)
    try:
        doc = count(args.gs_bench, args.suite, args.calls, args.threads, args.filter)
    except CountError as e:
        print("gs-counts: %s" % e, file=sys.stderr)
        return 2
    with open(args.out, "w") as f:
        json.dump(doc, f, indent=1)
    for row in doc["benchmarks"]:
        print("%-60s %14.0f instructions %10.0f LL misses per call"
              % (row["name"], row["instructions_per_call"], row["ll_misses_per_call"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
