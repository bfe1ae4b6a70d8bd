#!/usr/bin/python3
"""The report end to end (ctest: dashboard.report_in_chromium).

  report_test.py --runs FIXTURE_RUNS --out DIR [--chromium PATH]

Generates DIR/index.html from the runs with gs_report.py's command line, opens it in headless
Chromium (check_report.py) and keeps DIR/screenshot.png; then shows that the check fails a
broken page (DIR/broken.html: a corrupt plot, a missing one, a console error). The number of plots it expects is
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
    if os.path.getsize(screenshot) < 10000:
        failures.append("the screenshot is only %d bytes" % os.path.getsize(screenshot))
    failures += check_catches_a_broken_page(args.out, args.chromium)
    for f in failures:
        print("report_test: FAIL: %s" % f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
