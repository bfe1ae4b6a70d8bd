#!/usr/bin/python3
"""The perf suite (shared/perf/suite.json) on gs's peers: PyTorch, NumPy and ONNX Runtime (peer
ort, when perf/peers/ort/setup has installed it), each at 1 and 2 threads (--threads) with its
own same-process copy baseline; with --device cuda, PyTorch's CUDA kernels instead.

Writes Google Benchmark-format JSON: one benchmark per case, variant, peer and thread count,
named <case>[/<variant>]/<peer>/threads:<n>, with real_time/cpu_time (ns, the median call),
bytes_per_second and GB_per_s (the suite's byte model), and copy_ratio (bytes/s over a copy
of the same bytes, same peer, same thread count, same process). Run by perf/peers/compare.py
beside gs-bench; see perf/README.md.

ort: each case a one-node ONNX graph on ONNX Runtime's CPU provider through onnxruntime-node
(perf/peers/ort/: run.mjs times it in node), the time the profiler's kernel_time of the node,
copy_ratio over a copy timed in that node process (perf/peers/ort/ort_peer.py, perf/README.md).

--device cuda: <case>[/<variant>]/torch_cuda/threads:0, kernel time from CUDA events around
the call (synchronised), copy_ratio over a device-to-device copy_ of the same bytes, as
gs-bench's d3d12 rows (gpu/tools/README.md).
"""
import argparse
import datetime
import json
import os
import platform
import statistics
import sys
import time

import numpy as np

try:
    import torch
except ImportError:  # the comparison runs without the peers that are missing
    torch = None
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "ort"))
import ort_peer  # noqa: E402 (imports onnx only when the ort peer runs)

NP_DTYPES = {"FLOAT32": np.float32, "FLOAT16": np.float16, "INT8": np.int8, "UINT8": np.uint8,
             "INT32": np.int32, "INT64": np.int64, "UINT32": np.uint32, "UINT64": np.uint64}


def measure(fn, min_time, max_reps=15):
    """Warm-up, then repetitions until >= 3 and >= min_time seconds (at most max_reps); the
    median seconds of one call (the suite's timing rule)."""
    fn()
    times = []
    start = time.perf_counter()
    while len(times) < 3 or (time.perf_counter() - start < min_time and len(times) < max_reps):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times), len(times)


def measure_cuda(fn, min_time, max_reps=200):
    """As measure, but each call's GPU time between two CUDA events (kernel time, not launch
    time): warm-up, then >= 3 and >= min_time seconds of calls (at most max_reps)."""
    fn()
    torch.cuda.synchronize()
    times = []
    start = time.perf_counter()
    while len(times) < 3 or (time.perf_counter() - start < min_time and len(times) < max_reps):
        begin, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        begin.record()
        fn()
        end.record()
        end.synchronize()
        times.append(begin.elapsed_time(end) / 1e3)  # ms -> s
    return statistics.median(times), len(times)


def make_indices(case, rng):
    """Indices with the case's distribution (not the values gs-bench draws: the same law)."""
    shapes, attrs = case["shapes"], case.get("attributes", {})
    ishape = shapes["IndicesTensor"]
    inp = shapes["InputTensor"]
    op = case["op"]
    dtype = NP_DTYPES[case["index_dtype"]]
    if op in ("GATHER_ND", "GATHER_ND1", "SCATTER_ND"):
        rank = len(inp)
        idc = attrs.get("InputDimensionCount", rank)
        batch = attrs.get("BatchDimensionCount", 0)
        first = rank - idc + batch
        q = ishape[-1]
        bounds = [inp[first + k] for k in range(q)]
    else:
        bounds = [inp[attrs.get("Axis", 0)]]
    count = int(np.prod(ishape))
    law = case.get("indices", {})
    distribution = law.get("distribution", "uniform")
    if distribution == "unique":
        flat = rng.choice(bounds[0], size=count, replace=False)
    elif distribution == "zipf":
        weights = np.arange(1, bounds[0] + 1, dtype=np.float64) ** -law.get("exponent", 1.0)
        flat = rng.choice(bounds[0], size=count, p=weights / weights.sum())
    elif distribution == "uniform":
        cols = [rng.integers(0, b, size=count // len(bounds)) for b in bounds]
        flat = np.stack(cols, axis=1).reshape(-1)
    else:
        raise ValueError("%s: unknown index distribution %s" % (case["name"], distribution))
    return flat.astype(dtype).reshape(ishape)


def data(shape, dtype, rng):
    a = np.empty(shape, dtype=dtype)
    a.reshape(-1)[:] = (np.arange(a.size) % 1021).astype(dtype)  # touches every page
    return a


class Copy:
    """The same-process copy baseline: total/2 bytes (total bytes moved), timed both as
    numpy.copyto and as torch's copy_ on n threads; the faster one is the baseline (Debian's
    torch copies at well under memory speed, which would flatter its own ratios)."""

    def __init__(self, total):
        self.src = np.full(total // 8, 1.0, dtype=np.float32)
        self.dst = np.zeros_like(self.src)

    def seconds(self, threads, min_time):
        best, _ = measure(lambda: np.copyto(self.dst, self.src), min_time)
        if torch is not None:
            torch.set_num_threads(threads)
            s, d = torch.from_numpy(self.src), torch.from_numpy(self.dst)
            best = min(best, measure(lambda: d.copy_(s), min_time)[0])
        return best


class CudaCopy:
    """The GPU copy baseline: a device-to-device copy_ of total/2 bytes (total bytes moved)."""

    def __init__(self, total):
        self.src = torch.full((total // 8,), 1.0, dtype=torch.float32, device="cuda")
        self.dst = torch.zeros_like(self.src)

    def seconds(self, threads, min_time):
        return measure_cuda(lambda: self.dst.copy_(self.src), min_time)[0]


TORCH_REDUCE = {"ADD": "sum", "MULTIPLY": "prod", "MIN": "amin", "MAX": "amax"}


def torch_op(case, variant, t):
    """A closure running the case on torch tensors t (dict of tensors), or None."""
    op, attrs = case["op"], case.get("attributes", {})
    x, idx, out = t["input"], t["indices"], t.get("output")
    reduction = attrs.get("Reduction", "NONE")
    if x.is_cuda or reduction != "NONE":  # one launch per call on the GPU; scatter_reduce_
        return torch_cuda_op(case, variant, t)
    if op == "GATHER_ELEMENTS":
        axis = attrs.get("Axis", 0)
        if idx.dtype == torch.int64:
            return lambda: torch.gather(x, axis, idx, out=out)
        return lambda: torch.gather(x, axis, idx.long(), out=out)  # torch takes int64 only
    if op == "GATHER":
        flat = idx.reshape(-1)
        shaped = out.view(flat.numel(), *x.shape[1:])
        return lambda: torch.index_select(x, 0, flat, out=shaped)
    if op == "GATHER_ND":
        q = idx.shape[-1]
        if q == 1:
            flat = idx.reshape(-1)
            return lambda: torch.index_select(x, 0, flat, out=out.view(flat.numel(), *x.shape[1:]))
        strides = torch.tensor([x.stride(k) for k in range(q)], dtype=torch.int64)
        # torch.take on flat offsets (the best torch way measured in the issue)
        return lambda: torch.take(x, (idx.long() * strides).sum(-1), out=out.view(-1))
    if op == "GATHER_ND1":  # batch dim 1, q = 1: rows of each batch
        def run():
            for b in range(x.shape[0]):
                torch.index_select(x[b], 0, idx[b].reshape(-1), out=out[b])
        return run
    if op == "SCATTER_ND":  # q = 1: whole rows
        flat = idx.reshape(-1)
        upd = t["updates"]
        if variant == "inplace":
            return lambda: x.index_copy_(0, flat, upd)
        return lambda: (out.copy_(x), out.index_copy_(0, flat, upd))
    if op == "SCATTER_ELEMENTS":
        axis = attrs.get("Axis", 0)
        upd = t["updates"]
        lidx = idx if idx.dtype == torch.int64 else None
        if variant == "inplace":
            return lambda: x.scatter_(axis, lidx if lidx is not None else idx.long(), upd)
        return lambda: (out.copy_(x), out.scatter_(axis, lidx if lidx is not None else idx.long(), upd))
    return None


def torch_cuda_op(case, variant, t):
    """The case with PyTorch's CUDA kernels: gather, index_select, take (GatherND tuples as flat
    offsets), index_put_ (rows; accumulate for ADD) and scatter_ / scatter_reduce_. Written for
    the GPU (one launch where torch_op loops), it runs on CPU tensors too."""
    op, attrs = case["op"], case.get("attributes", {})
    x, idx, out = t["input"], t["indices"], t.get("output")
    reduction = attrs.get("Reduction", "NONE")
    long_idx = idx if idx.dtype == torch.int64 else None  # gather/scatter take int64 only

    def as_long():
        return long_idx if long_idx is not None else idx.long()

    if op == "GATHER_ELEMENTS":
        axis = attrs.get("Axis", 0)
        return lambda: torch.gather(x, axis, as_long(), out=out)
    if op == "GATHER" or (op == "GATHER_ND" and idx.shape[-1] == 1):
        flat = idx.reshape(-1)
        shaped = out.view(flat.numel(), *x.shape[1:])
        return lambda: torch.index_select(x, 0, flat, out=shaped)
    if op == "GATHER_ND":
        q = idx.shape[-1]
        strides = torch.tensor([x.stride(k) for k in range(q)], dtype=torch.int64, device=x.device)
        return lambda: torch.take(x, (as_long() * strides).sum(-1), out=out.view(-1))
    if op == "GATHER_ND1":  # batch dim 1, q = 1: rows of each batch, one launch for all batches
        b, n = x.shape[0], x.shape[1]
        base = (torch.arange(b, device=x.device, dtype=torch.int64) * n).view(b, 1)
        rows = x.view(b * n, *x.shape[2:])
        flat_out = out.view(-1, *x.shape[2:])
        return lambda: torch.index_select(rows, 0, (as_long().view(b, -1) + base).view(-1), out=flat_out)
    if op == "SCATTER_ND":  # q = 1: whole rows
        if reduction not in ("NONE", "ADD"):
            return None
        upd = t["updates"]
        target = x if variant == "inplace" else out
        put = lambda: target.index_put_((as_long().reshape(-1),), upd, accumulate=reduction == "ADD")
        if variant == "inplace":
            return put
        return lambda: (out.copy_(x), put())
    if op == "SCATTER_ELEMENTS":
        axis = attrs.get("Axis", 0)
        upd = t["updates"]
        target = x if variant == "inplace" else out
        if reduction == "NONE":
            put = lambda: target.scatter_(axis, as_long(), upd)
        else:
            put = lambda: target.scatter_reduce_(axis, as_long(), upd, reduce=TORCH_REDUCE[reduction])
        if variant == "inplace":
            return put
        return lambda: (out.copy_(x), put())
    return None


def numpy_op(case, variant, a):
    op, attrs = case["op"], case.get("attributes", {})
    x, idx, out = a["input"], a["indices"], a.get("output")
    if op == "GATHER_ELEMENTS":
        axis = attrs.get("Axis", 0)
        return lambda: np.copyto(out, np.take_along_axis(x, idx, axis))
    if op in ("GATHER", "GATHER_ND") and idx.shape[-1] >= 1 and (op == "GATHER" or idx.shape[-1] == 1):
        flat = idx.reshape(-1)
        return lambda: np.take(x, flat, axis=0, out=out.reshape(flat.size, *x.shape[1:]))
    if op == "GATHER_ND":
        cols = tuple(idx[:, k] for k in range(idx.shape[-1]))
        return lambda: np.copyto(out.reshape(-1), x[cols])
    if op == "GATHER_ND1":
        def run():
            for b in range(x.shape[0]):
                np.take(x[b], idx[b].reshape(-1), axis=0, out=out[b])
        return run
    if op == "SCATTER_ND":
        flat = idx.reshape(-1)
        upd = a["updates"]
        if variant == "inplace":
            def run():
                x[flat] = upd
            return run

        def run_copy():
            np.copyto(out, x)
            out[flat] = upd
        return run_copy
    if op == "SCATTER_ELEMENTS":
        axis = attrs.get("Axis", 0)
        upd = a["updates"]
        if variant == "inplace":
            return lambda: np.put_along_axis(x, idx, upd, axis)
        return lambda: (np.copyto(out, x), np.put_along_axis(out, idx, upd, axis))
    return None


def thread_list(text):
    """argparse type of --threads: "1,2,4" -> [1, 2, 4]."""
    try:
        counts = [int(n) for n in text.split(",")]
    except ValueError:
        counts = []
    if not counts or any(n < 1 for n in counts):
        raise argparse.ArgumentTypeError("thread counts >= 1 separated by commas, not %r" % text)
    return counts


def cuda_unavailable():
    """Why PyTorch's CUDA kernels cannot run here, or "" when they can."""
    if torch is None:
        return "PyTorch is not installed (import torch failed)"
    if not torch.cuda.is_available():
        return ("PyTorch %s has no CUDA device (torch.cuda.is_available() is False; built for CUDA %s)"
                % (torch.__version__, torch.version.cuda or "none: a CPU-only build"))
    return ""


def suite_name(case, variant):
    variants = case.get("variants", ["default"])
    named = len(variants) > 1 or variants[0] != "default"
    return case["name"] + ("/" + variant if named else "")


def cpu_id():
    """Which core design the CPU is, as gs-bench's context says it (perf/gs_bench/reporting.h,
    CpuId): "AuthenticAMD family 25 model 1 stepping 1", "implementer 0x41 part 0xd0c variant
    0x3" on ARM64, "" without /proc/cpuinfo's fields."""
    fields = {}
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if not line.strip():
                    break  # the first processor's block
                key, sep, value = line.partition(":")
                if sep:
                    fields[key.strip()] = value.strip()
    except OSError:
        return ""
    if "cpu family" in fields:
        parts = [("", "vendor_id"), ("family", "cpu family"), ("model", "model"), ("stepping", "stepping")]
    else:
        parts = [("implementer", "CPU implementer"), ("part", "CPU part"), ("variant", "CPU variant")]
    return " ".join((label + " " if label else "") + fields[key] for label, key in parts if fields.get(key))


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--suite", default=os.environ.get("GS_BENCH_SUITE") or
                        os.path.join(here, "..", "..", "..", "shared", "perf", "suite.json"))
    parser.add_argument("--out", required=True, help="JSON file to write")
    parser.add_argument("--short", action="store_true", help="0.2 s minimum per measurement")
    parser.add_argument("--filter", default="", help="only cases whose name contains this")
    parser.add_argument("--peers", default=None,
                        help="comma-separated, of torch, numpy, ort (default all three, ort when "
                        "perf/peers/ort/setup has run; named here, ort runs the setup itself)")
    parser.add_argument("--check", action="store_true",
                        help="ort: compare ONNX Runtime's output with numpy's, each case once")
    parser.add_argument("--threads", default="1,2", type=thread_list,
                        help="CPU thread counts, e.g. 1,2,4,8,16 (default 1,2)")
    parser.add_argument("--device", default="cpu", choices=("cpu", "cuda"),
                        help="cuda: PyTorch's CUDA kernels only (peer torch_cuda, threads:0)")
    args = parser.parse_args()
    min_time = 0.2 if args.short else 1.0
    suite = json.load(open(args.suite))
    if args.device == "cuda":
        cuda_missing = cuda_unavailable()
        if cuda_missing:
            sys.exit("peers.py: --device cuda: %s" % cuda_missing)
        peers, thread_counts = ["torch_cuda"], [0]
    else:
        asked = (args.peers or "torch,numpy,ort").split(",")
        unknown = [p for p in asked if p not in ("torch", "numpy", "ort")]
        if unknown:
            parser.error("unknown peer %s (torch, numpy, ort)" % ",".join(unknown))
        if "ort" in asked and ort_peer.missing():
            if args.peers is not None:  # asked for by name: install it (idempotent)
                try:
                    ort_peer.setup()
                except Exception as e:
                    sys.exit("peers.py: --peers %s: perf/peers/ort/setup failed: %s" % (args.peers, e))
            else:
                print("peers.py: no ort rows: %s; perf/peers/ort/setup installs it (or name it: "
                      "--peers torch,numpy,ort)" % ort_peer.missing(), file=sys.stderr)
        peers = [p for p in asked
                 if (p == "torch" and torch is not None) or p == "numpy" or
                 (p == "ort" and not ort_peer.missing())]
        thread_counts = args.threads
    context = {
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "host_name": platform.node(),
        "executable": "perf/peers/peers.py",
        "num_cpus": os.cpu_count(),
        "cpu_model": next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo")
                           if l.startswith("model name")), "unknown"),
        "cpu_id": cpu_id(),
        "suite": os.path.abspath(args.suite),
        "mode": "short" if args.short else "full",
        "python": platform.python_version(),
        "numpy_version": np.__version__,
        "torch_version": torch.__version__ if torch is not None else "not installed",
        "ort_version": ("onnxruntime-node %s (CPU provider), onnx %s"
                        % (ort_peer.version(), ort_peer.onnx_version()) if "ort" in peers
                        else "not installed"),
        "peers": ",".join(peers),
    }
    if args.device == "cuda":
        context["cuda_device"] = torch.cuda.get_device_name(0)
        context["torch_cuda_version"] = torch.version.cuda
    benchmarks = []
    for case in suite["cases"]:
        if args.filter not in case["name"]:
            continue
        rng = np.random.default_rng(case["seed"])
        dtype = NP_DTYPES[case["dtype"]]
        shapes = case["shapes"]
        for variant in case.get("variants", ["default"]):
            total = case["effective_bytes"][variant]["total"]
            arrays = {"input": data(shapes["InputTensor"], dtype, rng),
                      "indices": make_indices(case, rng)}
            if "UpdatesTensor" in shapes:
                arrays["updates"] = data(shapes["UpdatesTensor"], dtype, rng)
            if variant != "inplace":
                arrays["output"] = np.zeros(shapes["OutputTensor"], dtype=dtype)
            copy = None  # ort times its copy in its own process
            if any(p != "ort" for p in peers):
                copy = CudaCopy(total) if args.device == "cuda" else Copy(total)
            for peer in peers:
                timed = {}  # ort: every thread count in one node process, kernel and copy times
                if peer == "ort":
                    try:
                        reference = None
                        if args.check and case.get("attributes", {}).get("Reduction", "NONE") != "NONE":
                            print("ort check: %s: numpy's mapping has no reduction: not checked"
                                  % suite_name(case, variant), flush=True)
                        elif args.check:
                            ref = dict(arrays, output=np.zeros(shapes["OutputTensor"], dtype=dtype))
                            reference = lambda: (numpy_op(case, "copy+scatter" if variant == "inplace"
                                                          else variant, ref)(), ref["output"])[1]
                        timed = ort_peer.run(case, variant, arrays, thread_counts, min_time, total,
                                             reference=reference)
                    except ort_peer.Unsupported as e:
                        print("%s/ort: skipped: %s" % (suite_name(case, variant), e), file=sys.stderr)
                        continue
                    except Exception as e:  # reported on each thread count's row below
                        timed = e
                for threads in thread_counts:
                    name = suite_name(case, variant) + "/" + peer + "/threads:%d" % threads
                    extra = {}
                    try:
                        if peer == "ort":
                            if isinstance(timed, Exception):
                                raise timed
                            r = timed[threads]
                            seconds, reps, copy_s = r["kernel_s"], r["reps"], r["copy_s"]
                            extra = {"session_run_time": r["run_s"] * 1e9}
                        elif peer == "torch_cuda":
                            t = {k: torch.from_numpy(v).to("cuda") for k, v in arrays.items()}
                            fn = torch_op(case, variant, t)
                        elif peer == "torch":
                            torch.set_num_threads(threads)
                            t = {k: torch.from_numpy(v) for k, v in arrays.items()}
                            fn = torch_op(case, variant, t)
                        elif peer == "numpy":  # NumPy runs these on one thread whatever n is
                            fn = numpy_op(case, variant, arrays)
                        if peer != "ort":
                            if fn is None:
                                continue
                            copy_s = copy.seconds(threads, min_time / 4)
                            if peer == "torch":
                                torch.set_num_threads(threads)
                            seconds, reps = (measure_cuda if peer == "torch_cuda" else measure)(fn, min_time)
                    except Exception as e:  # report, keep going
                        print("%s: %s" % (name, e), file=sys.stderr)
                        benchmarks.append({"name": name, "run_name": name, "run_type": "iteration",
                                           "error_occurred": True, "error_message": str(e)})
                        continue
                    bps = total / seconds
                    benchmarks.append({
                        "name": name, "run_name": name, "run_type": "iteration",
                        "repetitions": 1, "repetition_index": 0, "threads": 1,
                        "iterations": reps, "real_time": seconds * 1e9, "cpu_time": seconds * 1e9,
                        "time_unit": "ns", "bytes_per_second": bps, "GB_per_s": bps / 1e9,
                        "copy_ratio": bps / (total / copy_s), "peer_threads": threads, **extra})
                    print("%-60s %8.2f GB/s  copy_ratio %.2f" % (name, bps / 1e9, bps / (total / copy_s)),
                          flush=True)
            del arrays, copy
            t = fn = None
            if args.device == "cuda":
                torch.cuda.empty_cache()  # the next case's tensors, not this one's, on the GPU
    with open(args.out, "w") as f:
        json.dump({"context": context, "benchmarks": benchmarks}, f, indent=1)


if __name__ == "__main__":
    main()
