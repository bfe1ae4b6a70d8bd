#!/usr/bin/python3
"""Runs gs-bench and then the peers (peers.py) on the same suite, one after the other, keeps
both JSON files in perf/results/runs/ (<YYYY-MM-DDTHHMMSSZ>-<host>-<gs-bench|peers>.json) and
prints one Markdown table: GB/s and copy_ratio of gs (checked, unchecked) and of each peer at 1
and 2 threads (--table: the thread counts of gs's run), and gs checked / best peer at the
most threads.

    perf/peers/compare.py --gs-bench build/release/bin/gs-bench [--short] [--filter TEXT]
                          [--peers torch,numpy,ort]  # ort: perf/peers/ort/setup first, or named
    perf/peers/compare.py --table GS_JSON PEERS_JSON   # the table of an earlier run
"""
import argparse
import datetime
import json
import os
import platform
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def load(path):
    with open(path) as f:
        return json.load(f)


def cell(b):
    if b is None or b.get("error_occurred"):
        return "-"
    return "%.2f (%.2f)" % (b["GB_per_s"], b["copy_ratio"])


def table(gs, peers):
    """Markdown rows keyed by <case>[/<variant>] from both runs."""
    by_name = {b["name"]: b for b in gs["benchmarks"] + peers["benchmarks"]}
    cases, counts = [], set()  # counts: the thread counts of the runs (1, 2 by default)
    for b in gs["benchmarks"]:
        m = re.match(r"(.*)/cpu/(checked|unchecked)/threads:(\d+)$", b["name"])
        if m and not m.group(1).startswith("small/"):
            counts.add(int(m.group(3)))
            if m.group(1) not in cases:
                cases.append(m.group(1))
    threads = sorted(counts)
    top = threads[-1] if threads else 2
    peer_names = sorted({re.match(r".*/([a-z_]+)/threads:\d+$", b["name"]).group(1)
                         for b in peers["benchmarks"]})
    head = ["case [/variant]"]
    for mode in ("checked", "unchecked"):
        head += ["gs %s %dT" % (mode, t) for t in threads]
    for p in peer_names:
        head += ["%s %dT" % (p, t) for t in threads]
    head += ["gs checked %dT / best peer" % top]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for c in cases:
        row = [c]
        for mode in ("checked", "unchecked"):
            row += [cell(by_name.get("%s/cpu/%s/threads:%d" % (c, mode, t))) for t in threads]
        best = 0.0
        for p in peer_names:
            for t in threads:
                b = by_name.get("%s/%s/threads:%d" % (c, p, t))
                row.append(cell(b))
                if b is not None and not b.get("error_occurred"):
                    best = max(best, b["GB_per_s"])
        g = by_name.get("%s/cpu/checked/threads:%d" % (c, top))
        row.append("%.1fx" % (g["GB_per_s"] / best) if g and best > 0 and "GB_per_s" in g else "-")
        lines.append("| " + " | ".join(row) + " |")
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--gs-bench", help="path of the gs-bench binary")
    parser.add_argument("--table", nargs=2, metavar=("GS_JSON", "PEERS_JSON"),
                        help="print the table of two earlier result files, run nothing")
    parser.add_argument("--short", action="store_true")
    parser.add_argument("--filter", default="", help="only cases whose name contains this")
    parser.add_argument("--runs", default=os.path.join(HERE, "..", "results", "runs"))
    parser.add_argument("--suite", default=None)
    parser.add_argument("--peers", default=None,
                        help="peers.py --peers (default torch, numpy and ort when set up; naming "
                        "ort runs perf/peers/ort/setup)")
    args = parser.parse_args()
    if args.table:
        print(table(load(args.table[0]), load(args.table[1])))
        return
    if not args.gs_bench:
        parser.error("--gs-bench is required (or --table)")
    os.makedirs(args.runs, exist_ok=True)
    stamp = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H%M%SZ")
    host = platform.node() or "host"
    gs_out = os.path.join(args.runs, "%s-%s-gs-bench.json" % (stamp, host))
    peers_out = os.path.join(args.runs, "%s-%s-peers.json" % (stamp, host))

    # The peers here run on the CPU, so gs-bench's CPU rows are the ones to set beside them.
    cmd = [args.gs_bench, "--backend=cpu", "--benchmark_out=" + gs_out,
           "--benchmark_out_format=json"]
    if args.short:
        cmd.append("--short")
    if args.suite:
        cmd.append("--suite=" + args.suite)
    if args.filter:
        cmd.append("--benchmark_filter=" + re.escape(args.filter))
    subprocess.run(cmd, check=True, stdout=sys.stderr)
    cmd = [sys.executable, os.path.join(HERE, "peers.py"), "--out", peers_out]
    if args.short:
        cmd.append("--short")
    if args.suite:
        cmd += ["--suite", args.suite]
    if args.filter:
        cmd += ["--filter", args.filter]
    if args.peers:
        cmd += ["--peers", args.peers]
    subprocess.run(cmd, check=True, stdout=sys.stderr)

    gs, peers = load(gs_out), load(peers_out)
    ctx = gs["context"]
    print("gs-bench %s and peers, %s, %s, %s cores, kernel set %s, gs %s (%s)" % (
        ctx.get("date", stamp), host, ctx.get("cpu_model", "?"), ctx.get("cores", "?"),
        ctx.get("kernel_set", "?"), ctx.get("gs_version", "?"), ctx.get("gs_git_commit", "?")))
    print("Cells: GB/s (copy_ratio). Files: %s, %s\n" % (gs_out, peers_out))
    print(table(gs, peers))


if __name__ == "__main__":
    main()
