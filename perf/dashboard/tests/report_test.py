#!/usr/bin/python3
"""The report end to end (ctest: dashboard.report_in_chromium).

  report_test.py --runs FIXTURE_RUNS --out DIR [--chromium PATH]

Generates DIR/index.html from the runs with gs_report.py's command line, opens it in headless
Chromium (check_report.py) and keeps DIR/screenshot.png. The number of plots it expects is
worked out from the runs themselves: one per case across the gs-bench runs, plus CPU against
D3D12 when a run has d3d12 rows, the peers when there is a peers run, and thread scaling.
"""

import argparse
import json
import os
import subprocess
import sys

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, ".."))
import check_report  # noqa: E402


def expected_plots(runs_dir):
    cases, d3d12, peers = set(), False, False
    for entry in os.listdir(runs_dir):
        if not entry.endswith(".json"):
            continue
        if entry.endswith("-peers.json"):
            peers = True
            continue
        with open(os.path.join(runs_dir, entry)) as f:
            for row in json.load(f)["benchmarks"]:
                parts = row["run_name"].split("/")  # case.../backend/mode/threads:n
                cases.add("/".join(parts[:-3]))
                d3d12 = d3d12 or parts[-3] == "d3d12"
    return len(cases) + int(d3d12) + int(peers) + 1 if cases else 0


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--chromium", default="chromium")
    args = parser.parse_args()
    subprocess.run([sys.executable, os.path.join(here, "..", "gs_report.py"),
                    "--runs", args.runs, "--out", args.out], check=True)
    page = os.path.join(args.out, "index.html")
    screenshot = os.path.join(args.out, "screenshot.png")
    failures = check_report.check(page, screenshot, expected_plots(args.runs), args.chromium)
    if os.path.getsize(screenshot) < 10000:
        failures.append("the screenshot is only %d bytes" % os.path.getsize(screenshot))
    for f in failures:
        print("report_test: FAIL: %s" % f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
