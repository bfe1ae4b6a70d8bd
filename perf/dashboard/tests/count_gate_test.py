#!/usr/bin/python3
"""The gate on the deterministic metric against real count runs (ctest: dashboard.count_gate_*).

  count_gate_test.py runs    --gs-bench BIN --dir DIR  DIR/baseline.json, same-1..N.json and
                                                       planted.json (gs_counts.py)
  count_gate_test.py same    --dir DIR                 the gate on baseline against each same-N:
                                                       must flag nothing
  count_gate_test.py planted --dir DIR                 the gate on baseline against planted
                                                       (one benchmark made 20% slower): must
                                                       flag that benchmark and no other

Every run counts the whole count suite (count_suite.json) on one thread under callgrind, two
runs at a time (the machine's two cores). The planted run is a measured 20% slowdown of one
benchmark: gs-bench's hidden GS_BENCH_PLANT_SLOWDOWN=<benchmark>@20 makes one call in five
twice, and 5 calls are counted, so that benchmark's instructions per call grow by exactly 20%
of the kernel's own.
"""

import concurrent.futures
import contextlib
import io
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
sys.path.insert(0, HERE)
import gate_test  # noqa: E402  (the command line both gate tests share)
import gs_gate  # noqa: E402

PLANTED = "gather_nd/f32/elements/q2/i64/cpu/unchecked/threads:1"
SAME_RUNS = 2  # pairs of same-build runs judged: the counts are deterministic, so more prove nothing more
               # (perf/results/2026-11-29-ci-time.md)
CALLS = 5


def count_run(gs_bench, out, plant=None):
    env = dict(os.environ)
    env.pop("GS_BENCH_PLANT_SLOWDOWN", None)
    if plant:
        env["GS_BENCH_PLANT_SLOWDOWN"] = plant
    subprocess.run([sys.executable, os.path.join(HERE, "..", "gs_counts.py"),
                    "--gs-bench", gs_bench, "--calls", str(CALLS), "--out", out],
                   env=env, check=True, stdout=subprocess.DEVNULL)


def runs(gs_bench, directory):
    jobs = [("baseline", None), ("planted", PLANTED + "@20")]
    jobs += [("same-%d" % i, None) for i in range(1, SAME_RUNS + 1)]
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        futures = [pool.submit(count_run, gs_bench, os.path.join(directory, name + ".json"), plant)
                   for name, plant in jobs]
        for f in futures:
            f.result()
    print("count_gate_test: %s written to %s" % (", ".join(n for n, _ in jobs), directory))


def judge(baseline, contender):
    """The gate as its command line runs it: (exit status, {benchmark: verdict})."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        status = gs_gate.main([baseline, contender])
    print(out.getvalue())
    verdicts = dict((m.group(2), m.group(1)) for m in
                    re.finditer(r"^(ok|REGRESSION|improvement) +(\S+):", out.getvalue(), re.M))
    return status, verdicts


def main():
    args = gate_test.parse_step(runs)
    if args is None:
        return 0
    baseline = os.path.join(args.dir, "baseline.json")
    failures = []
    if args.step == "same":
        for i in range(1, SAME_RUNS + 1):
            status, verdicts = judge(baseline, os.path.join(args.dir, "same-%d.json" % i))
            flagged = sorted(b for b, v in verdicts.items() if v != "ok")
            if status != 0 or flagged or len(verdicts) < 20:
                failures.append("same build, pair %d: exit %d, %d benchmarks judged, flagged %s"
                                % (i, status, len(verdicts), flagged))
    else:
        status, verdicts = judge(baseline, os.path.join(args.dir, "planted.json"))
        flagged = sorted(b for b, v in verdicts.items() if v != "ok")
        if status != 1 or flagged != [PLANTED]:
            failures.append("planted 20%% slowdown of %s: exit %d (expected 1), flagged %s"
                            % (PLANTED, status, flagged))
    for f in failures:
        print("count_gate_test: FAIL: " + f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
