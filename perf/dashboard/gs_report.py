#!/usr/bin/python3
"""gs-report: a static HTML page of the perf history (perf/results/runs/).

  gs_report.py --runs perf/results/runs --out build/release/perf/report

Writes OUT/index.html, one file: every plot is a PNG inlined as a data: URL, no script, no
network at view time. It opens with the newest run and its machine (a field not read says
which and why), then the sections, the one with the newest run first. One section per machine (<section class="machine" data-machine=...>:
runs of two machines are never drawn on one line): its latest gs-bench run against the run
before it (the baseline), a table with the change and the gate's verdict per benchmark, then
each case's throughput and ratio to copy across that machine's runs with the noise band of
copy_ratio (the spread of its per-pair ratios); the same for its gs-counts runs on the
deterministic metric. One section per GPU (<section class="gpu" data-gpu=...>): gs's d3d12
rows beside torch_cuda's. Then CPU against D3D12, the library against its peers (numpy, torch,
ONNX Runtime as ort) and thread scaling. The page's <body data-plots="N"> says how many plots it holds.
"""

import argparse
import base64
import datetime
import html
import io
import os
import sys

import matplotlib

matplotlib.use("Agg")  # files only, no display
import matplotlib.pyplot as plt  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gs_gate  # noqa: E402
import history  # noqa: E402

PEERS = ("torch", "numpy", "ort")


class Page:
    """The HTML being built and the plots in it."""

    def __init__(self):
        self.parts = []
        self.plots = 0

    def add(self, markup):
        self.parts.append(markup)

    def text(self, tag, words, cls=None):
        attr = ' class="%s"' % cls if cls else ""
        self.add("<%s%s>%s</%s>" % (tag, attr, html.escape(words), tag))

    def figure(self, fig, caption):
        buffer = io.BytesIO()
        fig.savefig(buffer, format="png", dpi=80, bbox_inches="tight")
        plt.close(fig)
        self.plots += 1
        data = base64.b64encode(buffer.getvalue()).decode("ascii")
        self.add('<figure><img class="plot" alt="%s" src="data:image/png;base64,%s">'
                 "<figcaption>%s</figcaption></figure>"
                 % (html.escape(caption, quote=True), data, html.escape(caption)))


def case_keys(runs, backends=None):
    """Every case[/variant] in the runs (with rows of `backends`, else any), in the order first
    seen."""
    keys = []
    for run in runs:
        for result in run.results.values():
            if backends and result["backend"] not in backends:
                continue
            if result["case"] not in keys:
                keys.append(result["case"])
    return keys


def series_label(result):
    if result["mode"] is None:  # a peer's row
        return "%s %dT" % (result["backend"], result["threads"])
    return "%s %s %dT" % (result["backend"], result["mode"], result["threads"])


def history_section(page, bench_runs, backends=("cpu",), machine_name=None):
    """One figure per case: the rows of `backends` across the series' runs."""
    machine_name = machine_name or history.machine_label(bench_runs[-1].machine)
    page.text("h3", "Throughput and ratio to copy across this machine's runs")
    page.text("p", "One figure per case: GB/s (1e9 bytes of the suite's effective bytes per "
                   "second) and copy_ratio (gs's bytes/s over a copy of the same bytes timed "
                   "between its calls: 1.0 is the fastest copy; it moves less with the machine than "
                   "GB/s does), one line per backend, checking mode and thread count; the shaded "
                   "band is copy_ratio's spread (min to max over the run's pairs and repetitions).")
    labels = [run.when.strftime("%m-%d %H:%M") + "\n" + run.host for run in bench_runs]
    # At most 8 labelled runs, the first and the last among them.
    step = max(1, -(-(len(labels) - 1) // 7))
    ticks = sorted(set(range(0, len(labels), step)) | {len(labels) - 1})
    if len(ticks) > 2 and ticks[-1] - ticks[-2] < step / 2:
        del ticks[-2]  # too close to the last run's label
    for key in case_keys(bench_runs, backends):
        series = {}
        for i, run in enumerate(bench_runs):
            for result in run.results.values():
                if result["case"] == key and result["backend"] in backends:
                    series.setdefault(series_label(result), []).append((i, result))
        if not series:
            continue
        fig, axes = plt.subplots(1, 2, figsize=(11, 3.2))
        for counter, ax, title in (("GB_per_s", axes[0], "GB/s"),
                                   ("copy_ratio", axes[1], "ratio to copy")):
            for label in sorted(series):
                points = [(i, r[counter]) for i, r in series[label] if counter in r]
                if points:
                    line, = ax.plot([p[0] for p in points], [p[1] for p in points], marker="o",
                                    markersize=3, label=label)
                band = [(i, r["copy_ratio_min"], r["copy_ratio_max"]) for i, r in series[label]
                        if counter == "copy_ratio" and "copy_ratio_min" in r]
                if points and band:
                    ax.fill_between([b[0] for b in band], [b[1] for b in band],
                                    [b[2] for b in band], color=line.get_color(), alpha=0.15,
                                    linewidth=0)
            ax.set_title(title, fontsize=9)
            ax.set_ylim(bottom=0)
            ax.set_xlim(-0.5, len(labels) - 0.5)
            ax.set_xticks(ticks)
            ax.set_xticklabels([labels[t] for t in ticks], fontsize=6)
            ax.tick_params(axis="y", labelsize=7)
            ax.grid(alpha=0.3)
        if axes[1].get_legend_handles_labels()[0]:  # no copy_ratio in any run: no legend
            axes[1].legend(fontsize=6, loc="center left", bbox_to_anchor=(1.0, 0.5))
            fig.suptitle(key, fontsize=10)
        page.figure(fig, "%s: GB/s and ratio to copy, %d run(s) of %s"
                    % (key, len(bench_runs), machine_name))


def grouped_bars(ax, groups, bars, values, ylabel):
    """Bars for each group (x) and bar name; values[(group, bar)], missing ones left out."""
    width = 0.8 / max(len(bars), 1)
    for j, bar in enumerate(bars):
        xs = [i + (j - (len(bars) - 1) / 2) * width for i, g in enumerate(groups) if (g, bar) in values]
        ys = [values[(g, bar)] for g in groups if (g, bar) in values]
        if xs:
            ax.bar(xs, ys, width, label=bar)
    ax.set_xticks(range(len(groups)))
    ax.set_xticklabels(groups, rotation=35, ha="right", fontsize=6)
    ax.set_ylabel(ylabel, fontsize=8)
    ax.tick_params(axis="y", labelsize=7)
    ax.grid(axis="y", alpha=0.3)
    if ax.get_legend_handles_labels()[0]:
        ax.legend(fontsize=6)


def describe(run):
    return "%s (%s)" % (run.label, os.path.basename(run.path))


def d3d12_section(page, bench_runs):
    page.text("h2", "CPU against D3D12")
    gpu_runs = [r for r in bench_runs if any(x["backend"] == "d3d12" for x in r.results.values())]
    if not gpu_runs:
        page.text("p", "No run in the history has D3D12 rows yet (gs-bench names them "
                       ".../d3d12/<mode>/threads:0 once the D3D12 path is built), so there is "
                       "nothing to compare.", cls="none")
        return
    run = gpu_runs[-1]
    # Its CPU rows: its own, else those of the same host's run of the same sitting.
    cpu_run = run if run.has_backend("cpu") else next(
        (r for r in reversed(bench_runs) if r.host == run.host and r.has_backend("cpu")
         and abs(r.when - run.when) <= history.SITTING), None)
    page.text("p", "Latest run with D3D12 rows: %s. CPU bars are the CPU backend at its largest "
                   "thread count%s." % (describe(run), "" if cpu_run in (run, None) else
                                        ", from " + describe(cpu_run)))
    fig, axes = plt.subplots(1, 2, figsize=(11, 3.6), sharey=True)
    for ax, mode in zip(axes, history.MODES):
        values, best_threads = {}, {}
        rows = list(run.results.values())
        if cpu_run is not None and cpu_run is not run:
            rows += [x for x in cpu_run.results.values() if x["backend"] == "cpu"]
        for x in rows:
            if x["mode"] != mode or "GB_per_s" not in x:
                continue
            if x["backend"] == "d3d12":
                values[(x["case"], "d3d12")] = x["GB_per_s"]
            elif x["backend"] == "cpu" and x["threads"] >= best_threads.get(x["case"], 0):
                best_threads[x["case"]] = x["threads"]
                values[(x["case"], "cpu")] = x["GB_per_s"]
        groups = [k for k in case_keys([run]) if (k, "d3d12") in values or (k, "cpu") in values]
        grouped_bars(ax, groups, ["cpu", "d3d12"], values, "GB/s")
        ax.set_title(mode, fontsize=9)
    page.figure(fig, "CPU against D3D12, GB/s, %s" % run.label)


def peers_section(page, bench_runs, peer_runs):
    page.text("h2", "The library against its peers")
    if not peer_runs:
        page.text("p", "No peer comparison run (<time>-<host>-peers.json) in the history yet.",
                  cls="none")
        return
    peers = peer_runs[-1]
    # The gs-bench run to set beside it: the latest from the same host, else the latest.
    same_host = [r for r in bench_runs if r.host == peers.host]
    bench = (same_host or bench_runs or [None])[-1]
    page.text("p", "Peers: %s. gs: %s. GB/s of the same suite cases and bytes; gs on the CPU "
                   "backend, checked and unchecked." % (describe(peers),
                                                        describe(bench) if bench else "no run"))
    threads = sorted({x["threads"] for x in peers.results.values()})
    fig, axes = plt.subplots(1, len(threads), figsize=(5.5 * len(threads), 3.8), squeeze=False)
    for ax, n in zip(axes[0], threads):
        values = {}
        for x in peers.results.values():
            if x["threads"] == n and "GB_per_s" in x:
                values[(x["case"], x["backend"])] = x["GB_per_s"]
        groups = [k for k in case_keys([peers]) if any((k, p) in values for p in PEERS)]
        if bench:
            for x in bench.results.values():
                if x["backend"] == "cpu" and x["threads"] == n and x["case"] in groups:
                    values[(x["case"], "gs " + x["mode"])] = x["GB_per_s"]
        present = sorted({b for _, b in values})
        bars = [b for b in ("gs checked", "gs unchecked") + PEERS if b in present]
        bars += [b for b in present if b not in bars]
        grouped_bars(ax, groups, bars, values, "GB/s")
        ax.set_title("threads: %d" % n, fontsize=9)
    page.figure(fig, "gs against its peers, GB/s, %s" % peers.label)


def scaling_section(page, bench_runs):
    page.text("h2", "Thread scaling")
    run = ([r for r in bench_runs if r.has_backend("cpu")] or bench_runs)[-1]
    page.text("p", "Latest run: %s. GB/s at each thread count over GB/s on one thread, CPU "
                   "backend (1.0: no gain from more threads)." % describe(run))
    fig, axes = plt.subplots(1, 2, figsize=(11, 3.6), sharey=True)
    for ax, mode in zip(axes, history.MODES):
        one = {x["case"]: x["GB_per_s"] for x in run.results.values()
               if x["backend"] == "cpu" and x["mode"] == mode and x["threads"] == 1}
        values = {}
        for x in run.results.values():
            if x["backend"] == "cpu" and x["mode"] == mode and x["case"] in one and one[x["case"]]:
                values[(x["case"], "%d threads" % x["threads"])] = x["GB_per_s"] / one[x["case"]]
        counts = sorted({x["threads"] for x in run.results.values() if x["backend"] == "cpu"})
        grouped_bars(ax, [k for k in case_keys([run]) if k in one],
                     ["%d threads" % n for n in counts], values, "speed-up over 1 thread")
        ax.axhline(1.0, color="black", linewidth=0.6)
        ax.set_title(mode, fontsize=9)
    page.figure(fig, "thread scaling, %s" % run.label)


def verdict_table(page, rows, value_name, how):
    """The latest run against its baseline: one row per benchmark, regressions first."""
    page.text("p", how)
    order = {"REGRESSION": 0, "noisy": 1, "retimed": 2, "improvement": 3, "ok": 4}
    page.add("<table class=\"verdicts\"><tr><th>benchmark</th><th>baseline %s</th>"
             "<th>latest %s</th><th>change</th><th>verdict</th></tr>" % (value_name, value_name))
    for name, old, new, change, verdict in sorted(rows, key=lambda r: (order[r[4]], r[0])):
        page.add('<tr class="%s">' % verdict.lower() + "".join(
            "<td>%s</td>" % html.escape(v) for v in (
                name, "%.4g" % old, "%.4g" % new, "%+.1f%%" % (100 * change), verdict)) + "</tr>")
    page.add("</table>")


def latest_section(page, machine_runs, kind):
    """The latest run of the series against the one before it (the baseline)."""
    latest = machine_runs[-1]
    if len(machine_runs) < 2:
        page.text("p", "One %s run on this machine (%s): no baseline to compare with yet."
                  % (kind, describe(latest)), cls="none")
        return
    baseline = machine_runs[-2]
    page.text("h3", "Latest %s run against its baseline" % kind)
    if kind == "gs-counts":
        rows = gs_gate.count_verdicts(baseline.doc, latest.doc, "instructions_per_call",
                                      gs_gate.COUNT_TOLERANCE)
        how = ("%s against %s: instructions per call under callgrind (deterministic); the gate's "
               "verdict: a regression beyond %.0f%%." % (describe(latest), describe(baseline),
                                                         100 * gs_gate.COUNT_TOLERANCE))
        verdict_table(page, rows, "instructions", how)
        return
    rows = gs_gate.band_verdicts(baseline.doc, latest.doc, gs_gate.WALL_TOLERANCE)
    how = ("%s against %s: copy-normalised time (1 / copy_ratio, lower is better); a change "
           "beyond %.0f%% is a regression when the two runs' noise bands (copy_ratio min to max) "
           "are apart, else noisy; retimed when the two runs timed a CPU row two ways (gs-bench's "
           "blocks, 2026-12-02). gs_gate.py's U test needs runs of %d or more repetitions."
           % (describe(latest), describe(baseline), 100 * gs_gate.WALL_TOLERANCE,
              gs_gate.MIN_REPETITIONS))
    verdict_table(page, rows, "1/copy_ratio", how)


def counts_history_section(page, count_runs):
    """Instructions per call across the machine's count runs, relative to its first."""
    page.text("h3", "Instructions per call across this machine's count runs")
    first = count_runs[0].results
    fig, ax = plt.subplots(figsize=(11, 3.6))
    for name in sorted(first):
        points = [(i, run.results[name]["instructions_per_call"] / first[name]["instructions_per_call"])
                  for i, run in enumerate(count_runs) if name in run.results]
        ax.plot([p[0] for p in points], [p[1] for p in points], marker="o", markersize=3,
                label=name.replace("/cpu/", " ").replace("/threads:1", ""))
    ax.set_xticks(range(len(count_runs)))
    ax.set_xticklabels([r.when.strftime("%m-%d %H:%M") for r in count_runs], fontsize=6)
    ax.set_ylabel("over the first run", fontsize=8)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=5, ncol=2, loc="center left", bbox_to_anchor=(1.0, 0.5))
    page.figure(fig, "instructions per call over the first count run, %d run(s) of %s"
                % (len(count_runs), history.machine_label(count_runs[-1].machine)))


def gaps_note(page, run):
    """What of the machine the series' latest run could not tell, and why."""
    gaps = history.machine_gaps(run.context, run.kind)
    if gaps:
        page.text("p", "Not read from %s: %s." % (os.path.basename(run.path), history.gaps_text(gaps)),
                  cls="gaps")


def cpu_section(page, machine, bench, counts):
    label = history.machine_label(machine)
    page.add('<section class="machine" data-machine="%s">' % html.escape(label, quote=True))
    page.text("h2", "Machine: " + label)
    gaps_note(page, (bench.get(machine) or counts.get(machine))[-1])
    if machine in bench:
        latest_section(page, bench[machine], "gs-bench")
    if machine in counts:
        latest_section(page, counts[machine], "gs-counts")
    if machine in bench:
        history_section(page, bench[machine])
    if machine in counts:
        counts_history_section(page, counts[machine])
    page.add("</section>")


def gpu_section(page, key, gpu_runs, runs):
    """A GPU's series: gs's d3d12 rows across its runs, torch_cuda's beside them."""
    label = history.gpu_label(key)
    page.add('<section class="gpu" data-gpu="%s">' % html.escape(label, quote=True))
    page.text("h2", "GPU: " + label)
    gs_runs = [r for r in gpu_runs if r.has_backend("d3d12")]
    cuda_runs = [r for r in gpu_runs if r.has_backend("torch_cuda")]
    gpu, where = history.gpu_of((gs_runs or gpu_runs)[-1], runs)
    page.text("p", ("GPU name read from the %s." % where) if gpu else ("GPU not recorded: %s." % where),
              cls=None if gpu else "gaps")
    page.text("p", "gs-bench runs with d3d12 rows: %s. torch_cuda runs: %s." % (
        ", ".join(describe(r) for r in gs_runs) or "none",
        ", ".join(describe(r) for r in cuda_runs) or "none"))
    if len(gs_runs) >= 2:
        latest_section(page, gs_runs, "gs-bench")
    latest = [r for r in (gs_runs[-1:] + cuda_runs[-1:])]
    fig, axes = plt.subplots(1, 2, figsize=(11, 3.6))
    for ax, counter, title in ((axes[0], "GB_per_s", "GB/s"), (axes[1], "copy_ratio", "ratio to copy")):
        values = {}
        for run in latest:
            for x in run.results.values():
                if x["backend"] in history.GPU_BACKENDS and counter in x:
                    bar = x["backend"] + (" " + x["mode"] if x["mode"] else "")
                    values[(x["case"], bar)] = x[counter]
        bars = sorted({b for _, b in values})
        grouped_bars(ax, case_keys(latest, history.GPU_BACKENDS), bars, values, title)
    page.figure(fig, "%s: gs d3d12 against torch_cuda, latest runs (%s)"
                % (label, ", ".join(r.label + " " + r.kind for r in latest)))
    if gs_runs:
        history_section(page, gpu_runs, history.GPU_BACKENDS, label)
    page.add("</section>")


def machine_sections(page, runs):
    """One section per CPU machine (its latest runs against their baselines, then its history)
    and one per GPU; the machine of the newest run first."""
    bench, counts = history.series(runs, "gs-bench"), history.series(runs, "gs-counts")
    gpus = history.gpu_series(runs)
    sections = [(max(r.when for r in bench.get(m, []) + counts.get(m, [])),
                 lambda m=m: cpu_section(page, m, bench, counts))
                for m in list(bench) + [m for m in counts if m not in bench]]
    sections += [(gpus[k][-1].when, lambda k=k: gpu_section(page, k, gpus[k], runs)) for k in gpus]
    for _, write in sorted(sections, key=lambda s: s[0], reverse=True):
        write()


STYLE = """
body { font-family: sans-serif; margin: 1.5em; max-width: 1200px; color: #222; }
table { border-collapse: collapse; font-size: 0.85em; }
td, th { border: 1px solid #ccc; padding: 0.2em 0.5em; text-align: left; }
figure { margin: 1em 0; }
img.plot { max-width: 100%; }
figcaption { font-size: 0.8em; color: #555; }
p.none { font-style: italic; }
p.lead { font-size: 1.1em; }
p.gaps { color: #a40; }
tr.regression td { background: #fdd; }
tr.noisy td { background: #ffd; }
tr.retimed td { background: #eef; }
tr.improvement td { background: #dfd; }
"""


def build_page(runs, generated):
    bench_runs = [r for r in runs if r.kind == "gs-bench"]
    count_runs = [r for r in runs if r.kind == "gs-counts"]
    peer_runs = [r for r in runs if r.kind == "peers"]
    page = Page()
    page.text("h1", "gs performance history")
    if runs:
        newest = runs[-1]
        lead = "Newest run: %s %s on %s" % (describe(newest), newest.kind,
                                             history.machine_label(newest.machine))
        gaps = history.machine_gaps(newest.context, newest.kind)
        if any(newest.has_backend(b) for b in history.GPU_BACKENDS):
            gpu, where = history.gpu_of(newest, runs)
            lead += ", GPU %s" % gpu if gpu else ", GPU not recorded (%s)" % where
        page.text("p", lead + (" (not read: %s)." % history.gaps_text(gaps) if gaps else "."),
                  cls="lead")
    page.text("p", "Generated %s from %d run(s): %d gs-bench, %d gs-counts, %d peers. Source: "
                   "perf/results/runs/ (Google Benchmark JSON); gate and format: perf/README.md."
              % (generated, len(runs), len(bench_runs), len(count_runs), len(peer_runs)))
    page.add("<table class=\"runs\"><tr><th>run</th><th>host</th><th>kind</th><th>machine</th>"
             "<th>machine fields not read</th><th>mode</th><th>benchmarks</th></tr>")
    for run in reversed(runs):
        machine = history.machine_label(run.machine)
        page.add("<tr>" + "".join("<td>%s</td>" % html.escape(str(v)) for v in (
            run.when.strftime("%Y-%m-%d %H:%M:%S"), run.host, run.kind, machine,
            history.gaps_text(history.machine_gaps(run.context, run.kind)),
            run.context.get("gs_bench_mode", run.context.get("mode", "")), len(run.results))) + "</tr>")
    page.add("</table>")
    machine_sections(page, runs)
    if bench_runs:
        d3d12_section(page, bench_runs)
        peers_section(page, bench_runs, peer_runs)
        scaling_section(page, bench_runs)
    else:
        page.text("p", "No gs-bench run in the history yet.", cls="none")
    return ('<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
            '<link rel="icon" href="data:,"><title>gs performance history</title>'
            "<style>%s</style></head>\n<body data-plots=\"%d\">\n%s\n</body></html>\n"
            % (STYLE, page.plots, "\n".join(page.parts)))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", required=True, help="the history: a folder of run files")
    parser.add_argument("--out", required=True, help="folder for index.html")
    args = parser.parse_args(argv)
    try:
        runs = history.load_history(args.runs)
    except (OSError, history.HistoryError) as e:
        print("gs-report: %s" % e, file=sys.stderr)
        return 2
    generated = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    os.makedirs(args.out, exist_ok=True)
    path = os.path.join(args.out, "index.html")
    with open(path, "w") as f:
        f.write(build_page(runs, generated))
    print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
