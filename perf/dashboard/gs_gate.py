#!/usr/bin/python3
"""gs-gate: the regression gate. Compares a gs-bench run with a baseline run.

Both runs are Google Benchmark JSON with repetitions (--benchmark_repetitions=N, N >= 4,
9 or more recommended). Each repetition's time is replaced by its copy-normalised time,
1 / copy_ratio (gs's time over a plain copy's time for the same bytes and threads, measured in
the same run), so a slower or busier machine is not a regression. Google Benchmark's own
comparison tool (compare.py's gbench package, Debian's libbenchmark-tools) then compares the
two runs benchmark by benchmark with its Mann-Whitney U test.

A benchmark regresses when its median normalised time grew by more than --tolerance AND the
U test calls the difference significant (p < --alpha). A CPU row that the two runs timed two
ways (one before 2026-12-02's blocks, the other after: retimed) is never a regression.

gs-counts runs (gs_counts.py: instructions and simulated cache misses per call under
callgrind) are gated on the deterministic metric instead: one run of each suffices, since the
same build gives the same counts; a benchmark regresses when its --metric (instructions per
call by default) grew by more than --tolerance (default 2%). No statistics: the counts do not
move between runs of the same build.

Both runs must come from the same machine (cpu model, cores, kernel set, last-level cache:
history.machine_of); --allow-other-machine compares runs of two machines anyway.

Exit status: 0 no regression, 1 at least one regression, 2 bad input (unreadable file, no
common benchmark, too few repetitions, runs of two machines, compare.py not found).
"""

import argparse
import json
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import history  # noqa: E402

DEFAULT_TOOLS = "/usr/share/benchmark"  # where libbenchmark-tools puts compare.py and gbench/
# The smallest sample for which a two-sided Mann-Whitney U test can reach p < 0.05
# (with 3 and 3 the exact p is never below 0.1).
MIN_REPETITIONS = 4
# compare.py prints integers; normalised times (about 1 to 100) are shown in thousandths.
SCALE = 1000.0
WALL_TOLERANCE = 0.25
COUNT_TOLERANCE = 0.02
COUNT_METRICS = {"instructions": "instructions_per_call", "ll_misses": "ll_misses_per_call",
                 "est_cycles": "est_cycles_per_call"}


class GateError(Exception):
    pass


def import_gbench(tools_dir):
    if not os.path.isfile(os.path.join(tools_dir, "compare.py")):
        raise GateError("compare.py not found in %s (Debian package libbenchmark-tools; "
                        "or set GS_BENCHMARK_TOOLS)" % tools_dir)
    sys.path.insert(0, tools_dir)
    from gbench import report  # pylint: disable=import-outside-toplevel
    return report


def load(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        raise GateError("%s: %s" % (path, e)) from None


def is_counts(doc):
    """Whether doc is a gs-counts run (deterministic counts) rather than a timed one."""
    return any("instructions_per_call" in r for r in history.iteration_rows(doc))


def check_machines(baseline, contender, allow_other_machine):
    """Refuses (GateError) to compare runs of two machines unless allowed; returns a note."""
    old = history.machine_of(baseline.get("context", {}))
    new = history.machine_of(contender.get("context", {}))
    if history.same_machine(baseline.get("context", {}), contender.get("context", {})):
        return "machine: %s" % history.machine_label(new)
    if not allow_other_machine:
        raise GateError("the runs come from two machines: baseline on %s, contender on %s "
                        "(a change of host is not a regression; --allow-other-machine compares "
                        "them anyway)" % (history.machine_label(old), history.machine_label(new)))
    return "machines differ (--allow-other-machine): baseline %s, contender %s" % (
        history.machine_label(old), history.machine_label(new))


def count_verdicts(baseline, contender, counter, tolerance):
    """[(name, old, new, change, verdict)] of the benchmarks both count runs have."""
    def values(doc):
        return {r.get("run_name", r["name"]): r[counter] for r in history.iteration_rows(doc)
                if counter in r}
    old, new = values(baseline), values(contender)
    rows = []
    for name in [n for n in new if n in old]:
        change = new[name] / old[name] - 1 if old[name] else 0.0
        verdict = ("REGRESSION" if change > tolerance
                   else "improvement" if change < -tolerance else "ok")
        rows.append((name, old[name], new[name], change, verdict))
    return rows


def gate_counts(baseline, contender, metric, tolerance, out=None):
    """The gate on the deterministic metric; prints the verdicts, returns the regressions."""
    out = out or sys.stdout
    counter = COUNT_METRICS[metric]
    rows = count_verdicts(baseline, contender, counter, tolerance)
    if not rows:
        raise GateError("the two count runs have no benchmark with %s in common" % counter)
    print("verdicts on %s (deterministic: regression when it grew by more than %.1f%%):"
          % (counter, 100 * tolerance), file=out)
    for name, old, new, change, verdict in rows:
        print("%-11s %s: %+.2f%% %s (%.0f -> %.0f)" % (verdict, name, 100 * change, counter, old, new),
              file=out)
    regressions = [r[0] for r in rows if r[4] == "REGRESSION"]
    print("\n%d regression(s) in %d benchmark(s) compared" % (len(regressions), len(rows)), file=out)
    return regressions


def ratio_keys(baseline, contender):
    """The counter each run is judged on: copy_ratio, except across 2026-11-26's change of copy
    baseline (a run without memcpy_ratio measured copy_ratio over memcpy alone): then the newer
    run's memcpy_ratio, the same measure as the older run's copy_ratio."""
    def new(doc):
        return any("memcpy_ratio" in r for r in history.iteration_rows(doc))
    if new(baseline) == new(contender):
        return "copy_ratio", "copy_ratio"
    return ("copy_ratio", "memcpy_ratio") if new(contender) else ("memcpy_ratio", "copy_ratio")


def without_cached_copy(baseline, contender):
    """The two runs on one measure across 2026-11-28's GPU copy from a gather's smaller Input
    (copy_ratio_cached): where only one run has it, that run's rows with it are judged on the
    faster of the two copies the other run timed, copy_ratio over CopyBufferRegion and over the
    copy kernel (the smaller of copy_ratio_region and copy_ratio_kernel)."""
    def has(doc):
        return any("copy_ratio_cached" in r for r in history.iteration_rows(doc))

    def older(doc):
        rows = [dict(b, copy_ratio=min(b["copy_ratio_region"], b["copy_ratio_kernel"]))
                if "copy_ratio_cached" in b else b for b in doc.get("benchmarks", [])]
        return dict(doc, benchmarks=rows)
    if has(baseline) == has(contender):
        return baseline, contender
    return (older(baseline), contender) if has(baseline) else (baseline, older(contender))


def timed_in_blocks(doc):
    """Whether a run's CPU rows were timed in blocks, each side after itself (gs-bench and
    gs-limits from 2026-12-02: context copy_timing "blocks"). Before, each call was followed by
    one run of each copy way and paid for their dirty lines (perf/results/2026-12-02-blocks.md)."""
    return doc.get("context", {}).get("copy_timing") == "blocks"


def retimed(baseline, contender, name):
    """Whether the two runs timed `name` two ways: a CPU row across 2026-12-02's blocks. A
    change beyond the tolerance there is the timing's, and its verdict is "retimed"."""
    return "/d3d12/" not in name and timed_in_blocks(baseline) != timed_in_blocks(contender)


def band_verdicts(baseline, contender, tolerance):
    """The report's verdict for timed runs too short for the U test (fewer than
    MIN_REPETITIONS repetitions): [(name, old, new, change, verdict)] on the normalised time
    1 / copy_ratio; a regression needs a change beyond tolerance AND the two runs' noise bands
    (copy_ratio_min..copy_ratio_max) apart, else a change beyond tolerance is "noisy"."""
    def rows(doc, key):
        low, high = (key + "_min", key + "_max") if key == "copy_ratio" else (key, key)
        grouped = {}
        for r in history.iteration_rows(doc):
            if r.get(key):
                grouped.setdefault(r.get("run_name", r["name"]), []).append(r)
        return {name: (statistics.median(x[key] for x in rs),
                       min(x.get(low, x[key]) for x in rs),
                       max(x.get(high, x[key]) for x in rs))
                for name, rs in grouped.items()}
    baseline, contender = without_cached_copy(baseline, contender)
    old_key, new_key = ratio_keys(baseline, contender)
    old, new = rows(baseline, old_key), rows(contender, new_key)
    result = []
    for name in [n for n in new if n in old]:
        (o, o_low, o_high), (n, n_low, n_high) = old[name], new[name]
        change = o / n - 1  # of the normalised time, 1 / copy_ratio
        apart = n_high < o_low or n_low > o_high
        if abs(change) <= tolerance:
            verdict = "ok"
        elif retimed(baseline, contender, name):
            verdict = "retimed"
        elif not apart:
            verdict = "noisy"
        else:
            verdict = "REGRESSION" if change > 0 else "improvement"
        result.append((name, 1 / o, 1 / n, change, verdict))
    return result


def normalised(doc, key="copy_ratio"):
    """compare.py's input: one row per repetition, time = SCALE / the row's `key` ratio."""
    rows = []
    for row in history.iteration_rows(doc):
        ratio = row.get(key)
        if not ratio or ratio <= 0:
            continue  # no copy baseline (e.g. a backend that does not measure one): not gated
        name = row.get("run_name", row["name"])
        value = SCALE / ratio
        rows.append({"name": name, "run_name": name, "run_type": "iteration",
                     "repetition_index": row.get("repetition_index", 0),
                     "family_index": row.get("family_index", 0),
                     "per_family_instance_index": row.get("per_family_instance_index", 0),
                     "real_time": value, "cpu_time": value, "time_unit": "ns"})
    return {"context": doc.get("context", {}), "benchmarks": rows}


def gate(baseline, contender, alpha, tolerance, report, out=None):
    """Prints compare.py's report and the verdicts; returns the regressed benchmark names."""
    out = out or sys.stdout
    baseline, contender = without_cached_copy(baseline, contender)
    old_key, new_key = ratio_keys(baseline, contender)
    if old_key != new_key:
        print("one run predates the fastest-copy baseline: judged on %s (baseline) against %s "
              "(contender), both over memcpy" % (old_key, new_key), file=out)
    old, new = normalised(baseline, old_key), normalised(contender, new_key)
    diff = report.get_difference_report(old, new, utest=True)
    diff = [d for d in diff if d["name"] != "OVERALL_GEOMEAN"]
    if not diff:
        raise GateError("the two runs have no benchmark with a copy_ratio in common")
    for d in diff:
        counts = [len(d["measurements"]), d["utest"].get("nr_of_repetitions", 0),
                  d["utest"].get("nr_of_repetitions_other", 0)]
        if min(counts) < MIN_REPETITIONS:
            raise GateError("%s: %d repetitions in one of the runs; the U test needs at least %d "
                            "(run gs-bench with --benchmark_repetitions=9)"
                            % (d["name"], min(counts), MIN_REPETITIONS))

    print("compare.py on copy-normalised times (1000 / copy_ratio; lower is better):", file=out)
    for line in report.print_difference_report(diff, include_aggregates_only=False, utest=True,
                                               utest_alpha=alpha, use_color=False):
        print(line, file=out)

    def times(doc, name):
        return [r["real_time"] for r in doc["benchmarks"] if r["name"] == name]

    print("\nverdicts (regression: median change > %+.0f%% and U-test p < %g):"
          % (100 * tolerance, alpha), file=out)
    if any(retimed(baseline, contender, d["name"]) for d in diff):
        print("the runs timed their CPU rows two ways (%s in blocks, the other call by call): "
              "there a significant change beyond the tolerance is \"retimed\", not a regression"
              % ("the contender" if timed_in_blocks(contender) else "the baseline"), file=out)
    regressions = []
    for d in diff:
        name = d["name"]
        change = statistics.median(times(new, name)) / statistics.median(times(old, name)) - 1
        pvalue = d["utest"]["time_pvalue"]
        significant = pvalue < alpha
        if significant and abs(change) > tolerance and retimed(baseline, contender, name):
            verdict = "retimed"
        elif significant and change > tolerance:
            verdict = "REGRESSION"
            regressions.append(name)
        elif significant and change < -tolerance:
            verdict = "improvement"
        else:
            verdict = "ok"
        print("%-11s %s: %+.1f%% normalised time, p=%.4f" % (verdict, name, 100 * change, pvalue),
              file=out)
    only_old = sorted({r["name"] for r in old["benchmarks"]} - {r["name"] for r in new["benchmarks"]})
    only_new = sorted({r["name"] for r in new["benchmarks"]} - {r["name"] for r in old["benchmarks"]})
    for name in only_old:
        print("missing     %s: in the baseline only" % name, file=out)
    for name in only_new:
        print("new         %s: not in the baseline" % name, file=out)
    print("\n%d regression(s) in %d benchmark(s) compared" % (len(regressions), len(diff)), file=out)
    return regressions


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("baseline", help="baseline run (Google Benchmark JSON, with repetitions; "
                                         "or a gs-counts run)")
    parser.add_argument("contender", help="the run to judge (same format)")
    parser.add_argument("--alpha", type=float, default=0.05,
                        help="significance level of the U test (default 0.05)")
    parser.add_argument("--tolerance", type=float, default=None,
                        help="largest growth that is not a regression, as a fraction (default "
                             "%g: %d%%%% of the median normalised time; for count runs %g)"
                             % (WALL_TOLERANCE, 100 * WALL_TOLERANCE, COUNT_TOLERANCE))
    parser.add_argument("--metric", choices=sorted(COUNT_METRICS), default="instructions",
                        help="count runs: the counter gated (default instructions per call)")
    parser.add_argument("--allow-other-machine", action="store_true",
                        help="compare runs from two machines (refused by default)")
    parser.add_argument("--tools", default=os.environ.get("GS_BENCHMARK_TOOLS", DEFAULT_TOOLS),
                        help="folder holding compare.py and gbench/ (default %s)" % DEFAULT_TOOLS)
    args = parser.parse_args(argv)
    try:
        baseline, contender = load(args.baseline), load(args.contender)
        if is_counts(baseline) != is_counts(contender):
            raise GateError("one run is a gs-counts run and the other a timed run: nothing to compare")
        print(check_machines(baseline, contender, args.allow_other_machine))
        if is_counts(baseline):
            tolerance = COUNT_TOLERANCE if args.tolerance is None else args.tolerance
            regressions = gate_counts(baseline, contender, args.metric, tolerance)
        else:
            tolerance = WALL_TOLERANCE if args.tolerance is None else args.tolerance
            report = import_gbench(args.tools)
            regressions = gate(baseline, contender, args.alpha, tolerance, report)
    except GateError as e:
        print("gs-gate: %s" % e, file=sys.stderr)
        return 2
    return 1 if regressions else 0


if __name__ == "__main__":
    sys.exit(main())
