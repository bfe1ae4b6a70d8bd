"""The ONNX Runtime peer ("ort") of perf/peers/peers.py: each suite case as a one-node ONNX graph
(Debian's python3-onnx builds it), timed by run.mjs on ONNX Runtime's CPU provider through the
npm package onnxruntime-node, which perf/peers/ort/setup installs into a cache outside the
repository. peers.py makes the arrays (its make_indices and data) and turns the times into rows.
"""
import json
import os
import shutil
import subprocess
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
SETUP = os.path.join(HERE, "setup")


class Unsupported(Exception):
    """A case or variant ONNX cannot express: peers.py prints the reason and writes no row."""


def cache_dir():
    """Where perf/peers/ort/setup installs onnxruntime-node (the same expression as the script)."""
    base = os.environ.get("GS_PEERS_CACHE") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"), "gs-peers")
    return os.path.join(base, "ort")


def node_modules():
    return os.path.join(cache_dir(), "node_modules")


def missing():
    """Why the ort peer cannot run here ("" when it can)."""
    if shutil.which("node") is None:
        return "node is not installed"
    if not os.path.isfile(os.path.join(node_modules(), "onnxruntime-node", "package.json")):
        return "onnxruntime-node is not in %s" % cache_dir()
    try:
        import onnx  # noqa: F401 (only whether it imports)
    except ImportError:
        return "python3-onnx is not installed"
    return ""


def setup():
    """Runs perf/peers/ort/setup (idempotent); its messages go to stderr."""
    subprocess.run(["bash", SETUP], check=True, stdout=subprocess.DEVNULL)


def version():
    with open(os.path.join(node_modules(), "onnxruntime-node", "package.json")) as f:
        return json.load(f)["version"]


def onnx_version():
    import onnx
    return onnx.__version__


# The node's ONNX operator, and the opset of each form: 13 (the GatherElements, Gather, GatherND
# with batch_dims, ScatterND and ScatterElements of today's spec, without reduction), 16 for the
# add/mul reductions, 18 for min/max.
OPS = {"GATHER_ELEMENTS": "GatherElements", "GATHER": "Gather", "GATHER_ND": "GatherND",
       "GATHER_ND1": "GatherND", "SCATTER_ND": "ScatterND", "SCATTER_ELEMENTS": "ScatterElements"}
REDUCTIONS = {"NONE": ("none", 13), "ADD": ("add", 16), "MULTIPLY": ("mul", 16),
              "MIN": ("min", 18), "MAX": ("max", 18)}
# ONNX Runtime's JS tensor type names.
JS_TYPES = {"float32": "float32", "float16": "float16", "float64": "float64", "int8": "int8",
            "uint8": "uint8", "int16": "int16", "uint16": "uint16", "int32": "int32",
            "uint32": "uint32", "int64": "int64", "uint64": "uint64"}


def tensor_type(dtype):
    import onnx
    if hasattr(onnx.helper, "np_dtype_to_tensor_dtype"):  # onnx >= 1.13
        return onnx.helper.np_dtype_to_tensor_dtype(np.dtype(dtype))
    return onnx.mapping.NP_TYPE_TO_TENSOR_TYPE[np.dtype(dtype)]


def build_model(case, variant, arrays):
    """The case as a one-node ONNX model (checked with onnx.checker, shapes by strict inference)
    and its feeds: (model, {name: array}). Attributes as peers.py's torch mapping reads them.
    Raises Unsupported with the reason when ONNX has no form for the case."""
    import onnx
    from onnx import helper

    op, attrs = case["op"], case.get("attributes", {})
    x, idx = arrays["input"], arrays["indices"]
    scatter = op.startswith("SCATTER")
    if scatter and variant == "inplace":
        raise Unsupported("ONNX scatters always write a new output: no in-place form "
                          "(the copy+scatter variant is the same call)")
    if op in ("GATHER_ND", "GATHER_ND1", "SCATTER_ND") and idx.dtype != np.int64:
        raise Unsupported("ONNX %s takes int64 indices only, not %s" % (OPS[op], idx.dtype))
    if op in ("GATHER_ND", "GATHER_ND1", "SCATTER_ND"):
        if attrs.get("InputDimensionCount", x.ndim) != x.ndim or \
                attrs.get("IndicesDimensionCount", idx.ndim) != idx.ndim:
            raise Unsupported("InputDimensionCount/IndicesDimensionCount below the tensor ranks "
                              "(padded DirectML dimensions) have no ONNX form here")
    kw, opset = {}, 13
    if op in ("GATHER_ELEMENTS", "GATHER", "SCATTER_ELEMENTS"):
        kw["axis"] = attrs.get("Axis", 0)
    if op in ("GATHER_ND", "GATHER_ND1"):
        kw["batch_dims"] = attrs.get("BatchDimensionCount", 0)
    if scatter:
        reduction, opset = REDUCTIONS[attrs.get("Reduction", "NONE")]
        if reduction != "none":
            kw["reduction"] = reduction
    if opset > onnx.defs.onnx_opset_version():
        raise Unsupported("reduction %s needs opset %d; this onnx (%s) knows up to %d"
                          % (kw.get("reduction"), opset, onnx.__version__, onnx.defs.onnx_opset_version()))
    if op == "GATHER":
        # DirectML's IndicesTensor is padded to the output's rank: its trailing IndexDimensions
        # are the indices (as torch's index_select takes them, flattened); the padding goes.
        keep = attrs.get("IndexDimensions", idx.ndim)
        if int(np.prod(idx.shape[:idx.ndim - keep])) == 1:
            idx = idx.reshape(idx.shape[idx.ndim - keep:])
    feeds = {"x": x, "i": idx}
    if scatter:
        feeds["u"] = arrays["updates"]
    node = helper.make_node(OPS[op], list(feeds), ["y"], name="op", **kw)
    graph = helper.make_graph(
        [node], "gs_peer",
        [helper.make_tensor_value_info(n, tensor_type(a.dtype), list(a.shape)) for n, a in feeds.items()],
        [helper.make_tensor_value_info("y", tensor_type(x.dtype), None)])
    # IR version 8 (opsets 13 to 18 ask no more): a newer onnx would otherwise stamp its own,
    # which an older ONNX Runtime refuses.
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)],
                              ir_version=8, producer_name="gs perf/peers")
    model = onnx.shape_inference.infer_shapes(model, strict_mode=True)
    onnx.checker.check_model(model, full_check=True)
    dims = [d.dim_value for d in model.graph.output[0].type.tensor_type.shape.dim]
    want = int(np.prod(case["shapes"]["OutputTensor"]))
    if int(np.prod(dims)) != want:
        raise Unsupported("the ONNX output %s has %d elements, OutputTensor %d" % (dims, np.prod(dims), want))
    return model, feeds


def run(case, variant, arrays, threads, min_time, total, reference=None, max_reps=15):
    """Times the case at each thread count in one node process: {threads: {"kernel_s" (median
    kernel_time), "reps", "run_s" (median session.run wall time), "copy_s" (the copy baseline
    of total/2 bytes)}}. reference: a function returning the expected output (numpy's), checked
    against ONNX Runtime's output of the warm-up run at the first thread count."""
    model, feeds = build_model(case, variant, arrays)
    out_dims = [d.dim_value for d in model.graph.output[0].type.tensor_type.shape.dim]
    with tempfile.TemporaryDirectory(prefix="gs-peers-ort-") as tmp:
        with open(os.path.join(tmp, "model.onnx"), "wb") as f:
            f.write(model.SerializeToString())
        inputs = []
        for name, a in feeds.items():
            np.ascontiguousarray(a).tofile(os.path.join(tmp, name + ".bin"))
            inputs.append({"name": name, "type": JS_TYPES[a.dtype.name], "dims": list(a.shape),
                           "file": name + ".bin"})
        manifest = {"model": "model.onnx", "node": "op", "inputs": inputs,
                    "output": {"name": "y", "type": JS_TYPES[feeds["x"].dtype.name], "dims": out_dims},
                    "threads": list(threads), "min_time": min_time, "max_reps": max_reps,
                    "copy_bytes": total // 2, "copy_min_time": min_time / 4}
        if reference is not None:
            manifest["check_file"] = "y.bin"
        with open(os.path.join(tmp, "manifest.json"), "w") as f:
            json.dump(manifest, f)
        proc = subprocess.run(["node", os.path.join(HERE, "run.mjs"), node_modules(), tmp],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        if proc.returncode != 0:
            raise RuntimeError("run.mjs failed (%d): %s" % (proc.returncode, proc.stderr.strip()[-2000:]))
        result = json.loads(proc.stdout)
        if reference is not None:
            got = np.fromfile(os.path.join(tmp, "y.bin"), dtype=arrays["input"].dtype)
            try:
                want = np.asarray(reference()).reshape(-1)
            except Exception as e:  # numpy's mapping does not cover every case ONNX does
                print("ort check: %s/%s: no numpy reference (%s)" % (case["name"], variant, e), flush=True)
                return {r["threads"]: r for r in result["results"]}
            if got.size != want.size or not np.array_equal(got, want):
                bad = np.flatnonzero(got != want) if got.size == want.size else []
                raise RuntimeError("ONNX Runtime's output differs from numpy's (%d of %d elements%s)"
                                   % (len(bad) if got.size == want.size else -1, want.size,
                                      ", first at %d" % bad[0] if len(bad) else ""))
            print("ort check: %s/%s matches numpy (%d elements)" % (case["name"], variant, want.size),
                  flush=True)
    return {r["threads"]: r for r in result["results"]}
