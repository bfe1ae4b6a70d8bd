#!/usr/bin/python3
"""The regression gate against real gs-bench runs (ctest: dashboard.gate_*).

  gate_test.py runs    --gs-bench BIN --dir DIR   DIR/baseline.json, same.json and planted.json
  gate_test.py same    --dir DIR                  the gate on baseline vs same: must pass
  gate_test.py planted --dir DIR                  the gate on baseline vs planted (one kernel run
                                                  twice per iteration): must fail on it alone

Two suite cases on one thread, 9 repetitions (compare.py's recommended minimum). The three
runs are interleaved: each repetition is its own gs-bench process, round by round (baseline,
same, planted), so a machine that gets busier or quieter during the test (other builds on a
shared host) slows all three alike instead of one run as a whole; each process also times its
own copy baseline, so that measurement's noise is spread over the repetitions too. The planted
run is a real 2x slowdown of one kernel: gs-bench's hidden GS_BENCH_PLANT_SLOWDOWN.
"""

import argparse
import contextlib
import io
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import gs_gate  # noqa: E402

PLANTED_CASE = "gather_nd/f32/elements/q2/i64"
CONTROL_CASE = "gather_elements/i8/axis1/i64"
BENCHMARKS = ["%s/cpu/unchecked/threads:1" % c for c in (PLANTED_CASE, CONTROL_CASE)]
REPETITIONS = 9
RUNS = {"baseline": None, "same": None, "planted": PLANTED_CASE}  # run: case slowed down


def run_gs_bench(gs_bench, out, plant=None):
    """One repetition: a gs-bench process on the two benchmarks; returns its JSON."""
    env = dict(os.environ)
    env.pop("GS_BENCH_PLANT_SLOWDOWN", None)
    if plant:
        env["GS_BENCH_PLANT_SLOWDOWN"] = plant
    command = [gs_bench, "--benchmark_min_time=0.1",
               "--benchmark_filter=^(%s)/" % "|".join(BENCHMARKS),
               "--benchmark_out=" + out, "--benchmark_out_format=json"]
    subprocess.run(command, env=env, check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    with open(out) as f:
        return json.load(f)


def interleaved_runs(gs_bench, directory):
    """Writes DIR/<run>.json: REPETITIONS rows per benchmark, one per round."""
    merged = {run: None for run in RUNS}
    scratch = os.path.join(directory, "repetition.json")
    for round_index in range(REPETITIONS):
        for run, plant in RUNS.items():
            doc = run_gs_bench(gs_bench, scratch, plant)
            for row in doc["benchmarks"]:
                row["repetition_index"] = round_index
                row["repetitions"] = REPETITIONS
            if merged[run] is None:
                merged[run] = doc
            else:
                merged[run]["benchmarks"] += doc["benchmarks"]
    os.remove(scratch)
    for run, doc in merged.items():
        with open(os.path.join(directory, run + ".json"), "w") as f:
            json.dump(doc, f, indent=1)
    print("gate_test: %d rounds of %s written to %s" % (REPETITIONS, ", ".join(RUNS), directory))


def judge(baseline, contender):
    """Runs the gate as its command line does; returns (exit status, its report)."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        status = gs_gate.main([baseline, contender])
    print(out.getvalue())
    return status, out.getvalue()


def parse_step(make_runs):
    """The command line of this test and count_gate_test.py: runs the "runs" step with
    make_runs(gs_bench, directory) and returns None, else returns the arguments."""
    parser = argparse.ArgumentParser()
    parser.add_argument("step", choices=["runs", "same", "planted"])
    parser.add_argument("--gs-bench")
    parser.add_argument("--dir", required=True)
    args = parser.parse_args()
    if args.step != "runs":
        return args
    if not args.gs_bench:
        parser.error("runs needs --gs-bench")
    os.makedirs(args.dir, exist_ok=True)
    make_runs(args.gs_bench, args.dir)
    return None


def main():
    args = parse_step(interleaved_runs)
    if args is None:
        return 0
    status, report = judge(os.path.join(args.dir, "baseline.json"),
                           os.path.join(args.dir, args.step + ".json"))
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
