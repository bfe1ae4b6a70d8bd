#!/usr/bin/python3
"""The regression gate against real gs-bench runs (ctest: dashboard.gate_*).

  gate_test.py baseline --gs-bench BIN --dir DIR   a baseline run into DIR/baseline.json
  gate_test.py same     --gs-bench BIN --dir DIR   a second run of the same build: must pass
  gate_test.py planted  --gs-bench BIN --dir DIR   a run with one kernel run twice per
                                                   iteration: must fail on that kernel only

Two suite cases on one thread, 9 repetitions each (compare.py's recommended minimum): a few
seconds a run. Both are bound by random reads rather than by streaming memory bandwidth, so they
vary less with other processes' memory traffic, and both move over 100 MB a call, so the copy
baseline that normalises them is timed over tens of milliseconds, not a blip.
"""

import argparse
import io
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import gs_gate  # noqa: E402

PLANTED_CASE = "gather_nd/f32/elements/q2/i64"
CONTROL_CASE = "gather_elements/i8/axis1/i64"
BENCHMARKS = ["%s/cpu/unchecked/threads:1" % c for c in (PLANTED_CASE, CONTROL_CASE)]


def run_gs_bench(gs_bench, out, plant=None):
    env = dict(os.environ)
    env.pop("GS_BENCH_PLANT_SLOWDOWN", None)
    if plant:
        env["GS_BENCH_PLANT_SLOWDOWN"] = plant
    # An explicit min time rather than --short: the copy baseline then takes the median of 7.
    command = [gs_bench, "--benchmark_min_time=0.1", "--benchmark_repetitions=9",
               "--benchmark_filter=^(%s)/" % "|".join(BENCHMARKS),
               "--benchmark_out=" + out, "--benchmark_out_format=json"]
    print("gate_test: %s%s" % ("GS_BENCH_PLANT_SLOWDOWN=%s " % plant if plant else "",
                               " ".join(command)), flush=True)
    subprocess.run(command, env=env, check=True, stdout=subprocess.DEVNULL)


def judge(baseline, contender):
    """Runs the gate as its command line does; returns (exit status, its report)."""
    out = io.StringIO()
    old_stdout, sys.stdout = sys.stdout, out
    try:
        status = gs_gate.main([baseline, contender])
    finally:
        sys.stdout = old_stdout
    print(out.getvalue())
    return status, out.getvalue()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("step", choices=["baseline", "same", "planted"])
    parser.add_argument("--gs-bench", required=True)
    parser.add_argument("--dir", required=True)
    args = parser.parse_args()
    os.makedirs(args.dir, exist_ok=True)
    baseline = os.path.join(args.dir, "baseline.json")
    if args.step == "baseline":
        run_gs_bench(args.gs_bench, baseline)
        return 0

    contender = os.path.join(args.dir, args.step + ".json")
    run_gs_bench(args.gs_bench, contender, PLANTED_CASE if args.step == "planted" else None)
    status, report = judge(baseline, contender)
    verdicts = {line.split()[1].rstrip(":"): line.split()[0] for line in report.splitlines()
                if line.split() and line.split()[0] in ("ok", "REGRESSION", "improvement")}
    failures = []
    if sorted(verdicts) != sorted(BENCHMARKS):
        failures.append("the gate judged %s, expected %s" % (sorted(verdicts), sorted(BENCHMARKS)))
    if args.step == "same":
        if status != 0:
            failures.append("two runs of the same build: the gate exited %d, expected 0" % status)
        failures += ["same build, yet %s: %s" % (v, b) for b, v in verdicts.items() if v == "REGRESSION"]
    else:
        if status != 1:
            failures.append("planted 2x slowdown: the gate exited %d, expected 1" % status)
        if verdicts.get(BENCHMARKS[0]) != "REGRESSION":
            failures.append("the planted slowdown of %s was not flagged" % BENCHMARKS[0])
        if verdicts.get(BENCHMARKS[1]) == "REGRESSION":
            failures.append("%s was flagged, but only %s was slowed" % (BENCHMARKS[1], PLANTED_CASE))
    for f in failures:
        print("gate_test: FAIL: " + f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
