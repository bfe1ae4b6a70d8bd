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

// Rows whose index stream is the largest (8-byte indices of 1- to 4-byte elements) were bound
// by it: the hardware prefetchers did not keep enough of it in flight for one core. The lines
// kIndexHintAheadBytes ahead of the block being read are hinted, a block's worth per block so
// as not to outrun the core's miss buffers (figures: perf/results/2026-11-26-cyclic-copy-index-hints.md).
// Lines past this row's end are the next row's (NextRowData::nextIndices), when the walk says
// where it is.
inline constexpr uint64_t kIndexHintAheadBytes = 4096;

class IndexHints {
 public:
  // A row of rowBytes of indices at `indices`; blockBytes of them are read per Block().
  IndexHints(const uint8_t* indices, uint64_t rowBytes, uint64_t blockBytes, NextRowData next)
      : row_(indices), next_(next.nextIndices), rowBytes_(rowBytes), blockBytes_(blockBytes),
        hintAt_(next.hintIndices ? kIndexHintAheadBytes : ~uint64_t{0}) {}

  void Block() {
    if (hintAt_ < rowBytes_) {
      Hint(row_ + hintAt_);
    } else if (next_ != nullptr && hintAt_ - rowBytes_ < rowBytes_) {
      Hint(next_ + (hintAt_ - rowBytes_));
    } else {
      return;  // nothing left to hint (or not asked to)
    }
    hintAt_ += blockBytes_;
  }

 private:
  void Hint(const uint8_t* at) const {
    for (uint64_t b = 0; b < blockBytes_; b += 64) __builtin_prefetch(at + b, 0, 3);
  }

  const uint8_t* row_;
  const uint8_t* next_;
  uint64_t rowBytes_, blockBytes_;
  uint64_t hintAt_;  // the offset from row_ of the next lines to hint
};

}  // namespace
}  // namespace gs::cpu::simd
