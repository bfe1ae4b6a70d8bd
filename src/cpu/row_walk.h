// Row and strip implementations (plan::RowGeometry): how a call tiles them over its threads,
// and the strip helpers. The geometry itself is decided by the plan (plan/cpu_choice.cc);
// only what depends on the thread count of a call is decided here.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "cpu/kernel_set.h"
#include "plan/plan.h"

namespace gs::cpu {

// The most rows of indices a scatter strip walk narrows at a time (RowTiling::narrowRows).
inline constexpr uint64_t kMaxNarrowRows = 64;

// Tasks of a row walk: strips of columns x slices of rows.
struct RowTiling {
  plan::KernelConstants outer;  // the walk without its last dim: one unit per row
  uint64_t strips = 1;
  uint64_t stripWidth = 0;  // columns per strip
  uint64_t rowSlices = 1;
  uint64_t grain = 1;  // tasks per oneTBB range
  uint64_t narrowRows = 1;  // scatter strips: rows of indices narrowed at a time

  uint64_t tasks() const { return strips * rowSlices; }
};

// Gathers: enough tasks for `threads` (four each) of at least plan::kTaskBytes of work.
inline RowTiling TileRows(const plan::Plan& plan, int threads) {
  const plan::RowGeometry& rows = plan.cpu.rows;
  RowTiling tiling;
  tiling.outer = plan.walk;
  tiling.outer.rank = rows.inner;
  tiling.outer.unitCount = rows.rowCount;
  tiling.stripWidth = rows.stripWidth;
  tiling.strips = (rows.rowLength + rows.stripWidth - 1) / rows.stripWidth;
  const uint64_t bytes = plan.walk.unitCount * (plan.elementSize + plan.indexSize);
  const uint64_t worthTasks = std::max<uint64_t>(1, bytes / plan::kTaskBytes);
  const uint64_t wanted = std::min<uint64_t>(worthTasks, 4 * static_cast<uint64_t>(threads));
  tiling.rowSlices = threads <= 1 ? 1
                                  : std::clamp<uint64_t>((wanted + tiling.strips - 1) / tiling.strips,
                                                         1, rows.rowCount);
  tiling.grain = std::max<uint64_t>(1, tiling.strips * tiling.rowSlices / worthTasks);
  return tiling;
}

// Scatter strips: whole columns per task (each walks every row in order). Where the plan's
// strips are fewer than the threads and the call is worth a team, they are halved, down to a
// cache line of columns each, so that every thread gets one.
inline RowTiling TileScatterStrips(const plan::Plan& plan, int threads) {
  RowTiling tiling = TileRows(plan, 1);
  const uint64_t bytes = plan.walk.unitCount * (plan.elementSize + plan.indexSize);
  const uint64_t worthTasks = std::max<uint64_t>(1, bytes / plan::kTaskBytes);
  const uint64_t lineElements = std::max<uint64_t>(1, 64 / plan.elementSize);
  const uint64_t rowLength = plan.cpu.rows.rowLength;
  while (tiling.strips < static_cast<uint64_t>(threads) && tiling.strips < worthTasks &&
         tiling.stripWidth % (2 * lineElements) == 0) {
    tiling.stripWidth /= 2;
    tiling.strips = (rowLength + tiling.stripWidth - 1) / tiling.stripWidth;
  }
  tiling.grain = std::max<uint64_t>(1, tiling.strips / worthTasks);
  // Narrowed, enough rows at a time that each strip's indices go out in runs of 1 KiB, which
  // the prefetchers follow, rather than a piece a row into every strip; the rows' indices,
  // read once a strip, stay within 256 KiB (perf/results/2026-12-05-narrowed-blocks.md).
  const uint64_t runRows = (1024 + 2 * tiling.stripWidth - 1) / (2 * tiling.stripWidth);
  const uint64_t cachedRows = std::max<uint64_t>(1, (256 << 10) / std::max<uint64_t>(1, rowLength * plan.indexSize));
  tiling.narrowRows = std::min({runRows, cachedRows, kMaxNarrowRows});
  return tiling;
}

// A task's scratch for packed strips, kept per thread between calls; nullptr when it cannot
// be allocated (the strip then runs in place: slower, same result).
uint8_t* StripScratch(uint64_t bytes);

// Rows of a strip are far apart: the hardware prefetchers do not follow them.
inline constexpr uint64_t kRowsAhead = 8;

// Copies columns [column, column + width) of the `bound` rows that a strip reads into
// scratch, packed (row p at p * width).
inline void PackStrip(const uint8_t* data, uint64_t step, uint64_t stride, uint64_t bound, uint64_t e,
                      uint64_t column, uint64_t width, uint8_t* scratch) {
  for (uint64_t p = 0; p < bound; ++p) {
    const uint8_t* from = data + (p * stride + column * step) * e;
    uint8_t* to = scratch + p * width * e;
    if (p + kRowsAhead < bound) {
      const uint8_t* next = data + ((p + kRowsAhead) * stride + column * step) * e;
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

// The reverse of PackStrip: scratch back into the strip's columns; with `stream` (contiguous
// columns only, step 1) past the cache, which the caller fences.
inline void UnpackStrip(uint8_t* data, uint64_t step, uint64_t stride, uint64_t bound, uint64_t e,
                        uint64_t column, uint64_t width, const uint8_t* scratch, StreamCopyFn stream) {
  for (uint64_t p = 0; p < bound; ++p) {
    uint8_t* to = data + (p * stride + column * step) * e;
    const uint8_t* from = scratch + p * width * e;
    if (stream != nullptr) {
      stream(to, from, width * e);
      continue;
    }
    if (p + kRowsAhead < bound) {
      uint8_t* next = data + ((p + kRowsAhead) * stride + column * step) * e;
      for (uint64_t b = 0; b < width * step * e; b += 64) __builtin_prefetch(next + b, 1, 3);
    }
    if (step == 1) {
      std::memcpy(to, from, width * e);
    } else {
      for (uint64_t j = 0; j < width; ++j) std::memcpy(to + j * step * e, from + j * e, e);
    }
  }
}

// A strip's columns from one tensor into another of the same layout, without a scratch.
inline void CopyStrip(const uint8_t* from, uint8_t* to, uint64_t step, uint64_t stride, uint64_t bound, uint64_t e,
                      uint64_t column, uint64_t width) {
  for (uint64_t p = 0; p < bound; ++p) {
    const uint64_t offset = (p * stride + column * step) * e;
    if (step == 1) {
      std::memcpy(to + offset, from + offset, width * e);
    } else {
      for (uint64_t j = 0; j < width; ++j) std::memcpy(to + offset + j * step * e, from + offset + j * step * e, e);
    }
  }
}

}  // namespace gs::cpu
