// The gather entries of the CPU implementation list (plan/cpu_choice.cc): their walks, keyed
// by element size and index type, and their run functions.
#include <algorithm>
#include <atomic>
#include <cstring>
#include <new>
#include <vector>

#include "cpu/implementations.h"
#include "cpu/kernel_set.h"
#include "cpu/row_walk.h"
#include "cpu/validate_indices.h"
#include "cpu/walk.h"

namespace gs::cpu {
namespace {

// Element units of any other walk (tuples, strided views): offsets of a chunk of units first,
// each prefetched, then the loads, so that many random reads are in flight at once.
template <typename Element, typename IndexT>
bool GatherElementChunks(const plan::KernelConstants& k, const uint8_t* input,
                         const uint8_t* indices, uint8_t* output, uint64_t begin, uint64_t end) {
  constexpr uint64_t kChunk = 128;
  constexpr uint64_t kOutOfBounds = ~uint64_t{0};
  uint64_t sources[kChunk], destinations[kChunk];
  bool allInBounds = true;
  UnitCursor cursor(k, begin);
  for (uint64_t first = begin; first < end; first += kChunk) {
    const uint64_t count = std::min(kChunk, end - first);
    for (uint64_t u = 0; u < count; ++u, cursor.Next()) {
      uint64_t source;
      destinations[u] = cursor.iter();
      const bool inBounds = IndexedOffset<IndexT>(k, indices, cursor, &source);
      allInBounds &= inBounds;
      sources[u] = inBounds ? source : kOutOfBounds;
      if (inBounds) __builtin_prefetch(input + source * sizeof(Element), 0, 3);
    }
    for (uint64_t u = 0; u < count; ++u) {
      Element value{};
      if (sources[u] != kOutOfBounds) std::memcpy(&value, input + sources[u] * sizeof(Element), sizeof(Element));
      std::memcpy(output + destinations[u] * sizeof(Element), &value, sizeof(Element));
    }
  }
  return allInBounds;
}

template <typename Element, typename IndexT>
bool GatherUnits(const plan::KernelConstants& k, const uint8_t* input, const uint8_t* indices,
                 uint8_t* output, uint64_t begin, uint64_t end) {
  constexpr uint64_t size = sizeof(Element);
  const uint64_t blockBytes = k.blockElements * size;
  bool allInBounds = true;
  UnitCursor cursor(k, begin);
  for (uint64_t unit = begin; unit < end; ++unit, cursor.Next()) {
    uint8_t* destination = output + cursor.iter() * size;
    uint64_t source;
    const bool inBounds = IndexedOffset<IndexT>(k, indices, cursor, &source);
    allInBounds &= inBounds;
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
  return allInBounds;
}

// Whether any task of a call met an out-of-bounds index (each task notes it once).
class OutOfBoundsFlag {
 public:
  void Note(bool allInBounds) {
    if (!allInBounds) seen_.store(true, std::memory_order_relaxed);
  }
  bool seen() const { return seen_.load(std::memory_order_relaxed); }

 private:
  std::atomic<bool> seen_{false};
};

// The rows a packed strip reads: its scratch copy, or the input in place, and the row kernel
// form for them.
struct StripRows {
  const uint8_t* rows;
  uint64_t step, stride;
  GatherRowFn row;
};

// Rows of the last walked dim through the kernel set's row kernel, in strips of columns when
// the plan packed them.
bool GatherElementRows(const plan::Plan& plan, const uint8_t* input, const uint8_t* indices,
                       uint8_t* output, const Parallel& parallel, bool checked) {
  const plan::KernelConstants& k = plan.walk;
  const plan::RowGeometry& rows = plan.cpu.rows;
  const RowTiling tiling = TileRows(plan, parallel.concurrency());
  const uint64_t e = plan.elementSize, x = plan.indexSize;
  const KernelTable& kernels = KernelsOf(plan.cpu.kernelSet);
  const bool stream = plan.cpu.streamOutput;
  // Checked mode: the tracked kernels (they count bad indices as they go). The plan's form;
  // a strip read in place (no scratch) takes any offsets.
  const auto& forms = stream ? kernels.gatherRowStreamed : kernels.gatherRow;
  const uint32_t log2 = ElementSizeLog2(plan.elementSize), kind = IndexKind(plan.indexType);
  const RowOffsets form = rows.offsetsFit31 ? RowOffsets::Fit31 : RowOffsets::Any;
  const GatherRowFn row = forms[static_cast<uint32_t>(form)][checked][log2][kind];
  const GatherRowFn rowInPlace = forms[static_cast<uint32_t>(RowOffsets::Any)][checked][log2][kind];
  const uint64_t step = k.dataStrides[rows.inner], bound = k.indexedSizes[0];
  const uint64_t stride = k.indexedStrides[0];
  const uint64_t nextRowBytes = plan.cpu.nextRowHintBytes;
  // Task t covers strip (t % strips) of rows [rows * (t / strips) / slices, ...).
  OutOfBoundsFlag outOfBounds;
  parallel.For(tiling.tasks(), tiling.grain, [&](uint64_t first, uint64_t last) {
    bool allInBounds = true;
    for (uint64_t t = first; t < last; ++t) {
      const uint64_t column = (t % tiling.strips) * tiling.stripWidth;
      const uint64_t slice = t / tiling.strips;
      const uint64_t width = std::min(tiling.stripWidth, rows.rowLength - column);
      const uint64_t rowBegin = rows.rowCount * slice / tiling.rowSlices;
      const uint64_t rowEnd = rows.rowCount * (slice + 1) / tiling.rowSlices;
      UnitCursor cursor(tiling.outer, rowBegin);
      if (!rows.packed) {
        for (uint64_t r = rowBegin; r < rowEnd; ++r) {
          const uint64_t data = cursor.data(), index = cursor.index(), iter = cursor.iter();
          cursor.Next();
          // The row's indices are hinted ahead of use, on into the next row's (this strip's).
          NextRowData next;
          next.hintIndices = true;
          if (r + 1 < rowEnd) {
            next.nextIndices = indices + (cursor.index() + column) * x;
            if (nextRowBytes != 0) {
              next.at = input + cursor.data() * e;
              next.bytes = nextRowBytes;
            }
          }
          allInBounds &= row(input + (data + column * step) * e, step, stride, bound,
                             indices + (index + column) * x, output + (iter + column) * e, width, next);
        }
        if (stream) kernels.streamFence();
        continue;
      }
      // Every row reads the same rows (the cursor's data offset stays 0): read them from a
      // packed copy, or in place when no scratch could be had.
      uint8_t* scratch = StripScratch(bound * width * e);
      if (scratch != nullptr) PackStrip(input, step, stride, bound, e, column, width, scratch);
      const StripRows source = scratch != nullptr ? StripRows{scratch, 1, width, row}
                                                  : StripRows{input + column * step * e, step, stride, rowInPlace};
      UnitCursor ahead(tiling.outer, std::min(rowEnd, rowBegin + kRowsAhead));
      for (uint64_t r = rowBegin; r < rowEnd; ++r, cursor.Next()) {
        if (r + kRowsAhead < rowEnd) {
          PrefetchRow(indices + (ahead.index() + column) * x, width * x);
          // Not when streamed: the hint would read each output line for ownership, the very
          // read non-temporal stores are there to save.
          if (!stream) PrefetchForWrite(output + (ahead.iter() + column) * e, width * e);
          ahead.Next();
        }
        allInBounds &= source.row(source.rows, source.step, source.stride, bound,
                           indices + (cursor.index() + column) * x,
                           output + (cursor.iter() + column) * e, width, NextRowData{});
      }
      if (stream) kernels.streamFence();
    }
    outOfBounds.Note(allInBounds);
  });
  return !outOfBounds.seen();
}

// One block per unit, through the kernel set's walk (simd/block_walk.h).
bool GatherBlocks(const plan::Plan& plan, const uint8_t* input, const uint8_t* indices,
                  uint8_t* output, const Parallel& parallel) {
  const GatherBlocksFn run =
      KernelsOf(plan.cpu.kernelSet).gatherBlocks[plan.cpu.streamOutput ? 1 : 0][IndexKind(plan.indexType)];
  const BlockWalk walk{&plan.walk, input, indices, output, plan.elementSize, plan.cpu.aheadUnits,
                       plan.cpu.prefetchBytes};
  OutOfBoundsFlag outOfBounds;
  parallel.For(plan.walk.unitCount, plan.cpu.taskUnits,
               [&](uint64_t begin, uint64_t end) { outOfBounds.Note(run(walk, begin, end) == 0); });
  return !outOfBounds.seen();
}

// GatherND element gathers whose tuples are contiguous along the last walked dim, as is the
// output: rows of tuples through the kernel set's tuple kernel, rows cut into pieces of a
// task's work so that one long row still spreads over the threads.
bool GatherTupleRows(const plan::Plan& plan, const uint8_t* input, const uint8_t* indices,
                     uint8_t* output, const Parallel& parallel) {
  const plan::KernelConstants& k = plan.walk;
  const plan::RowGeometry& rows = plan.cpu.rows;
  plan::KernelConstants outer = k;
  outer.rank = rows.inner;
  const uint64_t e = plan.elementSize, x = plan.indexSize;
  const uint64_t pieceUnits = plan.cpu.taskUnits;
  const uint64_t pieces = (rows.rowLength + pieceUnits - 1) / pieceUnits;
  const RowOffsets form = rows.offsetsFit31 ? RowOffsets::Fit31 : RowOffsets::Any;
  const GatherTupleRowFn row = KernelsOf(plan.cpu.kernelSet)
      .gatherTupleRow[static_cast<uint32_t>(form)][ElementSizeLog2(plan.elementSize)][IndexKind(plan.indexType)];
  const uint64_t tasks = rows.rowCount * pieces;
  OutOfBoundsFlag outOfBounds;
  parallel.For(tasks, rows.piecesPerTask, [&](uint64_t first, uint64_t last) {
    bool allInBounds = true;
    for (uint64_t t = first; t < last; ++t) {
      const uint64_t column = (t % pieces) * pieceUnits;
      const UnitCursor cursor(outer, t / pieces);
      allInBounds &= row(input + cursor.data() * e, k.indexedSizes, k.indexedStrides, k.tupleSize,
          indices + (cursor.index() + column * k.tupleSize) * x,
          output + (cursor.iter() + column) * e, std::min(pieceUnits, rows.rowLength - column), rows.hintedOffsets);
    }
    outOfBounds.Note(allInBounds);
  });
  return !outOfBounds.seen();
}

// The generic walks: element units in chunks (elements), other units one by one.
bool GatherAnyUnits(const plan::Plan& plan, const uint8_t* input, const uint8_t* indices,
                    uint8_t* output, const Parallel& parallel, bool elements) {
  const plan::KernelConstants& k = plan.walk;
  OutOfBoundsFlag outOfBounds;
  WithElementSize(plan.elementSize, [&](auto element) {
    WithIndexType(plan.indexType, [&](auto index) {
      using Element = decltype(element);
      using IndexT = decltype(index);
      parallel.For(k.unitCount, plan.cpu.taskUnits, [&](uint64_t begin, uint64_t end) {
        outOfBounds.Note(elements
                             ? GatherElementChunks<Element, IndexT>(k, input, indices, output, begin, end)
                             : GatherUnits<Element, IndexT>(k, input, indices, output, begin, end));
      });
    });
  });
  return !outOfBounds.seen();
}

// The end of every checked gather: only when the walk met a bad index does a second pass name
// the first in row-major order, the same whatever the tiles' order. An empty output reads no
// index, so its indices are validated on their own.
Status FinishGather(const plan::Plan& plan, const plan::HostBuffers& buffers, const Parallel& parallel,
                    bool checked, bool allInBounds) {
  if (!checked) return Status::Ok();
  if (plan.walk.unitCount == 0) return ValidateIndices(plan, buffers.indices, parallel);
  return allInBounds ? Status::Ok() : OutOfBoundsStatus(plan, buffers.indices, parallel);
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

Status RunGatherElementRows(const plan::Plan& plan, const plan::HostBuffers& buffers, const Parallel& parallel,
                            bool checked) {
  NoteImplementationRun(plan::CpuImplementation::GatherElementRows);
  const bool allInBounds = GatherElementRows(plan, buffers.input, buffers.indices, buffers.output, parallel, checked);
  return FinishGather(plan, buffers, parallel, checked, allInBounds);
}

Status RunGatherTupleRows(const plan::Plan& plan, const plan::HostBuffers& buffers, const Parallel& parallel,
                          bool checked) {
  NoteImplementationRun(plan::CpuImplementation::GatherTupleRows);
  const bool allInBounds = GatherTupleRows(plan, buffers.input, buffers.indices, buffers.output, parallel);
  return FinishGather(plan, buffers, parallel, checked, allInBounds);
}

Status RunGatherBlocks(const plan::Plan& plan, const plan::HostBuffers& buffers, const Parallel& parallel,
                       bool checked) {
  NoteImplementationRun(plan::CpuImplementation::GatherBlocks);
  const bool allInBounds = GatherBlocks(plan, buffers.input, buffers.indices, buffers.output, parallel);
  return FinishGather(plan, buffers, parallel, checked, allInBounds);
}

Status RunGatherElementUnits(const plan::Plan& plan, const plan::HostBuffers& buffers, const Parallel& parallel,
                             bool checked) {
  NoteImplementationRun(plan::CpuImplementation::GatherElementUnits);
  const bool allInBounds = GatherAnyUnits(plan, buffers.input, buffers.indices, buffers.output, parallel, true);
  return FinishGather(plan, buffers, parallel, checked, allInBounds);
}

Status RunGatherUnits(const plan::Plan& plan, const plan::HostBuffers& buffers, const Parallel& parallel,
                      bool checked) {
  NoteImplementationRun(plan::CpuImplementation::GatherUnits);
  const bool allInBounds = GatherAnyUnits(plan, buffers.input, buffers.indices, buffers.output, parallel, false);
  return FinishGather(plan, buffers, parallel, checked, allInBounds);
}

}  // namespace gs::cpu
