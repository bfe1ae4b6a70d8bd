"""The perf history: Google Benchmark JSON runs in perf/results/runs/, and their names.

Run files:  <YYYY-MM-DDTHHMMSSZ>-<host>-<gs-bench|gs-counts|peers>.json
gs-bench:   <case name>[/<variant>]/<backend>/<checked|unchecked>/threads:<n>
gs-counts:  the same names (gs_counts.py: gs-bench's count mode under callgrind)
peers:      <case name>[/<variant>]/<peer>/threads:<n>
gs-bench and peers carry bytes_per_second, GB_per_s and copy_ratio (gs-bench also
copy_ratio_min and copy_ratio_max, the spread of its per-pair ratios); gs-counts carries
instructions_per_call, ll_misses_per_call, d1_misses_per_call and est_cycles_per_call.

A series is one machine's runs of one kind: runs from different machines (cpu model, cores,
kernel set, last-level cache) are never drawn on one line nor gated against each other.
A GPU's rows (gs's d3d12, the peers' torch_cuda) are a series of their own per GPU and host
(gpu_series), apart from the CPU series.
"""

import datetime
import json
import os
import re
import statistics

RUN_FILE = re.compile(r"^(\d{4}-\d{2}-\d{2}T\d{6}Z)-(.+)-(gs-bench|gs-counts|peers)\.json$")
MODES = ("checked", "unchecked")
KINDS = ("gs-bench", "gs-counts", "peers")
COUNT_COUNTERS = ("instructions_per_call", "ll_misses_per_call", "d1_misses_per_call",
                  "est_cycles_per_call")
THROUGHPUT_COUNTERS = ("bytes_per_second", "GB_per_s", "copy_ratio")


class HistoryError(Exception):
    """A run file that cannot be read as a gs-bench or peers run."""


def run_file_name(when, host, kind):
    """The history's name for a run taken at `when` (a UTC datetime) on `host`."""
    return "%s-%s-%s.json" % (when.strftime("%Y-%m-%dT%H%M%SZ"), host, kind)


def parse_name(name, kind):
    """Splits a benchmark name into (case key, backend or peer, mode or None, threads)."""
    parts = name.split("/")
    if len(parts) < 3 or not parts[-1].startswith("threads:"):
        raise HistoryError("benchmark name %r does not end in /threads:<n>" % name)
    try:
        threads = int(parts[-1][len("threads:"):])
    except ValueError:
        raise HistoryError("benchmark name %r: threads is not a number" % name) from None
    if kind == "peers":
        return "/".join(parts[:-2]), parts[-2], None, threads
    kind = "gs-bench"  # gs-counts names are gs-bench's
    if len(parts) < 4 or parts[-2] not in MODES:
        raise HistoryError("benchmark name %r: expected .../<backend>/<checked|unchecked>/threads:<n>"
                           % name)
    return "/".join(parts[:-3]), parts[-3], parts[-2], threads


def machine_of(context, with_cpu_id=True):
    """The machine a run was taken on, from its context: (cpu model, cores, kernel set, LLC
    bytes), None for a field the context does not give (machine_gaps says why). The cpu model
    carries the cpu_id where the run recorded one (gs-bench and peers.py since 2026-11-28), as
    "AMD EPYC (AuthenticAMD family 25 model 1 stepping 1)": a VM's model name alone does not
    tell Zen 3 from Zen 4. Runs before gs-bench wrote cores and llc_bytes fall back on Google
    Benchmark's num_cpus and its largest cache."""
    cores = context.get("cores") or context.get("num_cpus")
    llc = context.get("llc_bytes")
    if not llc and context.get("caches"):
        llc = max(c.get("size", 0) for c in context["caches"])
    model = context.get("cpu_model") or context.get("host_name") or None
    if model and with_cpu_id and context.get("cpu_id"):
        model = "%s (%s)" % (model, context["cpu_id"])
    return (model, str(cores) if cores else None, context.get("kernel_set") or None,
            str(llc) if llc else None)


def same_machine(a, b):
    """Whether two runs' contexts name one machine: machine_of alike, the cpu_id compared only
    when both recorded one (a run from before it was written is not another machine for that)."""
    both = bool(a.get("cpu_id")) and bool(b.get("cpu_id"))
    return machine_of(a, both) == machine_of(b, both)


MACHINE_FIELDS = ("cpu model", "cores", "kernel set", "LLC")


def machine_gaps(context, kind):
    """[(field, why)] for each field of machine_of that a run of `kind` does not give."""
    model, cores, kernel_set, llc = machine_of(context)
    gaps = []
    if model is None:
        gaps.append(("cpu model", "the context has neither cpu_model nor host_name"))
    if cores is None:
        gaps.append(("cores", "the context has neither cores (gs-bench) nor num_cpus"))
    if kernel_set is None:
        gaps.append(("kernel set", "a peers run executes no gs kernel set" if kind == "peers" else
                     "the context has no kernel_set (gs-bench writes it since 2026-11-23)"))
    if llc is None:
        gaps.append(("LLC", "peers.py records no cache sizes" if kind == "peers" else
                     "the context has no llc_bytes (gs-bench writes it since 2026-11-23) and "
                     "Google Benchmark listed no caches"))
    return gaps


def machine_label(machine):
    """"AMD EPYC, 2 cores, avx2, LLC 32 MiB"; a field not read says so ("kernel set not
    recorded"), never "?"."""
    model, cores, kernel_set, llc = machine
    if llc is None:
        llc_text = "LLC not recorded"
    elif llc.isdigit() and int(llc) >= 1 << 20:
        llc_text = "LLC %d MiB" % (int(llc) >> 20)
    else:
        llc_text = "LLC " + llc
    return "%s, %s, %s, %s" % (model or "cpu model not recorded",
                               "%s cores" % cores if cores else "cores not recorded",
                               kernel_set or "kernel set not recorded", llc_text)


def gaps_text(gaps):
    """"kernel set: why; LLC: why", or "" when every field was read."""
    return "; ".join("%s: %s" % (field, why) for field, why in gaps)


def iteration_rows(doc):
    """The per-repetition rows of a Google Benchmark JSON document (aggregates and errors left out)."""
    return [b for b in doc.get("benchmarks", [])
            if b.get("run_type", "iteration") == "iteration" and not b.get("error_occurred")]


class Run:
    """One run file: when, where, what kind, its context and one median row per benchmark."""

    def __init__(self, path):
        match = RUN_FILE.match(os.path.basename(path))
        if not match:
            raise HistoryError("%s: not named <YYYY-MM-DDTHHMMSSZ>-<host>-<gs-bench|peers>.json" % path)
        self.path = path
        self.when = datetime.datetime.strptime(match.group(1), "%Y-%m-%dT%H%M%SZ")
        self.host = match.group(2)
        self.kind = match.group(3)
        try:
            with open(path) as f:
                doc = json.load(f)
        except (OSError, ValueError) as e:
            raise HistoryError("%s: %s" % (path, e)) from None
        self.context = doc.get("context", {})
        self.doc = doc  # the gate's verdicts read the rows again
        # Repetitions of one benchmark: keep the median of each counter.
        grouped = {}
        for row in iteration_rows(doc):
            grouped.setdefault(row.get("run_name", row["name"]), []).append(row)
        self.results = {}
        for name, rows in grouped.items():
            case, backend, mode, threads = parse_name(name, self.kind)
            result = {"case": case, "backend": backend, "mode": mode, "threads": threads,
                      "repetitions": len(rows)}
            counters = COUNT_COUNTERS if self.kind == "gs-counts" else THROUGHPUT_COUNTERS
            for counter in counters:
                values = [r[counter] for r in rows if counter in r]
                if values:
                    result[counter] = statistics.median(values)
            if self.kind == "gs-counts":
                if "instructions_per_call" in result:
                    self.results[name] = result
                continue
            if "GB_per_s" not in result and "bytes_per_second" in result:
                result["GB_per_s"] = result["bytes_per_second"] / 1e9
            if "GB_per_s" not in result:
                continue  # a per-call cost (gs-bench's small/ operators), not a throughput
            self.results[name] = result
            # The noise band: the spread of copy_ratio over repetitions and pairs.
            low = [r.get("copy_ratio_min", r["copy_ratio"]) for r in rows if "copy_ratio" in r]
            high = [r.get("copy_ratio_max", r["copy_ratio"]) for r in rows if "copy_ratio" in r]
            if low:
                result["copy_ratio_min"], result["copy_ratio_max"] = min(low), max(high)

    def has_backend(self, backend):
        return any(x["backend"] == backend for x in self.results.values())

    @property
    def machine(self):
        return machine_of(self.context)

    @property
    def label(self):
        return "%s %s" % (self.when.strftime("%Y-%m-%d %H:%M"), self.host)


def load_history(directory):
    """Every run file in `directory`, oldest first. Other files (a README) are ignored."""
    runs = []
    for entry in sorted(os.listdir(directory)):
        if entry.endswith(".json"):
            runs.append(Run(os.path.join(directory, entry)))
    runs.sort(key=lambda r: (r.when, r.host, r.kind))
    return runs


def series(runs, kind):
    """{machine: [runs of that kind on it, oldest first]}, machines in the order first seen.
    A gs-bench series is the CPU's: a run with GPU rows only (d3d12) is in gpu_series."""
    grouped = {}
    for run in runs:
        if run.kind == kind and (kind != "gs-bench" or run.has_backend("cpu")):
            grouped.setdefault(run.machine, []).append(run)
    return grouped


# The backends whose rows ran on a GPU: gs's D3D12 path and PyTorch's CUDA kernels.
GPU_BACKENDS = ("d3d12", "torch_cuda")
SITTING = datetime.timedelta(hours=1)  # runs of one host this close were one sitting


def gpu_of(run, runs):
    """(GPU name, where it was read) for a run with GPU rows; (None, why) when no file names it.
    gs-bench's context names no GPU: its d3d12 rows take the name from a torch_cuda run
    (peers' cuda_device) filed under the same host in the same sitting."""
    if run.context.get("cuda_device"):
        return run.context["cuda_device"], "cuda_device of this run"
    for other in runs:
        if (other.host == run.host and other.context.get("cuda_device")
                and abs(other.when - run.when) <= SITTING):
            return other.context["cuda_device"], "cuda_device of %s, beside it" % os.path.basename(other.path)
    return None, ("gs-bench's context names no GPU and no torch_cuda run of host %s within an "
                  "hour of it names one" % run.host)


def gpu_series(runs):
    """{(GPU name or None, host cpu model, host cores): [runs with GPU rows, oldest first]}: a
    GPU's series, gs-bench's d3d12 runs and the peers' torch_cuda runs together, apart from
    the CPU series (which the same host's CPU rows belong to)."""
    grouped = {}
    for run in runs:
        if any(run.has_backend(b) for b in GPU_BACKENDS):
            model, cores, _, _ = run.machine
            grouped.setdefault((gpu_of(run, runs)[0], model, cores), []).append(run)
    return grouped


def gpu_label(key):
    """"NVIDIA H100 80GB HBM3 on Intel(R) Xeon(R) Processor, 16 cores"."""
    gpu, model, cores = key
    return "%s on %s, %s" % (gpu or "GPU not recorded", model or "cpu model not recorded",
                             "%s cores" % cores if cores else "cores not recorded")
