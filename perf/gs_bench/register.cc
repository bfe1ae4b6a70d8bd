#include "register.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <benchmark/benchmark.h>

#include "buffers.h"
#include "copy.h"
#include "gs/gs.h"
#include "planted.h"
#include "small.h"
#ifdef GS_BENCH_D3D12
#include "d3d12_timing.h"
#endif

namespace gs_bench {
namespace {

Options g_options;
std::unique_ptr<Prepared> g_prepared;  // the (case, variant) being run; one at a time

// The (case, variant)'s buffers, prepared once for all its benchmarks; nullptr (the benchmark
// skipped with the error) when setting it up failed.
Prepared* CurrentCase(benchmark::State& state, const Case* c, const std::string& variant) {
  const std::string key = c->name + "#" + variant;
  if (!g_prepared || g_prepared->key != key) {
    g_prepared.reset();  // free the previous case's buffers first
    try {
      g_prepared = Prepare(*c, variant);
    } catch (const std::exception& e) {
      g_prepared = std::make_unique<Prepared>();
      g_prepared->error = std::string("setup: ") + e.what();
    }
    g_prepared->key = key;
  }
  if (!g_prepared->error.empty()) {
    state.SkipWithError(g_prepared->error.c_str());
    return nullptr;
  }
  return g_prepared.get();
}

// The copy of the bytes the current case moves, kept while its benchmarks run; a gather's
// from a source of its Input's size too (copy.h: kCachedSource).
CopyBaseline* CurrentCopy(uint64_t total_bytes, uint64_t source_bytes) {
  static std::unique_ptr<CopyBaseline> copy;
  if (!copy || copy->total_bytes() != total_bytes || copy->source_bytes() != source_bytes) {
    copy.reset();  // free the previous one first
    copy = std::make_unique<CopyBaseline>(total_bytes, source_bytes);
  }
  return copy.get();
}

// The bytes a gather reads its rows from, for its copy from a cached source; 0 for a scatter.
uint64_t GatherSourceBytes(const Case& c, const Prepared& p) {
  const bool gather = c.spec.at("op").get<std::string>().rfind("SCATTER", 0) != 0;
  return gather ? p.bindings.InputTensor.SizeInBytes : 0;
}

// bytes_per_second, GB_per_s and threads of `iterations` runs moving `total` bytes each.
void SetThroughputCounters(benchmark::State& state, uint64_t total, int threads) {
  const double bytes = static_cast<double>(state.iterations()) * static_cast<double>(total);
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * static_cast<int64_t>(total));
  state.counters["GB_per_s"] = benchmark::Counter(bytes / 1e9, benchmark::Counter::kIsRate);
  state.counters["threads"] = benchmark::Counter(threads);
}

// The calls timed in blocks against the copies of the same bytes with the same threads
// (copy.h: TimeInBlocks), so that a neighbour that slows the machine slows both.
void RunCase(benchmark::State& state, const Case* c, const std::string& variant, bool checked,
             int threads) {
  Prepared* prepared = CurrentCase(state, c, variant);
  if (prepared == nullptr) return;
  Prepared& p = *prepared;
  const uint64_t total = c->total_bytes.at(variant);
  CopyBaseline* copy = CurrentCopy(total, GatherSourceBytes(*c, p));

  const gs::CpuExecuteOptions options = CpuOptions(checked, threads);
  gs::Status st = gs::ExecuteOnCpu(p.op, p.bindings, options);  // warm-up
  if (!st.ok()) {
    state.SkipWithError(st.message().c_str());
    return;
  }
  PlantedSlowdown planted(c->name, BenchmarkName(*c, variant, "cpu", checked, threads));
  const CopyPairs pairs = TimeInBlocks(state, *copy, threads, [&](bool timed) {
    st = gs::ExecuteOnCpu(p.op, p.bindings, options);
    if (timed && planted.ExtraCall() && st.ok()) st = gs::ExecuteOnCpu(p.op, p.bindings, options);
    return st.ok();
  });
  if (!st.ok()) {
    state.SkipWithError(st.message().c_str());
    return;
  }
  SetThroughputCounters(state, total, threads);
  pairs.SetCounters(state.counters, total);
}

#ifdef GS_BENCH_D3D12
// ---- The D3D12 rows: GPU time from timestamp queries (perf/d3d12_timing.h). ----

// Repetitions of the GPU's copy baseline.
int CopyRepetitions() { return g_options.short_mode ? 3 : 7; }

// Wall seconds of reruns before any GPU figure is taken: the GPU raises its clocks only under
// load (perf/results/2026-11-26-h100-clocks.md).
constexpr double kGpuWarmUpSeconds = 0.2;

// The GPU's copies of total/2 bytes (total bytes moved), bytes/second, each the median of a
// few reruns after a warm-up: CopyBufferRegion, and the copy kernel of 16-byte words
// (gpu/hlsl/copy_wide.hlsl) at each count of words a thread, and for a gather from a smaller
// Input the same kernel reading a source of Input's size over and over. copy_ratio is over the
// fastest: the GPU's copy, not one path's (the H100 ran CopyBufferRegion at a third of torch's
// copy_, and the kernel at one word a thread varied by 1.4x between sittings at 67 MB; a 26 MB
// embedding table stays in its 50 MB L2, where embedding read 1.07 over the other two).
struct GpuCopyRates {
  double region = 0;
  double kernel = 0;  // the fastest count
  double cached = 0;  // the fastest count from the smaller source; 0 when not timed
  double fastest() const { return std::max({region, kernel, cached}); }
};

double GpuCopyRate(D3D12Timing& gpu, uint64_t total_bytes, std::string* error) {
  std::vector<double> rates;
  if (error->empty()) *error = gpu.WarmUp(kGpuWarmUpSeconds);
  for (int r = 0; r < CopyRepetitions() && error->empty(); ++r) {
    double seconds = 0;
    *error = gpu.Rerun(&seconds);
    if (seconds > 0) rates.push_back(static_cast<double>(total_bytes / 2 * 2) / seconds);
  }
  return rates.empty() ? 0 : Median(rates);
}

const GpuCopyRates& GpuCopyBytesPerSecond(D3D12Timing& gpu, uint64_t total_bytes, uint64_t source_bytes,
                                          std::string* error) {
  static std::map<std::pair<uint64_t, uint64_t>, GpuCopyRates> cache;
  static const GpuCopyRates none;
  const bool cached = D3D12Timing::CopiesFromCachedSource(total_bytes / 2, source_bytes);
  const std::pair<uint64_t, uint64_t> key(total_bytes, cached ? source_bytes : 0);
  if (auto it = cache.find(key); it != cache.end()) return it->second;
  GpuCopyRates rates;
  *error = gpu.RecordCopy(total_bytes / 2);
  rates.region = GpuCopyRate(gpu, total_bytes, error);
  for (uint32_t words : D3D12Timing::kCopyWordsPerThread) {
    if (error->empty()) *error = gpu.RecordCopyKernel(total_bytes / 2, words);
    rates.kernel = std::max(rates.kernel, GpuCopyRate(gpu, total_bytes, error));
    if (!cached) continue;
    if (error->empty()) *error = gpu.RecordCopyKernel(total_bytes / 2, words, source_bytes);
    rates.cached = std::max(rates.cached, GpuCopyRate(gpu, total_bytes, error));
  }
  if (!error->empty() || rates.region == 0 || rates.kernel == 0 || (cached && rates.cached == 0)) return none;
  return cache[key] = rates;
}

std::string g_uploaded;  // the (case, variant) whose tensors are on the GPU

// The case's tensors on the GPU (uploaded when another case's are there); nullptr when skipped.
Prepared* UploadedCase(benchmark::State& state, D3D12Timing* gpu, const Case* c,
                       const std::string& variant) {
  Prepared* prepared = CurrentCase(state, c, variant);
  if (prepared == nullptr || g_uploaded == prepared->key) return prepared;
  g_uploaded.clear();
  const std::string error = gpu->Upload(prepared->bindings);
  if (!error.empty()) {
    state.SkipWithError(error.c_str());
    return nullptr;
  }
  g_uploaded = prepared->key;
  return prepared;
}

void RunCaseD3D12(benchmark::State& state, const Case* c, const std::string& variant, bool checked) {
  std::string error;
  D3D12Timing* gpu = D3D12Timing::Get(&error);
  if (gpu == nullptr) {
    state.SkipWithError(error.c_str());
    return;
  }
  Prepared* prepared = UploadedCase(state, gpu, c, variant);
  if (prepared == nullptr) return;
  const uint64_t total = c->total_bytes.at(variant);
  const GpuCopyRates copy = GpuCopyBytesPerSecond(*gpu, total, GatherSourceBytes(*c, *prepared), &error);
  // Recorded once, then rerun as recorded after a warm-up (perf/d3d12_timing.h).
  double record_seconds = 0, seconds = 0;
  if (error.empty()) error = gpu->RecordOperator(prepared->op, checked, &record_seconds);
  if (error.empty()) error = gpu->WarmUp(kGpuWarmUpSeconds);
  if (!error.empty()) {
    state.SkipWithError(error.c_str());
    return;
  }
  for (auto _ : state) {
    error = gpu->Rerun(&seconds);
    if (!error.empty()) {
      state.SkipWithError(error.c_str());
      break;
    }
    state.SetIterationTime(seconds);
  }
  // The host's part, which no GPU figure holds: D3D12Engine::Record's time for the call.
  state.counters["record_ms"] = record_seconds * 1e3;
  SetThroughputCounters(state, total, 0);
  // copy_ratio over the fastest GPU copy; copy_ratio_region over CopyBufferRegion alone (the
  // figure before 2026-11-26's copy kernel), copy_ratio_kernel over the copy kernel alone, and
  // copy_ratio_cached over the kernel from a gather's smaller source, where that was timed.
  const double bytes = static_cast<double>(state.iterations()) * static_cast<double>(total);
  state.counters["copy_ratio"] = benchmark::Counter(bytes / copy.fastest(), benchmark::Counter::kIsRate);
  state.counters["copy_ratio_region"] = benchmark::Counter(bytes / copy.region, benchmark::Counter::kIsRate);
  state.counters["copy_ratio_kernel"] = benchmark::Counter(bytes / copy.kernel, benchmark::Counter::kIsRate);
  if (copy.cached > 0) {
    state.counters["copy_ratio_cached"] = benchmark::Counter(bytes / copy.cached, benchmark::Counter::kIsRate);
  }
}

// The GPU rows (threads:0), when there is a D3D12 device: lavapipe without a GPU.
void RegisterD3D12(const std::vector<Case>& cases, double min_time) {
  std::string no_device;
  if (D3D12Timing::Get(&no_device) == nullptr) {
    std::fprintf(stderr, "gs-bench: no d3d12 rows: %s\n", no_device.c_str());
    return;
  }
  for (const Case& c : cases) {
    for (const std::string& v : c.variants) {
      for (bool checked : {true, false}) {
        const std::string name = BenchmarkName(c, v, "d3d12", checked, 0);
        auto* b = benchmark::RegisterBenchmark(
            name.c_str(), [cp = &c, v, checked](benchmark::State& st) { RunCaseD3D12(st, cp, v, checked); });
        b->UseManualTime()->Unit(benchmark::kMillisecond);
        if (!g_options.user_min_time) b->MinTime(min_time);
      }
    }
  }
}
#endif

// --short: a fixed number of call/copy pairs per CPU row (three blocks) rather than a minimum
// time, so that the median of the per-pair ratios always has enough pairs to stand on.
constexpr int kShortPairs = 15;

void RegisterCpu(const std::vector<Case>& cases, double min_time) {
  for (const Case& c : cases) {
    for (const std::string& v : c.variants) {
      for (bool checked : {true, false}) {
        for (int threads : g_options.threads) {
          const std::string name = BenchmarkName(c, v, "cpu", checked, threads);
          auto* b = benchmark::RegisterBenchmark(
              name.c_str(), [cp = &c, v, checked, threads](benchmark::State& st) {
                RunCase(st, cp, v, checked, threads);
              });
          b->UseManualTime()->Unit(benchmark::kMillisecond);
          if (g_options.user_min_time) continue;
          if (g_options.short_mode) {
            b->Iterations(kShortPairs);
          } else {
            b->MinTime(min_time);
          }
        }
      }
    }
  }
}

}  // namespace

void RegisterBenchmarks(const std::vector<Case>& cases, const Options& options) {
  g_options = options;
  const double min_time = options.short_mode ? 0.05 : 1.0;
  if (options.cpu) RegisterCpu(cases, min_time);
#ifdef GS_BENCH_D3D12
  if (options.d3d12) RegisterD3D12(cases, min_time);
#endif
  if (options.cpu) {
    RegisterSmallBenchmarks(options.threads, options.short_mode, options.user_min_time);
  }
}

void ReleasePrepared() { g_prepared.reset(); }

}  // namespace gs_bench
