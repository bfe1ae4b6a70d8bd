"""Unit tests of the dashboard's scripts (ctest: dashboard.unit): history parsing, the gate's
decisions with compare.py's real U test on made-up repetitions, and the report's sections."""

import contextlib
import io
import json
import os
import re
import shutil
import statistics
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
import gs_gate  # noqa: E402
import gs_report  # noqa: E402
import history  # noqa: E402

FIXTURES = os.path.join(HERE, "fixtures", "runs")


class NamesTest(unittest.TestCase):
    def test_gs_bench_names(self):
        self.assertEqual(history.parse_name("gather_nd/f32/rows256/q1/i64/cpu/checked/threads:2", "gs-bench"),
                         ("gather_nd/f32/rows256/q1/i64", "cpu", "checked", 2))
        self.assertEqual(history.parse_name("scatter_nd/f32/rows256/q1/i64/inplace/d3d12/unchecked/threads:0",
                                            "gs-bench"),
                         ("scatter_nd/f32/rows256/q1/i64/inplace", "d3d12", "unchecked", 0))

    def test_peer_names(self):
        self.assertEqual(history.parse_name("gather/f32/embedding/axis0/i64/torch/threads:1", "peers"),
                         ("gather/f32/embedding/axis0/i64", "torch", None, 1))

    def test_bad_names(self):
        for name in ("gather/cpu/checked", "gather/cpu/checked/threads:x", "gather/cpu/fast/threads:1"):
            with self.assertRaises(history.HistoryError, msg=name):
                history.parse_name(name, "gs-bench")

    def test_run_file_names(self):
        import datetime
        when = datetime.datetime(2026, 11, 21, 9, 5, 7)
        self.assertEqual(history.run_file_name(when, "ci-runner-1", "gs-bench"),
                         "2026-11-21T090507Z-ci-runner-1-gs-bench.json")
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "2026-11-21-host-gs-bench.json")
            with open(path, "w") as f:
                f.write("{}")
            with self.assertRaisesRegex(history.HistoryError, "not named"):
                history.load_history(d)


class RunTest(unittest.TestCase):
    def test_median_of_repetitions_without_aggregates(self):
        path = os.path.join(FIXTURES, "2026-11-19T093000Z-fixture-a-gs-bench.json")
        run = history.Run(path)
        self.assertEqual((run.host, run.kind), ("fixture-a", "gs-bench"))
        with open(path) as f:
            rows = json.load(f)["benchmarks"]
        name = "gather_nd/f32/rows256/q1/i64/cpu/checked/threads:1"
        reps = [r for r in rows if r["name"] == name and r["run_type"] == "iteration"]
        self.assertEqual(len(reps), 3)
        self.assertEqual(run.results[name]["repetitions"], 3)
        self.assertEqual(run.results[name]["GB_per_s"], statistics.median(r["GB_per_s"] for r in reps))
        self.assertNotIn(name + "_median", run.results)

    def test_per_call_benchmarks_are_not_throughputs(self):
        # gs-bench's small/ operators report a time per call and no bytes: the history (and so
        # the report) leaves them out instead of failing on them.
        doc = {"context": {}, "benchmarks": [
            {"name": "small/gather/f32/8x8/q1/i64/cpu/checked/threads:1", "run_type": "iteration",
             "real_time": 215.0, "cpu_time": 214.0, "time_unit": "ns", "iterations": 10, "threads": 1},
            {"name": "gather/f32/embedding/axis0/i64/cpu/checked/threads:1", "run_type": "iteration",
             "real_time": 1e6, "cpu_time": 1e6, "time_unit": "ns", "iterations": 10,
             "bytes_per_second": 2e9, "copy_ratio": 0.5, "threads": 1}]}
        with tempfile.TemporaryDirectory() as runs:
            path = os.path.join(runs, "2026-11-21T120000Z-host-gs-bench.json")
            with open(path, "w") as f:
                json.dump(doc, f)
            run = history.Run(path)
            self.assertEqual(list(run.results), ["gather/f32/embedding/axis0/i64/cpu/checked/threads:1"])
            self.assertEqual(run.results["gather/f32/embedding/axis0/i64/cpu/checked/threads:1"]["GB_per_s"], 2.0)
            out = os.path.join(runs, "report")
            with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
                self.assertEqual(gs_report.main(["--runs", runs, "--out", out]), 0)
            self.assertTrue(os.path.exists(os.path.join(out, "index.html")))

    def test_history_is_in_time_order(self):
        runs = history.load_history(FIXTURES)
        self.assertEqual([r.when for r in runs], sorted(r.when for r in runs))
        self.assertEqual([r.kind for r in runs].count("peers"), 1)

    def test_series_per_machine(self):
        runs = history.load_history(FIXTURES)
        bench = history.series(runs, "gs-bench")
        self.assertEqual([history.machine_label(m) for m in bench],
                         ["Fixture CPU, 2 cores, kernel set not recorded, LLC not recorded",
                          "Fixture CPU B, 4 cores, avx512, LLC 512 MiB"])
        self.assertEqual([len(r) for r in bench.values()], [3, 1])
        counts = history.series(runs, "gs-counts")
        self.assertEqual(list(counts), list(bench)[:1])  # machine A's counts join its series
        self.assertEqual(len(counts[list(bench)[0]]), 2)

    def test_machine_fields_not_read_say_which_and_why(self):
        # Fixture A's gs-bench runs predate kernel_set and llc_bytes and list no caches.
        run = history.Run(os.path.join(FIXTURES, "2026-11-19T093000Z-fixture-a-gs-bench.json"))
        self.assertEqual(history.machine_gaps(run.context, run.kind),
                         [("kernel set", "the context has no kernel_set (gs-bench writes it since 2026-11-23)"),
                          ("LLC", "the context has no llc_bytes (gs-bench writes it since 2026-11-23) "
                                  "and Google Benchmark listed no caches")])
        peers = history.Run(os.path.join(FIXTURES, "2026-11-21T100000Z-fixture-a-peers.json"))
        self.assertEqual([f for f, _ in history.machine_gaps(peers.context, "peers")], ["kernel set", "LLC"])
        self.assertIn("no gs kernel set", history.gaps_text(history.machine_gaps(peers.context, "peers")))
        self.assertEqual(history.machine_gaps({"cpu_model": "X", "cores": "2", "kernel_set": "avx2",
                                               "llc_bytes": "1"}, "gs-bench"), [])
        self.assertEqual(history.machine_label(history.machine_of({})),
                         "cpu model not recorded, cores not recorded, kernel set not recorded, "
                         "LLC not recorded")
        self.assertEqual(history.machine_gaps({}, "gs-bench")[0],
                         ("cpu model", "the context has neither cpu_model nor host_name"))

    def test_gpu_rows_are_a_series_of_their_own(self):
        runs = history.load_history(FIXTURES)
        gpus = history.gpu_series(runs)
        # Fixture A's third run has d3d12 rows; nothing names its GPU.
        self.assertEqual([history.gpu_label(k) for k in gpus], ["GPU not recorded on Fixture CPU, 2 cores"])
        gpu, why = history.gpu_of(list(gpus.values())[0][0], runs)
        self.assertIsNone(gpu)
        self.assertIn("names no GPU", why)

    def test_noise_band_over_pairs_and_repetitions(self):
        run = history.Run(os.path.join(FIXTURES, "2026-11-22T093000Z-fixture-b-gs-bench.json"))
        result = run.results["gather_nd/f32/rows256/q1/i64/cpu/checked/threads:1"]
        self.assertLess(result["copy_ratio_min"], result["copy_ratio"])
        self.assertGreater(result["copy_ratio_max"], result["copy_ratio"])


MACHINE_A = {"cpu_model": "Machine A", "cores": "2", "kernel_set": "avx2", "llc_bytes": "33554432"}
MACHINE_B = {"cpu_model": "Machine B", "cores": "2", "kernel_set": "avx2", "llc_bytes": "33554432"}


def fake_counts(instructions, machine=None):
    """A gs-counts run: one row per name with its instructions per call."""
    rows = [{"name": n, "run_name": n, "run_type": "iteration", "iterations": 5,
             "instructions_per_call": v, "ll_misses_per_call": v / 100,
             "d1_misses_per_call": v / 10, "est_cycles_per_call": 3 * v}
            for n, v in instructions.items()]
    return {"context": dict(machine or MACHINE_A), "benchmarks": rows}


def fake_run(ratios, gb_per_s=1.0):
    """Google Benchmark JSON: for each name, one repetition row per copy_ratio value."""
    rows = []
    for name, values in ratios.items():
        for i, ratio in enumerate(values):
            rows.append({"name": name, "run_name": name, "run_type": "iteration",
                         "repetitions": len(values), "repetition_index": i, "iterations": 3,
                         "real_time": 1.0 / gb_per_s, "cpu_time": 1.0 / gb_per_s,
                         "time_unit": "ms", "GB_per_s": gb_per_s, "copy_ratio": ratio})
    return {"context": {}, "benchmarks": rows}


SPREAD = [0.97, 1.02, 0.99, 1.04, 0.96, 1.01, 1.03, 0.98, 1.00]  # +-4 %, 9 repetitions
A = "gather/f32/embedding/axis0/i64/cpu/checked/threads:1"
B = "gather_nd/f32/rows256/q1/i64/cpu/unchecked/threads:2"


class GateTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()

    def tearDown(self):
        shutil.rmtree(self.dir)

    def gate(self, baseline, contender, *flags):
        paths = []
        for i, doc in enumerate((baseline, contender)):
            paths.append(os.path.join(self.dir, "run%d.json" % i))
            with open(paths[-1], "w") as f:
                json.dump(doc, f)
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            status = gs_gate.main(paths + list(flags))
        return status, out.getvalue() + err.getvalue()

    def verdict(self, report, name):
        match = re.search(r"^(\S+) +%s:" % re.escape(name), report, re.M)
        return match.group(1) if match else None

    def test_same_figures_in_another_order_pass(self):
        base = fake_run({A: [0.4 * s for s in SPREAD], B: [0.2 * s for s in SPREAD]})
        again = fake_run({A: [0.4 * s for s in reversed(SPREAD)], B: [0.2 * s for s in SPREAD[::2] + SPREAD[1::2]]})
        status, report = self.gate(base, again)
        self.assertEqual(status, 0, report)
        self.assertEqual(self.verdict(report, A), "ok")
        self.assertEqual(self.verdict(report, B), "ok")

    def test_half_the_ratio_is_a_regression_of_that_benchmark_only(self):
        base = fake_run({A: [0.4 * s for s in SPREAD], B: [0.2 * s for s in SPREAD]})
        slow = fake_run({A: [0.2 * s for s in SPREAD], B: [0.2 * s for s in reversed(SPREAD)]})
        status, report = self.gate(base, slow)
        self.assertEqual(status, 1, report)
        self.assertEqual(self.verdict(report, A), "REGRESSION")
        self.assertEqual(self.verdict(report, B), "ok")
        self.assertIn("+100.0% normalised time", report)

    def test_a_slower_machine_with_the_same_ratios_is_no_regression(self):
        # Half the GB/s (and twice the time) everywhere, but the copy was as much slower.
        base = fake_run({A: [0.4 * s for s in SPREAD]}, gb_per_s=8.0)
        slower_machine = fake_run({A: [0.4 * s for s in reversed(SPREAD)]}, gb_per_s=4.0)
        self.assertEqual(self.gate(base, slower_machine)[0], 0)

    def test_significant_but_within_tolerance_passes(self):
        base = fake_run({A: [0.4 * s for s in SPREAD]})
        slightly = fake_run({A: [0.4 / 1.15 * s for s in SPREAD]})  # 15 % slower
        status, report = self.gate(base, slightly)
        self.assertEqual(status, 0, report)
        self.assertIn("+15.0% normalised time", report)
        status, report = self.gate(base, slightly, "--tolerance", "0.1")
        self.assertEqual(status, 1, report)

    def test_a_big_but_noisy_change_is_not_significant(self):
        base = fake_run({A: [0.4, 0.1, 0.4, 0.1, 0.4, 0.1, 0.4, 0.1, 0.4]})
        other = fake_run({A: [0.1, 0.4, 0.1, 0.4, 0.1, 0.4, 0.1, 0.4, 0.1]})
        status, report = self.gate(base, other)
        self.assertEqual(status, 0, report)
        self.assertEqual(self.verdict(report, A), "ok")

    def test_too_few_repetitions_is_an_error(self):
        base = fake_run({A: [0.4, 0.41, 0.39]})
        status, report = self.gate(base, base)
        self.assertEqual(status, 2)
        self.assertIn("the U test needs at least 4", report)

    def test_no_copy_ratio_in_common_is_an_error(self):
        base = fake_run({A: [0.4 * s for s in SPREAD]})
        for row in base["benchmarks"]:
            del row["copy_ratio"]
        status, report = self.gate(base, base)
        self.assertEqual(status, 2)
        self.assertIn("no benchmark with a copy_ratio in common", report)

    def test_missing_and_new_benchmarks_are_listed(self):
        base = fake_run({A: [0.4 * s for s in SPREAD], B: [0.2 * s for s in SPREAD]})
        other = fake_run({A: [0.4 * s for s in SPREAD]})
        status, report = self.gate(base, other)
        self.assertEqual(status, 0, report)
        self.assertIn("missing     %s: in the baseline only" % B, report)
        status, report = self.gate(other, base)
        self.assertIn("new         %s: not in the baseline" % B, report)

    def test_a_cpu_row_across_the_block_timing_is_retimed_not_a_regression(self):
        # Since 2026-12-02 gs-bench times its CPU rows in blocks (context copy_timing "blocks").
        before = fake_run({A: [0.4 * s for s in SPREAD], B: [0.2 * s for s in SPREAD]})
        blocks = fake_run({A: [0.2 * s for s in SPREAD], B: [0.2 * s for s in reversed(SPREAD)]})
        blocks["context"]["copy_timing"] = "blocks"
        status, report = self.gate(before, blocks)
        self.assertEqual(status, 0, report)
        self.assertEqual(self.verdict(report, A), "retimed")
        self.assertEqual(self.verdict(report, B), "ok")
        self.assertIn("the runs timed their CPU rows two ways (the contender in blocks", report)
        both = json.loads(json.dumps(before))
        both["context"]["copy_timing"] = "blocks"
        status, report = self.gate(both, blocks)
        self.assertEqual(status, 1, report)
        self.assertEqual(self.verdict(report, A), "REGRESSION")

    def test_compare_py_missing_is_an_error(self):
        base = fake_run({A: [0.4 * s for s in SPREAD]})
        status, report = self.gate(base, base, "--tools", self.dir)
        self.assertEqual(status, 2)
        self.assertIn("compare.py not found", report)


    def test_runs_of_two_machines_are_refused_unless_allowed(self):
        base = fake_run({A: [0.4 * s for s in SPREAD]})
        other = fake_run({A: [0.4 * s for s in SPREAD]})
        base["context"], other["context"] = dict(MACHINE_A), dict(MACHINE_B)
        status, report = self.gate(base, other)
        self.assertEqual(status, 2, report)
        self.assertIn("the runs come from two machines", report)
        self.assertIn("Machine A, 2 cores, avx2, LLC 32 MiB", report)
        status, report = self.gate(base, other, "--allow-other-machine")
        self.assertEqual(status, 0, report)
        self.assertIn("machines differ", report)

    def test_one_model_name_of_two_core_designs_is_two_machines(self):
        # A VM's "AMD EPYC" is Zen 3 or Zen 4: the cpu_id tells them apart, in the series and
        # at the gate; a run from before cpu_id was written is not refused for lacking it.
        zen3 = dict(MACHINE_A, cpu_id="AuthenticAMD family 25 model 1 stepping 1")
        zen4 = dict(MACHINE_A, cpu_id="AuthenticAMD family 25 model 17 stepping 1")
        self.assertEqual(history.machine_label(history.machine_of(zen3)),
                         "Machine A (AuthenticAMD family 25 model 1 stepping 1), 2 cores, avx2, LLC 32 MiB")
        self.assertNotEqual(history.machine_of(zen3), history.machine_of(zen4))
        base = fake_run({A: [0.4 * s for s in SPREAD]})
        other = fake_run({A: [0.4 * s for s in SPREAD]})
        base["context"], other["context"] = zen3, zen4
        status, report = self.gate(base, other)
        self.assertEqual(status, 2, report)
        self.assertIn("the runs come from two machines", report)
        base["context"], other["context"] = dict(MACHINE_A), zen3
        status, report = self.gate(base, other)
        self.assertEqual(status, 0, report)

    def test_counts_gate_flags_the_grown_benchmark_only(self):
        base = fake_counts({A: 1e6, B: 2e6})
        slower = fake_counts({A: 1.2e6, B: 2e6})
        status, report = self.gate(base, slower)
        self.assertEqual(status, 1, report)
        self.assertEqual(self.verdict(report, A), "REGRESSION")
        self.assertEqual(self.verdict(report, B), "ok")
        self.assertIn("+20.00% instructions_per_call", report)
        self.assertEqual(self.gate(base, fake_counts({A: 1e6, B: 2e6}))[0], 0)
        # 1.5 % is within the default 2 %; not with --tolerance 0.01.
        self.assertEqual(self.gate(base, fake_counts({A: 1.015e6, B: 2e6}))[0], 0)
        self.assertEqual(self.gate(base, fake_counts({A: 1.015e6, B: 2e6}), "--tolerance", "0.01")[0], 1)

    def test_counts_gate_on_another_metric_and_kinds_not_mixed(self):
        base, other = fake_counts({A: 1e6}), fake_counts({A: 1e6})
        other["benchmarks"][0]["ll_misses_per_call"] *= 1.5
        self.assertEqual(self.gate(base, other)[0], 0)
        status, report = self.gate(base, other, "--metric", "ll_misses")
        self.assertEqual(status, 1, report)
        status, report = self.gate(base, fake_run({A: SPREAD}))
        self.assertEqual(status, 2)
        self.assertIn("one run is a gs-counts run", report)


class ReportTest(unittest.TestCase):
    def page(self, names):
        with tempfile.TemporaryDirectory() as d:
            for name in names:
                shutil.copy(os.path.join(FIXTURES, name), d)
            return gs_report.build_page(history.load_history(d), "now")

    @staticmethod
    def plots(page):
        count = int(re.search(r'data-plots="(\d+)"', page).group(1))
        return count, page.count('<img class="plot"')

    def test_every_section_with_d3d12_and_peers(self):
        page = self.page(sorted(n for n in os.listdir(FIXTURES) if n.endswith(".json")))
        # Machine A: 3 cases across runs (CPU rows) and its counts; machine B: 3 cases; A's
        # GPU series: its bars and 3 cases of d3d12 rows; CPU against D3D12, peers, thread
        # scaling.
        self.assertEqual(self.plots(page), (14, 14))
        for words in ("CPU against D3D12", "against its peers", "Thread scaling",
                      "gather_nd/f32/rows256/q1/i64", "scatter_nd/f32/rows256/q1/i64/inplace"):
            self.assertIn(words, page)
        self.assertNotIn("No run in the history has D3D12 rows", page)

    def test_no_d3d12_and_no_peers_say_so(self):
        page = self.page(["2026-11-19T093000Z-fixture-a-gs-bench.json",
                          "2026-11-20T093000Z-fixture-a-gs-bench.json"])
        self.assertEqual(self.plots(page), (4, 4))
        self.assertIn("No run in the history has D3D12 rows yet", page)
        self.assertIn("No peer comparison run", page)

    def test_two_machines_are_two_series(self):
        page = self.page(["2026-11-19T093000Z-fixture-a-gs-bench.json",
                          "2026-11-20T093000Z-fixture-a-gs-bench.json",
                          "2026-11-22T093000Z-fixture-b-gs-bench.json"])
        sections = re.findall(r'<section class="machine" data-machine="([^"]*)">(.*?)</section>',
                              page, re.S)
        # The machine of the newest run (B's, 2026-11-22) first.
        self.assertEqual([m for m, _ in sections], ["Fixture CPU B, 4 cores, avx512, LLC 512 MiB",
                                                    "Fixture CPU, 2 cores, kernel set not recorded, "
                                                    "LLC not recorded"])
        (_, b), (_, a) = sections
        # Each machine's plots in its own section, drawn from its own runs only.
        self.assertEqual(a.count('<img class="plot"'), 3)
        self.assertEqual(b.count('<img class="plot"'), 3)
        self.assertIn("2 run(s) of Fixture CPU, 2 cores", a)
        self.assertIn("1 run(s) of Fixture CPU B, 4 cores", b)
        self.assertNotIn("Fixture CPU B", a)
        # A has a baseline (its earlier run): the table; B's single run has none.
        self.assertIn("Latest gs-bench run against its baseline", a)
        self.assertIn("no baseline to compare with yet", b)

    def test_leads_with_the_newest_runs_machine_and_no_question_marks(self):
        for names, newest in (
                (["2026-11-19T093000Z-fixture-a-gs-bench.json", "2026-11-22T093000Z-fixture-b-gs-bench.json"],
                 "Fixture CPU B, 4 cores, avx512, LLC 512 MiB"),
                (["2026-11-22T093000Z-fixture-b-gs-bench.json", "2026-11-22T094000Z-fixture-a-gs-counts.json"],
                 "Fixture CPU, 2 cores, kernel set not recorded, LLC not recorded")):
            page = self.page(names)
            lead = re.search(r'<h1>[^<]*</h1><p class="lead">([^<]*)</p>', page.replace("\n", ""))
            self.assertIsNotNone(lead, "the page does not open with the newest run")
            self.assertIn(" on " + newest, lead.group(1))
            first = re.search(r'<section class="machine" data-machine="([^"]*)">', page).group(1)
            self.assertEqual(first, newest)
        # Fixture A's fields not read: said which and why, in the lead, the runs table and its
        # section; never "?" in any table cell, heading or the lead.
        self.assertIn("(not read: kernel set: the context has no kernel_set", lead.group(1))
        self.assertIn('<p class="gaps">Not read from 2026-11-22T094000Z-fixture-a-gs-counts.json: '
                      'kernel set: the context has no kernel_set', page)
        self.assertIn("<td>kernel set: the context has no kernel_set", page)
        visible = re.sub(r'src="data:[^"]*"', "", page)
        self.assertEqual(re.findall(r"<(?:td|h2|p)[^>]*>[^<]*\?[^<]*<", visible), [])

    def test_a_run_before_the_fastest_copy_is_judged_on_memcpy_ratio(self):
        # Until 2026-11-26 copy_ratio was over memcpy; a newer run keeps that as memcpy_ratio.
        name = "gather/f32/embedding/axis0/i64/cpu/checked/threads:2"
        row = lambda **c: {"name": name, "run_name": name, "run_type": "iteration", **c}
        old = {"context": dict(MACHINE_A), "benchmarks": [row(copy_ratio=1.0)]}
        new = {"context": dict(MACHINE_A), "benchmarks": [row(copy_ratio=0.6, memcpy_ratio=1.0,
                                                              copy_ratio_min=0.5, copy_ratio_max=0.7)]}
        self.assertEqual(gs_gate.ratio_keys(old, new), ("copy_ratio", "memcpy_ratio"))
        self.assertEqual(gs_gate.band_verdicts(old, new, 0.25), [(name, 1.0, 1.0, 0.0, "ok")])
        self.assertEqual(gs_gate.ratio_keys(new, new), ("copy_ratio", "copy_ratio"))

    def test_a_gpu_run_before_the_cached_copy_is_judged_without_it(self):
        # Since 2026-11-28 a gather's GPU copy_ratio is also over a copy from its smaller Input.
        name = "gather/f32/embedding/axis0/i64/d3d12/checked/threads:0"
        row = lambda **c: {"name": name, "run_name": name, "run_type": "iteration", **c}
        old = {"context": dict(MACHINE_A), "benchmarks": [row(copy_ratio=1.0, copy_ratio_region=3.0,
                                                              copy_ratio_kernel=1.0)]}
        new = {"context": dict(MACHINE_A), "benchmarks": [row(copy_ratio=0.5, copy_ratio_region=3.0,
                                                              copy_ratio_kernel=1.0, copy_ratio_cached=0.5)]}
        self.assertEqual(gs_gate.band_verdicts(old, new, 0.25), [(name, 1.0, 1.0, 0.0, "ok")])
        self.assertEqual(gs_gate.band_verdicts(new, old, 0.25), [(name, 1.0, 1.0, 0.0, "ok")])
        slower = {"context": dict(MACHINE_A), "benchmarks": [row(copy_ratio=0.25, copy_ratio_region=1.5,
                                                                 copy_ratio_kernel=0.5, copy_ratio_cached=0.25)]}
        self.assertEqual(gs_gate.band_verdicts(old, slower, 0.25), [(name, 1.0, 2.0, 1.0, "REGRESSION")])
        self.assertEqual(gs_gate.band_verdicts(new, slower, 0.25), [(name, 2.0, 4.0, 1.0, "REGRESSION")])

    def test_the_report_calls_a_change_across_the_block_timing_retimed_on_cpu_rows_only(self):
        cpu = "gather/f32/embedding/axis0/i64/cpu/checked/threads:2"
        gpu = "gather/f32/embedding/axis0/i64/d3d12/checked/threads:0"
        row = lambda name, ratio: {"name": name, "run_name": name, "run_type": "iteration",
                                   "copy_ratio": ratio, "copy_ratio_min": ratio, "copy_ratio_max": ratio}
        old = {"context": dict(MACHINE_A), "benchmarks": [row(cpu, 0.5), row(gpu, 0.5)]}
        new = {"context": dict(MACHINE_A, copy_timing="blocks"),
               "benchmarks": [row(cpu, 0.25), row(gpu, 0.25)]}
        self.assertEqual(gs_gate.band_verdicts(old, new, 0.25),
                         [(cpu, 2.0, 4.0, 1.0, "retimed"), (gpu, 2.0, 4.0, 1.0, "REGRESSION")])
        self.assertEqual(gs_gate.band_verdicts(dict(old, context=new["context"]), new, 0.25)[0][4],
                         "REGRESSION")

    def test_gpu_series_per_gpu_apart_from_the_cpu(self):
        def rows(backend, threads, gbs, case="gather/f32/embedding/axis0/i64", modes=("checked", "unchecked")):
            name = lambda m: "/".join([case, backend] + ([m] if m else []) + ["threads:%d" % threads])
            return [{"name": name(m), "run_name": name(m), "run_type": "iteration", "iterations": 3,
                     "real_time": 1.0, "cpu_time": 1.0, "time_unit": "ms", "bytes_per_second": gbs * 1e9,
                     "GB_per_s": gbs, "copy_ratio": gbs / 100, "threads": threads} for m in modes]
        host = {"cpu_model": "Host CPU", "cores": "16", "kernel_set": "avx512", "llc_bytes": "314572800"}
        docs = {
            "2026-11-25T100000Z-vm-gs-bench.json": {"context": dict(MACHINE_A), "benchmarks": rows("cpu", 2, 20)},
            "2026-11-26T112935Z-h100-gs-bench.json": {"context": dict(host), "benchmarks": rows("d3d12", 0, 600)},
            "2026-11-26T113002Z-h100-peers.json": {
                "context": {"cpu_model": "Host CPU", "num_cpus": 16, "cuda_device": "Fixture GPU"},
                "benchmarks": rows("torch_cuda", 0, 2000, modes=(None,))},
            "2026-11-26T113018Z-h100-gs-bench.json": {"context": dict(host), "benchmarks": rows("cpu", 16, 200)},
        }
        with tempfile.TemporaryDirectory() as d:
            for name, doc in docs.items():
                with open(os.path.join(d, name), "w") as f:
                    json.dump(doc, f)
            runs = history.load_history(d)
            page = gs_report.build_page(runs, "now")
        self.assertEqual([history.gpu_label(k) for k in history.gpu_series(runs)],
                         ["Fixture GPU on Host CPU, 16 cores"])
        gpu = re.findall(r'<section class="gpu" data-gpu="([^"]*)">(.*?)</section>', page, re.S)
        self.assertEqual([g for g, _ in gpu], ["Fixture GPU on Host CPU, 16 cores"])
        body = gpu[0][1]
        self.assertIn("GPU name read from the cuda_device of 2026-11-26T113002Z-h100-peers.json", body)
        self.assertIn("2026-11-26T112935Z-h100-gs-bench.json", body)
        self.assertIn("gs d3d12 against torch_cuda", body)
        self.assertEqual(body.count('<img class="plot"'), 2)  # the bars and the one d3d12 case
        cpu = dict(re.findall(r'<section class="machine" data-machine="([^"]*)">(.*?)</section>', page, re.S))
        # Two CPU series (the VM and the GPU machine's host), neither drawing d3d12 rows nor
        # holding the d3d12-only run; the newest run's machine (the host's CPU run) first.
        self.assertEqual(list(cpu), ["Host CPU, 16 cores, avx512, LLC 300 MiB",
                                     "Machine A, 2 cores, avx2, LLC 32 MiB"])
        self.assertIn("1 run(s) of Host CPU", cpu["Host CPU, 16 cores, avx512, LLC 300 MiB"])
        self.assertNotIn("d3d12", cpu["Host CPU, 16 cores, avx512, LLC 300 MiB"])
        self.assertLess(page.index('data-machine="Host CPU'), page.index('data-gpu="Fixture GPU'))
        # CPU against D3D12 takes its CPU bars from the host's run of the same sitting.
        self.assertIn("from 2026-11-26 11:30 h100 (2026-11-26T113018Z-h100-gs-bench.json)", page)

    def test_latest_counts_against_baseline_show_the_gate_verdict(self):
        page = self.page(["2026-11-21T094000Z-fixture-a-gs-counts.json",
                          "2026-11-22T094000Z-fixture-a-gs-counts.json"])
        rows = re.findall(r'<tr class="(\w+)"><td>([^<]*)</td>', page)
        self.assertEqual([r for r in rows if r[0] == "regression"],
                         [("regression", "gather_nd/f32/rows256/q1/i64/cpu/unchecked/threads:1")])
        self.assertEqual(len([r for r in rows if r[0] == "ok"]), 2)
        self.assertIn("+20.0%", page)

    def test_empty_history(self):
        page = self.page([])
        self.assertEqual(self.plots(page), (0, 0))
        self.assertIn("No gs-bench run in the history yet", page)

    def test_page_needs_no_network(self):
        page = self.page(sorted(n for n in os.listdir(FIXTURES) if n.endswith(".json")))
        self.assertIsNone(re.search(r'(src|href)="(https?:)?//', page))
        self.assertNotIn("<script", page)


if __name__ == "__main__":
    unittest.main()
