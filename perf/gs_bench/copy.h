// The copy baseline: a plain memcpy of the same bytes with the same threads (oneTBB), the
// denominator of copy_ratio.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include <oneapi/tbb/task_arena.h>

#include "buffer.h"

namespace gs_bench {

double Median(std::vector<double> v);

// An arena of `threads` threads, kept for the process; nullptr for one thread.
tbb::task_arena* ArenaFor(int threads);

// memcpy split into `threads` 64-byte-aligned slices, one per thread of arena.
void ParallelCopy(void* dst, const void* src, size_t bytes, int threads, tbb::task_arena* arena);

// The copy of the same bytes a benchmark moves: total_bytes / 2 copied (total_bytes moved),
// run between the operator's calls (A B A B) so that both see the same machine.
class CopyBaseline {
 public:
  explicit CopyBaseline(uint64_t total_bytes);
  uint64_t total_bytes() const { return total_bytes_; }
  void Run(int threads);  // one copy with `threads` threads

 private:
  uint64_t total_bytes_;
  Buffer src_, dst_;
};

}  // namespace gs_bench
