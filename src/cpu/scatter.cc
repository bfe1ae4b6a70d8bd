#include "cpu/scatter.h"

#include <algorithm>
#include <atomic>
#include <cstring>

#include "cpu/kernel_set.h"
#include "cpu/kernels.h"
#include "cpu/reductions.h"
#include "cpu/row_walk.h"
#include "cpu/walk.h"

namespace gs::cpu {
namespace {

// A schedule slot that no move filled.
constexpr uint64_t kNoMove = ~uint64_t{0};

// Below this many bytes of updates one thread finishes sooner than a team would.
constexpr uint64_t kParallelBytes = 256 * 1024;

// Calls visit(destination, source) for each in-bounds unit of [begin, end) in row-major order;
// false when some unit was out of bounds.
template <typename IndexT, typename Visit>
bool ForEachMove(const plan::KernelConstants& k, const uint8_t* indices, uint64_t begin,
                 uint64_t end, const Visit& visit) {
  UnitCursor cursor(k, begin);
  bool allInBounds = true;
  for (uint64_t unit = begin; unit < end; ++unit, cursor.Next()) {
    uint64_t destination;
    if (IndexedOffset<IndexT>(k, indices, cursor, &destination)) {
      visit(destination, cursor.iter());
    } else {
      allInBounds = false;
    }
  }
  return allInBounds;
}

// Folds one block of updates into the output.
struct BlockWriter {
  uint64_t elementSize;
  uint64_t blockElements;
  CombineFn combine;        // nullptr: plain overwrite
  StreamCopyFn streamCopy;  // overwrites with non-temporal stores (then Fence), or nullptr

  void operator()(uint8_t* output, uint64_t destination, const uint8_t* updates,
                  uint64_t source) const {
    uint8_t* to = output + destination * elementSize;
    const uint8_t* from = updates + source * elementSize;
    if (combine != nullptr) {
      combine(to, from, blockElements);
    } else if (streamCopy != nullptr) {
      streamCopy(to, from, blockElements * elementSize);
    } else {
      std::memcpy(to, from, blockElements * elementSize);
    }
  }
  void Fence() const {
    if (streamCopy != nullptr) ActiveKernels().streamFence();
  }
};

BlockWriter MakeWriter(const plan::Plan& plan) {
  const bool overwrite = plan.reduction == Reduction::None;
  return {plan.elementSize, plan.kernel.blockElements,
          overwrite ? nullptr : SelectCombine(plan.dataType, plan.reduction),
          plan.cpu.streamOutput ? ActiveKernels().streamCopy : nullptr};
}

}  // namespace

ScatterSchedule::ScatterSchedule(const plan::Plan& plan, const uint8_t* indices,
                                 const Parallel& parallel)
    : plan_(plan), indices_(indices), parallel_(parallel) {
  const plan::KernelConstants& k = plan.kernel;
  if (plan.cpu.implementation == plan::CpuImplementation::ScatterStrips) return;
  const uint64_t updateBytes = k.unitCount * k.blockElements * plan.elementSize;
  const int threads = parallel.concurrency();
  if (threads <= 1 || updateBytes < kParallelBytes || k.unitCount < 2) return;  // in order

  const uint64_t buckets = static_cast<uint64_t>(threads) * 4;
  const uint64_t extent = plan.tensor(plan::TensorRole::Output).extentElements;
  const uint64_t bucketWidth = std::max<uint64_t>(1, (extent + buckets - 1) / buckets);
  const uint64_t chunkUnits = std::max<uint64_t>(plan.cpu.taskUnits,
                                                 (k.unitCount + 4 * threads - 1) / (4 * threads));
  const uint64_t chunks = (k.unitCount + chunkUnits - 1) / chunkUnits;

  // slots[c * buckets + b]: moves of chunk c into bucket b; then their first slot, and ends
  // their last + 1. The fill pass reads the indices again and the caller may change them in
  // between: it writes only inside the slots the count reserved.
  std::vector<uint64_t> slots(chunks * buckets, 0);
  std::vector<uint64_t> ends(chunks * buckets, 0);
  bucketStarts_.assign(buckets + 1, 0);
  // Overwrites that all start at distinct offsets touch disjoint blocks (overlapping blocks
  // start at the same offset), so they may land in any order: one bit per block-sized slot
  // of the output, set as the count goes (two starts in one slot only cost the fast path).
  // At most 64 bits a unit, so the bitmap stays small beside the indices.
  const uint64_t blockSlots = extent / k.blockElements + 1;
  const bool mayBeDistinct = plan.reduction == Reduction::None && blockSlots <= 64 * k.unitCount;
  std::vector<uint64_t> started(mayBeDistinct ? (blockSlots + 63) / 64 : 0, 0);
  std::atomic<bool> repeated{!mayBeDistinct};
  const auto noteStart = [&](uint64_t destination) {
    const uint64_t slot = destination / k.blockElements, bit = uint64_t{1} << (slot % 64);
    if (__atomic_fetch_or(&started[slot / 64], bit, __ATOMIC_RELAXED) & bit) {
      repeated.store(true, std::memory_order_relaxed);
    }
  };
  WithIndexType(plan.indexType, [&](auto tag) {
    using IndexT = decltype(tag);
    auto chunkRange = [&](uint64_t c) {
      return std::make_pair(c * chunkUnits, std::min(k.unitCount, (c + 1) * chunkUnits));
    };
    // Counting reads every index once: it is also checked mode's validation (indicesChecked_).
    std::atomic<bool> outOfBounds{false};
    parallel.For(chunks, 1, [&](uint64_t first, uint64_t last) {
      for (uint64_t c = first; c < last; ++c) {
        const auto [begin, end] = chunkRange(c);
        uint64_t* counts = &slots[c * buckets];
        if (!ForEachMove<IndexT>(k, indices, begin, end, [&](uint64_t destination, uint64_t) {
              ++counts[destination / bucketWidth];
              if (mayBeDistinct) noteStart(destination);
            })) {
          outOfBounds.store(true, std::memory_order_relaxed);
        }
      }
    });
    indicesChecked_ = true;
    allInBounds_ = !outOfBounds.load();
    if (!repeated.load()) {
      distinctBlocks_ = true;
      return;
    }
    uint64_t total = 0;
    for (uint64_t b = 0; b < buckets; ++b) {
      bucketStarts_[b] = total;
      for (uint64_t c = 0; c < chunks; ++c) {
        const uint64_t count = slots[c * buckets + b];
        slots[c * buckets + b] = total;
        total += count;
        ends[c * buckets + b] = total;
      }
    }
    bucketStarts_[buckets] = total;
    moves_.assign(total, Move{kNoMove, 0});  // slots left unfilled (indices changed) are skipped
    parallel.For(chunks, 1, [&](uint64_t first, uint64_t last) {
      for (uint64_t c = first; c < last; ++c) {
        const auto [begin, end] = chunkRange(c);
        uint64_t* next = &slots[c * buckets];
        const uint64_t* slotEnds = &ends[c * buckets];
        ForEachMove<IndexT>(k, indices, begin, end, [&](uint64_t destination, uint64_t source) {
          const uint64_t b = destination / bucketWidth;
          if (next[b] < slotEnds[b]) moves_[next[b]++] = {destination, source};
        });
      }
    });
  });
}

void ScatterSchedule::ApplyInOrder(const uint8_t* updates, uint8_t* output) const {
  if (plan_.cpu.implementation == plan::CpuImplementation::ScatterElementRows) {
    // Element rows in row-major order through the kernel set's row kernel.
    const plan::KernelConstants& k = plan_.kernel;
    const plan::RowGeometry& rows = plan_.cpu.rows;
    const uint64_t e = plan_.elementSize, x = plan_.indexSize;
    const ScatterRowFn row =
        ActiveKernels().scatterRow[ElementSizeLog2(plan_.elementSize)][IndexKind(plan_.indexType)];
    const RowTiling tiling = TileRows(plan_, 1);
    UnitCursor cursor(tiling.outer, 0);
    for (uint64_t r = 0; r < rows.rowCount; ++r, cursor.Next()) {
      row(output + cursor.data() * e, k.dataStrides[rows.inner], k.indexedStrides[0],
          k.indexedSizes[0], indices_ + cursor.index() * x, updates + cursor.iter() * e,
          rows.rowLength);
    }
    return;
  }
  const BlockWriter write = MakeWriter(plan_);
  WithIndexType(plan_.indexType, [&](auto tag) {
    ForEachMove<decltype(tag)>(plan_.kernel, indices_, 0, plan_.kernel.unitCount,
                               [&](uint64_t destination, uint64_t source) {
                                 write(output, destination, updates, source);
                               });
  });
  write.Fence();
}

void ScatterSchedule::ApplyDistinct(const uint8_t* updates, uint8_t* output) const {
  const BlockWriter write = MakeWriter(plan_);
  WithIndexType(plan_.indexType, [&](auto tag) {
    parallel_.For(plan_.kernel.unitCount, plan_.cpu.taskUnits, [&](uint64_t begin, uint64_t end) {
      ForEachMove<decltype(tag)>(plan_.kernel, indices_, begin, end, [&](uint64_t destination, uint64_t source) {
        write(output, destination, updates, source);
      });
      write.Fence();
    });
  });
}

void ScatterSchedule::ApplyStrips(const uint8_t* updates, uint8_t* output) const {
  const plan::KernelConstants& k = plan_.kernel;
  const plan::RowGeometry& w = plan_.cpu.rows;
  const RowTiling tiling = TileScatterStrips(plan_);
  const uint64_t e = plan_.elementSize, x = plan_.indexSize;
  const uint64_t step = k.dataStrides[w.inner], bound = k.indexedSizes[0];
  const uint64_t stride = k.indexedStrides[0];
  const ScatterRowFn row =
      ActiveKernels().scatterRow[ElementSizeLog2(plan_.elementSize)][IndexKind(plan_.indexType)];
  const CombineFn combine =
      plan_.reduction == Reduction::None ? nullptr : SelectCombine(plan_.dataType, plan_.reduction);
  parallel_.For(tiling.strips, tiling.grain, [&](uint64_t first, uint64_t last) {
    IeeeFloatScope ieee;
    for (uint64_t strip = first; strip < last; ++strip) {
      const uint64_t column = strip * w.stripWidth;
      const uint64_t width = std::min(w.stripWidth, w.rowLength - column);
      // The strip's output columns, packed; in place when no scratch could be had.
      uint8_t* scratch = StripScratch(bound * width * e);
      if (scratch != nullptr) PackStrip(output, step, stride, bound, e, column, width, scratch);
      uint8_t* columns = scratch != nullptr ? scratch : output + column * step * e;
      const uint64_t columnsStep = scratch != nullptr ? 1 : step;
      const uint64_t columnsStride = scratch != nullptr ? width : stride;
      UnitCursor cursor(tiling.outer, 0), ahead(tiling.outer, std::min(w.rowCount, kRowsAhead));
      for (uint64_t r = 0; r < w.rowCount; ++r, cursor.Next()) {
        if (r + kRowsAhead < w.rowCount) {
          PrefetchRow(indices_ + (ahead.index() + column) * x, width * x);
          PrefetchRow(updates + (ahead.iter() + column) * e, width * e);
          ahead.Next();
        }
        const uint8_t* rowIndices = indices_ + (cursor.index() + column) * x;
        const uint8_t* rowUpdates = updates + (cursor.iter() + column) * e;
        if (combine == nullptr) {
          row(columns, columnsStep, columnsStride, bound, rowIndices, rowUpdates, width);
          continue;
        }
        WithIndexType(plan_.indexType, [&](auto tag) {
          using IndexT = decltype(tag);
          for (uint64_t j = 0; j < width; ++j) {
            bool ok;
            const uint64_t p = ResolveIndex(LoadIndex<IndexT>(rowIndices, j), bound, &ok);
            if (ok) {
              combine(columns + (p * columnsStride + j * columnsStep) * e, rowUpdates + j * e, 1);
            }
          }
        });
      }
      if (scratch != nullptr) UnpackStrip(output, step, stride, bound, e, column, width, scratch);
    }
  });
}

void ScatterSchedule::Apply(const uint8_t* updates, uint8_t* output) const {
  NoteImplementationRun(plan_.cpu.implementation);
  if (plan_.cpu.implementation == plan::CpuImplementation::ScatterStrips) {
    ApplyStrips(updates, output);
    return;
  }
  if (distinctBlocks_) {
    ApplyDistinct(updates, output);
    return;
  }
  // Reductions on floats must see IEEE arithmetic on every thread that runs them.
  if (bucketStarts_.empty()) {
    IeeeFloatScope ieee;
    ApplyInOrder(updates, output);
    return;
  }
  const BlockWriter write = MakeWriter(plan_);
  // Destinations are scattered: hint the block a few moves ahead (for writing), unless it is
  // streamed.
  const uint64_t blockBytes = plan_.kernel.blockElements * plan_.elementSize;
  const uint64_t prefetchBytes =
      blockBytes >= 64 && write.streamCopy == nullptr ? std::min<uint64_t>(blockBytes, 4096) : 0;
  constexpr uint64_t kAhead = 4;
  parallel_.For(bucketStarts_.size() - 1, 1, [&](uint64_t first, uint64_t last) {
    IeeeFloatScope ieee;
    for (uint64_t b = first; b < last; ++b) {
      const uint64_t end = bucketStarts_[b + 1];
      for (uint64_t m = bucketStarts_[b]; m < end; ++m) {
        if (prefetchBytes != 0 && m + kAhead < end && moves_[m + kAhead].destination != kNoMove) {
          PrefetchForWrite(output + moves_[m + kAhead].destination * write.elementSize,
                           prefetchBytes);
        }
        if (moves_[m].destination != kNoMove) {
          write(output, moves_[m].destination, updates, moves_[m].source);
        }
      }
    }
    write.Fence();
  });
}

}  // namespace gs::cpu
