// Speed decisions of the CPU engine that depend on the plan and the thread count, made at the
// start of each execute (a few integer operations). CPU-only: the GPU ignores them.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "cpu/kernel_set.h"
#include "plan/plan.h"

namespace gs::cpu {

// Bytes of rows that one strip reads, packed: half a core's L2 (2 MiB here), so that they
// stay there while the strip walks every output row (measured best among 256 KiB-8 MiB).
inline constexpr uint64_t kStripReadBytes = 1024 * 1024;
// Below this many bytes a task is not worth waking a thread for.
inline constexpr uint64_t kTaskBytes = 64 * 1024;

// Element units (one element each) walked as rows of the last walked dim, which is contiguous
// in the walked tensor and in the indices. Tasks are strips of columns x slices of rows.
struct RowWalk {
  plan::KernelConstants outer;  // the walk without its last dim: one unit per row
  uint64_t inner = 0;           // index of the last walked dim
  uint64_t rowLength = 0;
  uint64_t rowCount = 0;
  uint64_t stripWidth = 0;  // columns per task (rowLength: no strips)
  bool packed = false;      // strips read rows through a packed scratch copy
  uint64_t rowSlices = 1;
  uint64_t grain = 1;  // tasks per oneTBB range
};

inline bool PlanElementRows(const plan::Plan& plan, int threads, RowWalk* walk) {
  const plan::KernelConstants& k = plan.kernel;
  if (k.blockElements != 1 || k.tupleSize != 1 || k.rank == 0) return false;
  const uint64_t inner = k.rank - 1;
  if (k.iterStrides[inner] != 1 || k.indexStrides[inner] != 1) return false;
  walk->outer = k;
  walk->outer.rank = inner;
  walk->inner = inner;
  walk->rowLength = k.sizes[inner];
  walk->rowCount = k.unitCount / walk->rowLength;
  walk->outer.unitCount = walk->rowCount;
  const uint64_t e = plan.elementSize;
  // Strips when each output element of a row reads another row (the indexed dim is not the
  // last) and every row reads the same rows (outer dims all index-driven). A task copies its
  // strip of those rows into a packed scratch first: rows a power of two apart would share a
  // few cache sets and evict each other, packed they stay in L2.
  walk->stripWidth = walk->rowLength;
  walk->packed = false;
  const uint64_t lineElements = std::max<uint64_t>(1, 64 / e);
  bool sameRows = k.dataStrides[inner] != 0;
  for (uint64_t d = 0; d < inner; ++d) sameRows = sameRows && k.dataStrides[d] == 0;
  if (sameRows && walk->rowLength >= 4 * lineElements &&
      k.indexedSizes[0] * lineElements * e <= kStripReadBytes && walk->rowCount >= 64) {
    uint64_t width = lineElements;
    while (width * 2 * k.indexedSizes[0] * e <= kStripReadBytes && width * 2 <= walk->rowLength) {
      width *= 2;
    }
    walk->stripWidth = width;
    walk->packed = true;
  }
  const uint64_t strips = (walk->rowLength + walk->stripWidth - 1) / walk->stripWidth;
  const uint64_t bytes = k.unitCount * (e + plan.indexSize);
  const uint64_t worthTasks = std::max<uint64_t>(1, bytes / kTaskBytes);
  const uint64_t wanted = std::min<uint64_t>(worthTasks, 4 * static_cast<uint64_t>(threads));
  walk->rowSlices = threads <= 1 ? 1 : std::clamp<uint64_t>((wanted + strips - 1) / strips, 1, walk->rowCount);
  walk->grain = std::max<uint64_t>(1, strips * walk->rowSlices / worthTasks);
  return true;
}

// Packed strips for scatters along a dim other than the last: every unit of column j writes
// Output element j * step + p * stride. Columns own disjoint elements when step * rowLength <=
// stride, so strips of columns run in parallel and each walks its rows in order (last update
// wins, reductions in row-major order), through a packed copy of its output columns.
inline bool PlanScatterStrips(const plan::Plan& plan, RowWalk* walk) {
  if (!PlanElementRows(plan, 1, walk) || !walk->packed) return false;
  const plan::KernelConstants& k = plan.kernel;
  if (k.dataStrides[walk->inner] * walk->rowLength > k.indexedStrides[0]) return false;
  walk->rowSlices = 1;
  const uint64_t strips = (walk->rowLength + walk->stripWidth - 1) / walk->stripWidth;
  const uint64_t bytes = k.unitCount * (plan.elementSize + plan.indexSize);
  walk->grain = std::max<uint64_t>(1, strips / std::max<uint64_t>(1, bytes / kTaskBytes));
  return true;
}

// A task's scratch for packed strips, kept per thread between calls; nullptr when it cannot
// be allocated (the strip then runs in place: slower, same result).
uint8_t* StripScratch(uint64_t bytes);

// Copies columns [column, column + width) of the `bound` rows that a strip reads into
// scratch, packed (row p at p * width).
inline void PackStrip(const uint8_t* data, uint64_t step, uint64_t stride, uint64_t bound, uint64_t e,
               uint64_t column, uint64_t width, uint8_t* scratch) {
  constexpr uint64_t kAhead = 8;  // rows far apart: the hardware prefetchers do not follow
  for (uint64_t p = 0; p < bound; ++p) {
    const uint8_t* from = data + (p * stride + column * step) * e;
    uint8_t* to = scratch + p * width * e;
    if (p + kAhead < bound) {
      const uint8_t* next = data + ((p + kAhead) * stride + column * step) * e;
      for (uint64_t b = 0; b < width * step * e; b += 64) __builtin_prefetch(next + b, 0, 3);
    }
    if (step == 1) {
      std::memcpy(to, from, width * e);
    } else {
      for (uint64_t j = 0; j < width; ++j) std::memcpy(to + j * e, from + j * step * e, e);
    }
  }
}

// Hints the data row that the next output row reads (contiguous, a few pages at most).
inline void PrefetchRow(const uint8_t* row, uint64_t bytes) {
  for (uint64_t b = 0; b < bytes; b += 64) __builtin_prefetch(row + b, 0, 3);
}

inline void PrefetchForWrite(uint8_t* row, uint64_t bytes) {
  for (uint64_t b = 0; b < bytes; b += 64) __builtin_prefetch(row + b, 1, 3);
}

// The reverse of PackStrip: scratch back into the strip's columns.
inline void UnpackStrip(uint8_t* data, uint64_t step, uint64_t stride, uint64_t bound, uint64_t e,
                        uint64_t column, uint64_t width, const uint8_t* scratch) {
  constexpr uint64_t kAhead = 8;
  for (uint64_t p = 0; p < bound; ++p) {
    uint8_t* to = data + (p * stride + column * step) * e;
    const uint8_t* from = scratch + p * width * e;
    if (p + kAhead < bound) {
      uint8_t* next = data + ((p + kAhead) * stride + column * step) * e;
      for (uint64_t b = 0; b < width * step * e; b += 64) __builtin_prefetch(next + b, 1, 3);
    }
    if (step == 1) {
      std::memcpy(to, from, width * e);
    } else {
      for (uint64_t j = 0; j < width; ++j) std::memcpy(to + j * step * e, from + j * e, e);
    }
  }
}

// Outputs written by whole cache lines are streamed when what one call touches (output,
// indices and the elements read) exceeds the last-level cache: they would be evicted before
// anyone reads them.
inline bool ShouldStreamOutput(uint64_t touchedBytes) {
  const uint64_t threshold = StreamingThresholdBytes();
  return threshold > 0 && touchedBytes > threshold;
}

}  // namespace gs::cpu
