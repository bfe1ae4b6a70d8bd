// Gathers, keyed by element size and index type. Three walks, chosen from the plan:
//   element rows: one element per unit, contiguous output and indices along the last walked
//     dim: a kernel-set row kernel, in strips one cache line wide or more when each output
//     element reads another row (axis 0), so that the rows being read stay in cache;
//   block rows: a contiguous block per unit (rows, embeddings): block copies with the next
//     blocks prefetched, streamed past the caches when the output is larger than the LLC;
//   any other walk: unit by unit (element units in chunks: offsets and prefetches first).
#include <algorithm>
#include <cstring>
#include <new>
#include <vector>

#include "cpu/row_walk.h"
#include "cpu/kernel_set.h"
#include "cpu/kernels.h"
#include "cpu/walk.h"

namespace gs::cpu {
namespace {

// Element units of any other walk (tuples, strided views): offsets of a chunk of units first,
// each prefetched, then the loads, so that many random reads are in flight at once.
template <typename Element, typename IndexT>
void GatherElementChunks(const plan::KernelConstants& k, const uint8_t* input,
                         const uint8_t* indices, uint8_t* output, uint64_t begin, uint64_t end) {
  constexpr uint64_t kChunk = 128;
  constexpr uint64_t kOutOfBounds = ~uint64_t{0};
  uint64_t sources[kChunk], destinations[kChunk];
  UnitCursor cursor;
  cursor.Seek(k, begin);
  for (uint64_t first = begin; first < end; first += kChunk) {
    const uint64_t count = std::min(kChunk, end - first);
    for (uint64_t u = 0; u < count; ++u, cursor.Next(k)) {
      uint64_t source;
      destinations[u] = cursor.iterOffset;
      sources[u] = IndexedOffset<IndexT>(k, indices, cursor, &source) ? source : kOutOfBounds;
      if (sources[u] != kOutOfBounds) __builtin_prefetch(input + source * sizeof(Element), 0, 3);
    }
    for (uint64_t u = 0; u < count; ++u) {
      Element value{};
      if (sources[u] != kOutOfBounds) std::memcpy(&value, input + sources[u] * sizeof(Element), sizeof(Element));
      std::memcpy(output + destinations[u] * sizeof(Element), &value, sizeof(Element));
    }
  }
}

template <typename Element, typename IndexT>
void GatherUnits(const plan::KernelConstants& k, const uint8_t* input, const uint8_t* indices,
                 uint8_t* output, uint64_t begin, uint64_t end) {
  constexpr uint64_t size = sizeof(Element);
  const uint64_t blockBytes = k.blockElements * size;
  UnitCursor cursor;
  cursor.Seek(k, begin);
  for (uint64_t unit = begin; unit < end; ++unit, cursor.Next(k)) {
    uint8_t* destination = output + cursor.iterOffset * size;
    uint64_t source;
    const bool inBounds = IndexedOffset<IndexT>(k, indices, cursor, &source);
    if (k.blockElements == 1) {
      Element value{};
      if (inBounds) std::memcpy(&value, input + source * size, size);
      std::memcpy(destination, &value, size);
    } else if (inBounds) {
      std::memcpy(destination, input + source * size, blockBytes);
    } else {
      std::memset(destination, 0, blockBytes);
    }
  }
}

// Rows of the last walked dim through the kernel set's row kernel.
void GatherElementRows(const plan::Plan& plan, const RowWalk& walk, const uint8_t* input,
                       const uint8_t* indices, uint8_t* output, const Parallel& parallel) {
  const plan::KernelConstants& k = plan.kernel;
  const uint64_t e = plan.elementSize, x = plan.indexSize;
  const KernelTable& kernels = ActiveKernels();
  const bool stream = ShouldStreamOutput(k.unitCount * (2 * e + x));
  const GatherRowFn row = (stream ? kernels.gatherRowStreamed : kernels.gatherRow)
      [ElementSizeLog2(plan.elementSize)][IndexKind(plan.indexType)];
  const uint64_t step = k.dataStrides[walk.inner], bound = k.indexedSizes[0];
  const uint64_t stride = k.indexedStrides[0];
  // A row that reads one contiguous data row (last axis): prefetch the next one.
  const uint64_t rowReadBytes = step == 0 && stride == 1 ? bound * e : 0;
  const bool prefetch = rowReadBytes >= 4096 && rowReadBytes <= 64 * 1024;
  // Task t covers strip (t % strips) of rows [rows * (t / strips) / slices, ...).
  const uint64_t strips = (walk.rowLength + walk.stripWidth - 1) / walk.stripWidth;
  const uint64_t tasks = strips * walk.rowSlices;
  parallel.For(tasks, walk.grain, [&](uint64_t first, uint64_t last) {
    for (uint64_t t = first; t < last; ++t) {
      const uint64_t strip = t % strips, slice = t / strips;
      const uint64_t column = strip * walk.stripWidth;
      const uint64_t width = std::min(walk.stripWidth, walk.rowLength - column);
      const uint64_t rowBegin = walk.rowCount * slice / walk.rowSlices;
      const uint64_t rowEnd = walk.rowCount * (slice + 1) / walk.rowSlices;
      UnitCursor cursor;
      cursor.Seek(walk.outer, rowBegin);
      // Every row reads the same rows (cursor.dataOffset stays 0): read them from a packed
      // copy, or in place when no scratch could be had.
      uint8_t* scratch = walk.packed ? StripScratch(bound * width * e) : nullptr;
      if (scratch != nullptr) PackStrip(input, step, stride, bound, e, column, width, scratch);
      const uint8_t* rows = scratch != nullptr ? scratch : input + column * step * e;
      const uint64_t rowsStep = scratch != nullptr ? 1 : step;
      const uint64_t rowsStride = scratch != nullptr ? width : stride;
      if (walk.packed) {
        // Rows of a strip are far apart: the hardware prefetchers do not follow, so hint the
        // indices and output a few rows ahead.
        constexpr uint64_t kAhead = 8;
        UnitCursor ahead;
        ahead.Seek(walk.outer, std::min(rowEnd, rowBegin + kAhead));
        for (uint64_t r = rowBegin; r < rowEnd; ++r, cursor.Next(walk.outer)) {
          if (r + kAhead < rowEnd) {
            PrefetchRow(indices + (ahead.indexOffset + column) * x, width * x);
            PrefetchForWrite(output + (ahead.iterOffset + column) * e, width * e);
            ahead.Next(walk.outer);
          }
          row(rows, rowsStep, rowsStride, bound, indices + (cursor.indexOffset + column) * x,
              output + (cursor.iterOffset + column) * e, width);
        }
        if (stream) kernels.streamFence();
        continue;
      }
      for (uint64_t r = rowBegin; r < rowEnd; ++r) {
        const uint64_t dataOffset = cursor.dataOffset, indexOffset = cursor.indexOffset;
        const uint64_t iterOffset = cursor.iterOffset;
        cursor.Next(walk.outer);
        if (prefetch && r + 1 < rowEnd) PrefetchRow(input + cursor.dataOffset * e, rowReadBytes);
        row(input + (dataOffset + column * step) * e, step, stride, bound,
            indices + (indexOffset + column) * x, output + (iterOffset + column) * e, width);
      }
      if (stream) kernels.streamFence();
    }
  });
}

// One block per unit, in chunks of about 16 KiB of blocks: the next chunk's sources are
// resolved and prefetched while this chunk is copied, so random rows have many misses in
// flight and each index is read once.
template <typename IndexT>
void GatherBlocks(const plan::Plan& plan, const uint8_t* input, const uint8_t* indices,
                  uint8_t* output, const Parallel& parallel) {
  const plan::KernelConstants& k = plan.kernel;
  const uint64_t e = plan.elementSize;
  const uint64_t blockBytes = k.blockElements * e;
  const KernelTable& kernels = ActiveKernels();
  const bool stream =
      blockBytes >= 64 && ShouldStreamOutput(k.unitCount * (2 * blockBytes + k.tupleSize * sizeof(IndexT)));
  constexpr uint64_t kMaxChunk = 64;
  constexpr uint64_t kOutOfBounds = ~uint64_t{0};
  const uint64_t chunk = std::clamp<uint64_t>(16384 / blockBytes, 4, kMaxChunk);
  const uint64_t prefetchBytes = std::min<uint64_t>(blockBytes, 4096);
  parallel.For(k.unitCount, GrainUnits(blockBytes + k.tupleSize * sizeof(IndexT)),
               [&](uint64_t begin, uint64_t end) {
    uint64_t sources[2][kMaxChunk], destinations[2][kMaxChunk];
    UnitCursor cursor;
    cursor.Seek(k, begin);
    // Resolves units [first, first + count) into slot `s`, prefetching their sources.
    auto resolve = [&](uint64_t s, uint64_t count) {
      for (uint64_t u = 0; u < count; ++u, cursor.Next(k)) {
        uint64_t source;
        destinations[s][u] = cursor.iterOffset;
        sources[s][u] = IndexedOffset<IndexT>(k, indices, cursor, &source) ? source : kOutOfBounds;
        if (sources[s][u] == kOutOfBounds) continue;
        const uint8_t* p = input + source * e;
        for (uint64_t b = 0; b < prefetchBytes; b += 64) __builtin_prefetch(p + b, 0, 3);
      }
    };
    uint64_t slot = 0;
    resolve(slot, std::min(chunk, end - begin));
    for (uint64_t first = begin; first < end; first += chunk, slot ^= 1) {
      const uint64_t count = std::min(chunk, end - first);
      if (first + count < end) resolve(slot ^ 1, std::min(chunk, end - first - count));
      for (uint64_t u = 0; u < count; ++u) {
        uint8_t* destination = output + destinations[slot][u] * e;
        if (sources[slot][u] == kOutOfBounds) {
          std::memset(destination, 0, blockBytes);
        } else if (stream) {
          kernels.streamCopy(destination, input + sources[slot][u] * e, blockBytes);
        } else {
          std::memcpy(destination, input + sources[slot][u] * e, blockBytes);
        }
      }
    }
    if (stream) kernels.streamFence();
  });
}

// GatherND element gathers whose tuples are contiguous along the last walked dim, as is the
// output: rows of tuples through the kernel set's tuple kernel, rows cut into pieces of about
// 64 KiB of work so that one long row still spreads over the threads.
bool GatherTupleRows(const plan::Plan& plan, const uint8_t* input, const uint8_t* indices,
                     uint8_t* output, const Parallel& parallel) {
  const plan::KernelConstants& k = plan.kernel;
  if (k.blockElements != 1 || k.tupleSize < 2 || k.rank == 0) return false;
  const uint64_t inner = k.rank - 1;
  if (k.iterStrides[inner] != 1 || k.indexStrides[inner] != k.tupleSize || k.tupleStride != 1 ||
      k.dataStrides[inner] != 0) {
    return false;
  }
  plan::KernelConstants outer = k;
  outer.rank = inner;
  const uint64_t e = plan.elementSize, x = plan.indexSize;
  const uint64_t rowLength = k.sizes[inner], rows = k.unitCount / rowLength;
  const uint64_t pieceUnits = GrainUnits(e + k.tupleSize * x);
  const uint64_t pieces = (rowLength + pieceUnits - 1) / pieceUnits;
  const GatherTupleRowFn row =
      ActiveKernels().gatherTupleRow[ElementSizeLog2(plan.elementSize)][IndexKind(plan.indexType)];
  parallel.For(rows * pieces, 1, [&](uint64_t first, uint64_t last) {
    for (uint64_t t = first; t < last; ++t) {
      const uint64_t column = (t % pieces) * pieceUnits;
      UnitCursor cursor;
      cursor.Seek(outer, t / pieces);
      row(input + cursor.dataOffset * e, k.indexedSizes, k.indexedStrides, k.tupleSize,
          indices + (cursor.indexOffset + column * k.tupleSize) * x,
          output + (cursor.iterOffset + column) * e, std::min(pieceUnits, rowLength - column));
    }
  });
  return true;
}

}  // namespace

uint8_t* StripScratch(uint64_t bytes) {
  thread_local std::vector<uint8_t> scratch;
  if (scratch.size() < bytes) {
    try {
      scratch.resize(bytes);
    } catch (const std::bad_alloc&) {  // other tasks may have written: no exception now
      return nullptr;
    }
  }
  return scratch.data();
}

void RunGather(const plan::Plan& plan, const uint8_t* input, const uint8_t* indices,
               uint8_t* output, const Parallel& parallel) {
  const plan::KernelConstants& k = plan.kernel;
  RowWalk walk;
  if (PlanElementRows(plan, parallel.concurrency(), &walk)) {
    GatherElementRows(plan, walk, input, indices, output, parallel);
    return;
  }
  if (GatherTupleRows(plan, input, indices, output, parallel)) return;
  if (k.blockElements * plan.elementSize >= 64) {
    WithIndexType(plan.indexType, [&](auto index) {
      GatherBlocks<decltype(index)>(plan, input, indices, output, parallel);
    });
    return;
  }
  WithElementSize(plan.elementSize, [&](auto element) {
    WithIndexType(plan.indexType, [&](auto index) {
      using Element = decltype(element);
      using IndexT = decltype(index);
      const uint64_t grain = GrainUnits(k.blockElements * sizeof(Element) + k.tupleSize * sizeof(IndexT));
      parallel.For(k.unitCount, grain, [&](uint64_t begin, uint64_t end) {
        if (k.blockElements == 1) {
          GatherElementChunks<Element, IndexT>(k, input, indices, output, begin, end);
        } else {
          GatherUnits<Element, IndexT>(k, input, indices, output, begin, end);
        }
      });
    });
  });
}

}  // namespace gs::cpu
