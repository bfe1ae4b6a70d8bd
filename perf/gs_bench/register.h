// The benchmarks gs-bench registers with Google Benchmark: one per suite case, variant,
// checking mode and thread count (CPU), per case, variant and mode (D3D12), and the small
// operators' per-call cost.
#pragma once

#include <vector>

#include "suite.h"

namespace gs_bench {

struct Options {
  bool short_mode = false;      // --short
  bool user_min_time = false;   // --benchmark_min_time given: it wins over ours
  bool cpu = true, d3d12 = true;  // --backend
  std::vector<int> threads = {1, 2};  // --threads: the CPU rows' thread counts
};

// Registers every benchmark of the suite; cases must outlive the run.
void RegisterBenchmarks(const std::vector<Case>& cases, const Options& options);

// Frees the buffers of the case run last (before exit, for the leak checkers).
void ReleasePrepared();

}  // namespace gs_bench
