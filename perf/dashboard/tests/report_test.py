#!/usr/bin/python3
"""The report end to end (ctest: dashboard.report_in_chromium).

  report_test.py --runs FIXTURE_RUNS --out DIR [--chromium PATH]

Generates DIR/index.html from the runs with gs_report.py's command line, opens it in headless
Chromium (check_report.py) and keeps DIR/screenshot.png; then shows that the check fails a
broken page (DIR/broken.html: a corrupt plot, a missing one, a console error). The number of
plots it expects is worked out from the runs themselves (expected_plots).
"""

import argparse
import json
import os
import subprocess
import sys

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, ".."))
import check_report  # noqa: E402
import history  # noqa: E402


def expected_plots(runs_dir):
    """One per case per CPU machine across its gs-bench runs' CPU rows (a series per machine),
    one per machine with gs-counts runs, per GPU one bar figure and one per case of its d3d12
    and torch_cuda rows (when it has d3d12 rows), CPU against D3D12 when a run has d3d12 rows, the peers when there is a peers run,
    and thread scaling."""
    runs = history.load_history(runs_dir)
    bench = history.series(runs, "gs-bench")
    plots = sum(len({r["case"] for run in machine_runs for r in run.results.values()
                     if r["backend"] == "cpu"})
                for machine_runs in bench.values())
    plots += len(history.series(runs, "gs-counts"))
    for gpu_runs in history.gpu_series(runs).values():
        plots += 1
        if any(run.has_backend("d3d12") for run in gpu_runs):
            plots += len({r["case"] for run in gpu_runs for r in run.results.values()
                          if r["backend"] in history.GPU_BACKENDS})
    if any(run.kind == "gs-bench" for run in runs):
        d3d12 = any(r["backend"] == "d3d12" for run in runs if run.kind == "gs-bench"
                    for r in run.results.values())
        plots += int(d3d12) + int(any(run.kind == "peers" for run in runs)) + 1
    return plots


BROKEN_PAGE = """<!DOCTYPE html><html><head><link rel="icon" href="data:,"></head>
<body data-plots="3">
<img class="plot" alt="good" src="data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7">
<img class="plot" alt="corrupt" src="data:image/png;base64,AAAAAAAA">
<img class="plot" alt="missing" src="no-such-plot.png">
<script>console.error("planted error")</script>
</body></html>
"""


def check_catches_a_broken_page(out, chromium):
    """The checker itself must fail a page with undecodable and missing plots and an error."""
    page = os.path.join(out, "broken.html")
    with open(page, "w") as f:
        f.write(BROKEN_PAGE)
    found = check_report.check(page, os.path.join(out, "broken.png"), 3, chromium)
    expected = ["plot not rendered: corrupt", "plot not rendered: missing", "planted error",
                "no-such-plot.png"]
    missing = [e for e in expected if not any(e in f for f in found)]
    unexpected = [f for f in found if "good" in f]
    return ["the checker missed %r on a broken page (it found %s)" % (m, found) for m in missing] + \
        ["the checker flagged a good plot: %s" % u for u in unexpected]


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
    # A series per machine: one section each, in the page the browser rendered.
    machines = {run.machine for run in history.load_history(args.runs)
                if run.kind in ("gs-bench", "gs-counts")}
    with open(page) as f:
        sections = f.read().count('<section class="machine"')
    if sections != len(machines):
        failures.append("%d machine sections for %d machines" % (sections, len(machines)))
    if os.path.getsize(screenshot) < 10000:
        failures.append("the screenshot is only %d bytes" % os.path.getsize(screenshot))
    failures += check_catches_a_broken_page(args.out, args.chromium)
    for f in failures:
        print("report_test: FAIL: %s" % f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
