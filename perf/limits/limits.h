// gs-limits' loops: for each suite case whose target is missed, standalone loops that do the
// case's memory accesses and nothing of gs, to measure what the machine physically allows.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "suite.h"

namespace gs_limits {

// One loop over `units` pieces of work (rows, strips, output rows, elements); body(begin, end)
// does [begin, end) on the calling thread, so that threads take contiguous slices.
struct Loop {
  std::string name;
  size_t units = 0;
  bool avx512 = false;  // uses AVX-512 F/BW/VL/DQ intrinsics: skipped without them
  std::function<void(size_t begin, size_t end)> body;
};

// A (case, variant)'s loops. Its buffers exist between prepare() and release(), so that one
// case's (up to 1 GB) are alive at a time; output() is what the loops write.
struct CaseLimits {
  std::string name;      // <case>[/<variant>], as gs-bench names it
  uint64_t total_bytes;  // the suite's effective_bytes.total for the variant
  std::vector<Loop> loops;
  std::function<void()> prepare, release;
  std::function<const void*()> output;
};

// The limits of the suite's cases that have some (the rest are left out).
std::vector<CaseLimits> MakeLimits(const std::vector<gs_bench::Case>& cases);

bool HasAvx512();

}  // namespace gs_limits
