#!/usr/bin/python3
"""gs-gate: the regression gate. Compares a gs-bench run with a baseline run.

Both runs are Google Benchmark JSON with repetitions (--benchmark_repetitions=N, N >= 4,
9 or more recommended). Each repetition's time is replaced by its copy-normalised time,
1 / copy_ratio (gs's time over a plain copy's time for the same bytes and threads, measured in
the same run), so a slower or busier machine is not a regression. Google Benchmark's own
comparison tool (compare.py's gbench package, Debian's libbenchmark-tools) then compares the
two runs benchmark by benchmark with its Mann-Whitney U test.

A benchmark regresses when its median normalised time grew by more than --tolerance AND the
U test calls the difference significant (p < --alpha). Exit status: 0 no regression,
1 at least one regression, 2 bad input (unreadable file, no common benchmark, too few
repetitions, compare.py not found).
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


def normalised(doc):
    """compare.py's input: one row per repetition, time = SCALE / copy_ratio."""
    rows = []
    for row in history.iteration_rows(doc):
        ratio = row.get("copy_ratio")
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
    old, new = normalised(baseline), normalised(contender)
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
    regressions = []
    for d in diff:
        name = d["name"]
        change = statistics.median(times(new, name)) / statistics.median(times(old, name)) - 1
        pvalue = d["utest"]["time_pvalue"]
        significant = pvalue < alpha
        if significant and change > tolerance:
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
    parser.add_argument("baseline", help="baseline run (Google Benchmark JSON, with repetitions)")
    parser.add_argument("contender", help="the run to judge (same format)")
    parser.add_argument("--alpha", type=float, default=0.05,
                        help="significance level of the U test (default 0.05)")
    parser.add_argument("--tolerance", type=float, default=0.25,
                        help="largest growth of the median normalised time that is not a "
                             "regression, as a fraction (default 0.25: 25%%)")
    parser.add_argument("--tools", default=os.environ.get("GS_BENCHMARK_TOOLS", DEFAULT_TOOLS),
                        help="folder holding compare.py and gbench/ (default %s)" % DEFAULT_TOOLS)
    args = parser.parse_args(argv)
    try:
        report = import_gbench(args.tools)
        regressions = gate(load(args.baseline), load(args.contender), args.alpha, args.tolerance,
                           report)
    except GateError as e:
        print("gs-gate: %s" % e, file=sys.stderr)
        return 2
    return 1 if regressions else 0


if __name__ == "__main__":
    sys.exit(main())
