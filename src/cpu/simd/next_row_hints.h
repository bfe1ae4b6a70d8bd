// Cache hints for the data a walk's next row reads, spread over the blocks of this row.
#pragma once

#include <cstdint>

#include "cpu/kernel_set.h"

namespace gs::cpu::simd {
namespace {

// A row that reads one contiguous data row (last-axis gathers) reads its lines in random
// order, which the hardware prefetchers do not follow: hinting the next row a line or a few
// per output block takes those misses off the critical path. Hinted all at once before the
// row, the hints outrun the core's miss buffers and most are dropped
// (perf/results/2026-11-26-notes-moved-from-code.md).
class NextRowHints {
 public:
  NextRowHints(NextRowData next, uint64_t blocks)
      : at_(next.at), end_(next.at + next.bytes),
        linesPerBlock_(blocks == 0 ? 0 : (next.bytes / 64 + blocks - 1) / blocks) {}

  void Block() {
    for (uint64_t l = 0; l < linesPerBlock_ && at_ < end_; ++l, at_ += 64) __builtin_prefetch(at_, 0, 3);
  }

 private:
  const uint8_t* at_;
  const uint8_t* end_;
  uint64_t linesPerBlock_;
};

}  // namespace
}  // namespace gs::cpu::simd
