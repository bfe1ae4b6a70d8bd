// gs-limits: for each suite case whose target is missed, standalone loops (no gs code) that do
// only the case's memory accesses, timed as gs-bench times gs, to show what the machine
// physically allows. One benchmark per case, variant, loop and thread count:
//   <case>[/<variant>]/limit/<loop>/threads:<n>
// Counters: GB_per_s (the suite's effective bytes, as gs-bench counts them), copy_ratio and
// the other copy counters of gs-bench (gs_bench/copy.h: the fastest of a few copies of the same
// bytes timed between the loop's runs). perf/limits/README.md.
#include <benchmark/benchmark.h>
#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/parallel_for.h>
#include <oneapi/tbb/partitioner.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "copy.h"
#include "reporting.h"
#include "limits.h"
#include "suite.h"

#ifndef GS_BENCH_DEFAULT_SUITE
#define GS_BENCH_DEFAULT_SUITE "shared/perf/suite.json"
#endif

namespace {

using gs_limits::CaseLimits;
using gs_limits::Loop;

constexpr double kMinTime = 0.5;      // seconds of loop time per benchmark
constexpr int kShortIterations = 15;  // --short: loop/copy pairs per benchmark

struct Flags {
  std::string suite = GS_BENCH_DEFAULT_SUITE;
  bool short_mode = false, user_min_time = false;
  std::vector<int> threads = {1, 2};
  std::string format = "console", out_format = "json", out_file;
  bool color = isatty(STDOUT_FILENO) != 0;
  std::vector<char*> args;  // the rest, for benchmark::Initialize
};

// "1,2" -> {1, 2}; false on anything else.
bool ParseThreads(const std::string& text, std::vector<int>* threads) {
  std::vector<int> parsed;
  size_t begin = 0;
  while (begin <= text.size()) {
    const size_t end = std::min(text.find(',', begin), text.size());
    const std::string item = text.substr(begin, end - begin);
    if (item.empty() || item.size() > 3 ||
        item.find_first_not_of("0123456789") != std::string::npos)
      return false;
    parsed.push_back(std::stoi(item));
    if (parsed.back() < 1) return false;
    begin = end + 1;
  }
  *threads = std::move(parsed);
  return true;
}

bool ParseFlags(int argc, char** argv, Flags* f) {
  for (int i = 0; i < argc; ++i) {
    const std::string a = argv[i];
    if (i > 0 && a.rfind("--suite=", 0) == 0) {
      f->suite = a.substr(8);
    } else if (i > 0 && a == "--short") {
      f->short_mode = true;
    } else if (i > 0 && a.rfind("--threads=", 0) == 0) {
      if (!ParseThreads(a.substr(10), &f->threads)) {
        std::fprintf(stderr,
                     "gs-limits: --threads wants thread counts separated by commas (1,2), not %s\n",
                     a.c_str() + 10);
        return false;
      }
    } else {
      if (a == "--help" || a == "-h") {
        std::printf(
            "gs-limits [--suite=PATH] [--short] [--threads=1,2] [Google Benchmark flags]\n"
            "  suite default: %s; --short: %d iterations per benchmark\n\n",
            GS_BENCH_DEFAULT_SUITE, kShortIterations);
      }
      if (a.rfind("--benchmark_min_time", 0) == 0) f->user_min_time = true;
      if (a.rfind("--benchmark_format=", 0) == 0) f->format = a.substr(19);
      if (a.rfind("--benchmark_out_format=", 0) == 0) f->out_format = a.substr(23);
      if (a.rfind("--benchmark_out=", 0) == 0) f->out_file = a.substr(16);
      if (a == "--benchmark_color=false" || a == "--benchmark_color=no") f->color = false;
      f->args.push_back(argv[i]);
    }
  }
  return true;
}

// The case whose buffers are allocated: one at a time (the row cases' tables are 1 GB).
CaseLimits* g_current = nullptr;

void Use(CaseLimits* c) {
  if (g_current == c) return;
  if (g_current != nullptr) g_current->release();
  g_current = nullptr;
  c->prepare();
  g_current = c;
}

// The copy of the current case's bytes, as gs-bench keeps it.
gs_bench::CopyBaseline* CurrentCopy(uint64_t total_bytes) {
  static std::unique_ptr<gs_bench::CopyBaseline> copy;
  if (!copy || copy->total_bytes() != total_bytes) {
    copy.reset();
    copy = std::make_unique<gs_bench::CopyBaseline>(total_bytes);
  }
  return copy.get();
}

// The loop's units in `threads` contiguous slices, one per thread, as ParallelCopy splits bytes.
void RunSliced(const Loop& loop, int threads) {
  tbb::task_arena* arena = gs_bench::ArenaFor(threads);
  if (arena == nullptr) return loop.body(0, loop.units);
  const size_t slice = (loop.units + threads - 1) / threads;
  arena->execute([&] {
    tbb::parallel_for(
        tbb::blocked_range<int>(0, threads, 1),
        [&](const tbb::blocked_range<int>& r) {
          for (int i = r.begin(); i < r.end(); ++i) {
            const size_t begin = std::min(loop.units, slice * i),
                         end = std::min(loop.units, begin + slice);
            if (end > begin) loop.body(begin, end);
          }
        },
        tbb::static_partitioner());
  });
}

// Timed in blocks against a copy of the case's bytes with the same threads, as gs-bench
// (gs_bench/copy.h: TimeInBlocks); copy_ratio is the median of copy time / loop time.
void RunLimit(benchmark::State& state, CaseLimits* c, const Loop* loop, int threads) {
  if (loop->avx512 && !gs_limits::HasAvx512()) {
    state.SkipWithError("needs AVX-512 (F, BW, VL, DQ)");
    return;
  }
  try {
    Use(c);
  } catch (const std::exception& e) {
    c->release();  // what was allocated before the failure
    state.SkipWithError((std::string("setup: ") + e.what()).c_str());
    return;
  }
  gs_bench::CopyBaseline* copy = CurrentCopy(c->total_bytes);
  RunSliced(*loop, threads);  // warm-up
  const gs_bench::CopyPairs pairs = gs_bench::TimeInBlocks(state, *copy, threads, [&](bool) {
    RunSliced(*loop, threads);
    benchmark::DoNotOptimize(c->output());
    benchmark::ClobberMemory();
    return true;
  });
  const double total = static_cast<double>(c->total_bytes);
  state.counters["GB_per_s"] = benchmark::Counter(
      static_cast<double>(state.iterations()) * total / 1e9, benchmark::Counter::kIsRate);
  pairs.SetCounters(state.counters, c->total_bytes);
}

}  // namespace

int main(int argc, char** argv) {
  Flags flags;
  if (!ParseFlags(argc, argv, &flags)) return 1;
  int bargc = static_cast<int>(flags.args.size());
  flags.args.push_back(nullptr);
  benchmark::Initialize(&bargc, flags.args.data());
  if (benchmark::ReportUnrecognizedArguments(bargc, flags.args.data())) return 1;

  std::vector<gs_bench::Case> cases;
  std::vector<CaseLimits> limits;
  try {
    cases = gs_bench::LoadSuite(flags.suite);
    limits = gs_limits::MakeLimits(cases);  // keeps references to cases
  } catch (const std::exception& e) {
    std::fprintf(stderr, "gs-limits: %s\n", e.what());
    return 1;
  }
  benchmark::AddCustomContext("cpu_model", gs_bench::CpuModel());
  benchmark::AddCustomContext("cpu_id", gs_bench::CpuId());
  benchmark::AddCustomContext("suite", flags.suite);
  benchmark::AddCustomContext("gs_limits_mode", flags.short_mode ? "short" : "full");
  benchmark::AddCustomContext("copy_timing", gs_bench::kCopyTiming);
  for (CaseLimits& c : limits) {
    for (const Loop& loop : c.loops) {
      for (int threads : flags.threads) {
        const std::string name =
            c.name + "/limit/" + loop.name + "/threads:" + std::to_string(threads);
        auto* b = benchmark::RegisterBenchmark(
            name.c_str(), [cp = &c, lp = &loop, threads](benchmark::State& st) {
              RunLimit(st, cp, lp, threads);
            });
        b->UseManualTime()->Unit(benchmark::kMillisecond);
        if (flags.user_min_time) continue;
        if (flags.short_mode) {
          b->Iterations(kShortIterations);
        } else {
          b->MinTime(kMinTime);
        }
      }
    }
  }

  gs_bench::BareNameReporter display(gs_bench::MakeReporter(flags.format, flags.color));
  if (flags.out_file.empty()) {
    benchmark::RunSpecifiedBenchmarks(&display);
  } else {
    gs_bench::BareNameReporter file(gs_bench::MakeReporter(flags.out_format, false));
    benchmark::RunSpecifiedBenchmarks(&display, &file);
  }
  benchmark::Shutdown();
  if (g_current != nullptr) g_current->release();  // for the leak checkers
  return 0;
}
