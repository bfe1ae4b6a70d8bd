#!/usr/bin/env python3
"""The GPU table of issue 7: gs-bench's d3d12 rows beside PyTorch's CUDA kernels (peers.py
--device cuda), one Markdown row per <case>[/<variant>].

    gpu/tools/gpu_table.py GS_BENCH_D3D12_JSON [PEERS_CUDA_JSON]

Cells are `GB/s (copy_ratio)` as in perf/peers/compare.py (copy_ratio: over the same device's
copy of the same bytes, measured in the same run). `gs / torch` is gs checked's speed over
torch_cuda's. `target` is the issue's: row and slice operators (the suite's rows*/embedding
cases) at least 0.8 copy_ratio; element gathers at least torch's speed; element scatters (the
suite's draw repeated indices: gs is deterministic, torch's scatter_ is not) within 2x of
torch. A missing file or row gives `-`.
"""
import json
import os
import re
import sys

sys.dont_write_bytecode = True  # no __pycache__ in perf/peers/ (here or on the GPU machine)
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "perf", "peers"))
from compare import cell, load  # noqa: E402  (perf/peers/compare.py: the same cells)


def is_rows(case):
    """Row and slice operators: whole rows per index (the suite's rows*/embedding cases)."""
    return re.search(r"/(rows\d*|embedding)/", case + "/") is not None


def target(case, gs, torch):
    if gs is None or gs.get("error_occurred"):
        return "-"
    if is_rows(case):
        return "%s (copy_ratio %.2f >= 0.8)" % ("met" if gs["copy_ratio"] >= 0.8 else "MISSED",
                                                gs["copy_ratio"])
    if torch is None or torch.get("error_occurred"):
        return "-"
    ratio = gs["GB_per_s"] / torch["GB_per_s"]
    need = 0.5 if case.startswith("scatter") else 1.0
    return "%s (%.2fx torch >= %.1fx)" % ("met" if ratio >= need else "MISSED", ratio, need)


def table(gs_run, peers_run):
    by_name = {b["name"]: b for b in gs_run["benchmarks"] + (peers_run or {}).get("benchmarks", [])}
    cases = []
    for b in gs_run["benchmarks"]:
        m = re.match(r"(.*)/d3d12/(checked|unchecked)/threads:0$", b["name"])
        if m and m.group(1) not in cases:
            cases.append(m.group(1))
    lines = ["| case [/variant] | gs d3d12 checked | gs d3d12 unchecked | torch_cuda | gs / torch | target |",
             "|---|---|---|---|---|---|"]
    for c in cases:
        checked = by_name.get(c + "/d3d12/checked/threads:0")
        unchecked = by_name.get(c + "/d3d12/unchecked/threads:0")
        torch = by_name.get(c + "/torch_cuda/threads:0")
        ok = checked and not checked.get("error_occurred") and torch and not torch.get("error_occurred")
        speed = "%.2fx" % (checked["GB_per_s"] / torch["GB_per_s"]) if ok else "-"
        lines.append("| %s | %s | %s | %s | %s | %s |" % (c, cell(checked), cell(unchecked), cell(torch),
                                                          speed, target(c, checked, torch)))
    return "\n".join(lines)


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__.split("\n\n")[1])
    gs_run = load(sys.argv[1])
    peers_run = load(sys.argv[2]) if len(sys.argv) == 3 and os.path.exists(sys.argv[2]) else None
    ctx = gs_run.get("context", {})
    print("gs-bench d3d12 %s, gs %s (%s)%s. Cells: GB/s (copy_ratio).\n" % (
        ctx.get("date", "?"), ctx.get("gs_version", "?"), ctx.get("gs_git_commit", "?"),
        "; torch_cuda on %s, torch %s" % (peers_run["context"].get("cuda_device", "?"),
                                           peers_run["context"].get("torch_version", "?"))
        if peers_run else "; no torch_cuda run"))
    print(table(gs_run, peers_run))


if __name__ == "__main__":
    main()
