// The scatter entries that write in row-major order: strips of columns, lines of reductions,
// rows through the row kernel, and the generic unit walk.
#include "cpu/scatter.h"

#include <algorithm>
#include <atomic>
#include <memory>

#include "cpu/implementations.h"
#include "cpu/row_walk.h"
#include "cpu/validate_indices.h"

namespace gs::cpu {

Status ValidateAndCopy(const plan::Plan& plan, const plan::HostBuffers& buffers, const Parallel& parallel,
                       bool checked, bool indicesKnownValid) {
  if (checked && !indicesKnownValid) {
    const Status status = ValidateIndices(plan, buffers.indices, parallel);
    if (!status.ok()) return status;
  }
  if (!buffers.inPlace) RunStridedCopy(plan, buffers.input, buffers.output, parallel);
  return Status::Ok();
}

namespace {

// Whether a call takes the Output's elements from the Input as its strips or lines walk them.
bool WalkCopiesInput(const plan::Plan& plan, const plan::HostBuffers& buffers) {
  return !buffers.inPlace && plan.cpu.rows.walkCopiesInput;
}

// ValidateAndCopy, but with no copy where the walk copies the Input itself.
Status ValidateBeforeWalk(const plan::Plan& plan, const plan::HostBuffers& buffers, const Parallel& parallel,
                          bool checked, bool indicesKnownValid = false) {
  if (!WalkCopiesInput(plan, buffers)) return ValidateAndCopy(plan, buffers, parallel, checked, indicesKnownValid);
  return checked && !indicesKnownValid ? ValidateIndices(plan, buffers.indices, parallel) : Status::Ok();
}

// Every index of the strips narrowed (NarrowIndicesFn) into `to`, strip by strip: strip s's row
// r at (s * rowCount + r) * stripWidth, tiling.narrowRows rows at a time. The checked error
// where one is out of bounds.
Status NarrowStripIndices(const plan::Plan& plan, const RowTiling& tiling, const uint8_t* indices,
                          const Parallel& parallel, uint16_t* to) {
  const plan::RowGeometry& rows = plan.cpu.rows;
  const NarrowIndicesFn narrow = KernelsOf(plan.cpu.kernelSet).narrowIndices[IndexKind(plan.indexType)];
  const uint64_t bound = plan.walk.indexedSizes[0], x = plan.indexSize;
  const uint64_t grain = std::max<uint64_t>(1, plan::kTaskBytes / (rows.rowLength * x));
  std::atomic<bool> allInBounds{true};
  parallel.For(rows.rowCount, grain, [&](uint64_t begin, uint64_t end) {
    bool ok = true;
    UnitCursor cursor(tiling.outer, begin);
    uint64_t rowIndices[kMaxNarrowRows];  // where each row of the block starts
    for (uint64_t first = begin; first < end; first += tiling.narrowRows) {
      const uint64_t blockRows = std::min(tiling.narrowRows, end - first);
      for (uint64_t i = 0; i < blockRows; ++i, cursor.Next()) rowIndices[i] = cursor.index();
      for (uint64_t strip = 0; strip < tiling.strips; ++strip) {
        const uint64_t column = strip * tiling.stripWidth;
        const uint64_t width = std::min(tiling.stripWidth, rows.rowLength - column);
        for (uint64_t i = 0; i < blockRows; ++i) {
          ok &= narrow(indices + (rowIndices[i] + column) * x, width, bound,
                       to + (strip * rows.rowCount + first + i) * tiling.stripWidth);
        }
      }
    }
    if (!ok) allInBounds.store(false, std::memory_order_relaxed);
  });
  return allInBounds.load() ? Status::Ok() : OutOfBoundsStatus(plan, indices, parallel);
}

}  // namespace

// Rows of updates a strip of overwrites hints ahead, fewer than kRowsAhead: its random stores
// into the scratch need line fill buffers too, which hints further ahead would hold. A fold's
// arithmetic between the stores leaves room for kRowsAhead.
constexpr uint64_t kOverwriteRowsAhead = 4;

// Columns own disjoint outputs (plan/cpu_choice.cc), so strips of columns run in parallel,
// each walking every row in order through a packed copy of its columns. Where the strips
// cover the Output, a call that is not in place packs them from the Input instead of copying
// it first.
Status RunScatterStrips(const plan::Plan& plan, const plan::HostBuffers& buffers, const Parallel& parallel,
                        bool checked) {
  NoteImplementationRun(plan::CpuImplementation::ScatterStrips);
  const plan::RowGeometry& rows = plan.cpu.rows;
  const RowTiling tiling = TileScatterStrips(plan, parallel.concurrency());
  // Checked, the validation may narrow the indices for the walk; without the memory it only
  // validates.
  std::unique_ptr<plan::KeptScratch::Block> narrowed;
  if (checked && rows.narrowIndices) narrowed = plan.kept.Take(rows.rowCount * tiling.strips * tiling.stripWidth * 2);
  uint16_t* narrowedIndices = narrowed != nullptr ? reinterpret_cast<uint16_t*>(narrowed->data.get()) : nullptr;
  Status status = Status::Ok();
  if (narrowedIndices != nullptr) status = NarrowStripIndices(plan, tiling, buffers.indices, parallel, narrowedIndices);
  if (status.ok()) status = ValidateBeforeWalk(plan, buffers, parallel, checked, narrowedIndices != nullptr);
  if (!status.ok()) {
    plan.kept.Keep(std::move(narrowed));
    return status;
  }
  const bool fromInput = WalkCopiesInput(plan, buffers);
  const uint8_t* indices = buffers.indices;
  const uint8_t* updates = buffers.updates;
  uint8_t* output = buffers.output;
  const uint8_t* source = fromInput ? buffers.input : output;
  const plan::KernelConstants& k = plan.walk;
  const KernelTable& kernels = KernelsOf(plan.cpu.kernelSet);
  const StreamCopyFn stream = rows.streamStrips ? kernels.streamCopy : nullptr;
  const uint64_t e = plan.elementSize, x = plan.indexSize;
  const uint64_t step = k.dataStrides[rows.inner], bound = k.indexedSizes[0];
  const uint64_t stride = k.indexedStrides[0];
  const ScatterRowFn row = narrowedIndices != nullptr
                               ? kernels.scatterRowNarrowed[ElementSizeLog2(plan.elementSize)]
                               : kernels.scatterRow[ElementSizeLog2(plan.elementSize)][IndexKind(plan.indexType)];
  const FoldRowFn fold = plan.reduction == Reduction::None
                             ? nullptr
                             : SelectFoldRow(plan.cpu.kernelSet, plan.dataType, plan.reduction, plan.indexType);
  const uint64_t rowsAhead = fold == nullptr ? kOverwriteRowsAhead : kRowsAhead;
  parallel.For(tiling.strips, tiling.grain, [&](uint64_t first, uint64_t last) {
    IeeeFloatScope ieee;
    for (uint64_t strip = first; strip < last; ++strip) {
      const uint64_t column = strip * tiling.stripWidth;
      const uint64_t width = std::min(tiling.stripWidth, rows.rowLength - column);
      // The strip's output columns, packed; in place when no scratch could be had.
      uint8_t* scratch = StripScratch(bound * width * e);
      if (scratch != nullptr) {
        PackStrip(source, step, stride, bound, e, column, width, scratch);
      } else if (fromInput) {
        CopyStrip(source, output, step, stride, bound, e, column, width);
      }
      uint8_t* columns = scratch != nullptr ? scratch : output + column * step * e;
      const uint64_t columnsStep = scratch != nullptr ? 1 : step;
      const uint64_t columnsStride = scratch != nullptr ? width : stride;
      UnitCursor cursor(tiling.outer, 0), ahead(tiling.outer, std::min(rows.rowCount, rowsAhead));
      // Narrowed, the strip's indices are one stream, which the hardware follows.
      const uint16_t* stripIndices =
          narrowedIndices != nullptr ? narrowedIndices + strip * rows.rowCount * tiling.stripWidth : nullptr;
      for (uint64_t r = 0; r < rows.rowCount; ++r, cursor.Next()) {
        if (r + rowsAhead < rows.rowCount) {
          if (stripIndices == nullptr) PrefetchRow(indices + (ahead.index() + column) * x, width * x);
          PrefetchRow(updates + (ahead.iter() + column) * e, width * e);
          ahead.Next();
        }
        const uint8_t* rowIndices = stripIndices != nullptr
                                        ? reinterpret_cast<const uint8_t*>(stripIndices + r * tiling.stripWidth)
                                        : indices + (cursor.index() + column) * x;
        const uint8_t* rowUpdates = updates + (cursor.iter() + column) * e;
        if (fold == nullptr) {
          row(columns, columnsStep, columnsStride, bound, rowIndices, rowUpdates, width);
        } else {
          fold(columns, columnsStep, columnsStride, bound, rowIndices, rowUpdates, width);
        }
      }
      if (scratch != nullptr) UnpackStrip(output, step, stride, bound, e, column, width, scratch, stream);
    }
    if (stream != nullptr) kernels.streamFence();
  });
  plan.kept.Keep(std::move(narrowed));
  return Status::Ok();
}

// Updates a line's fold takes between hints of the next line.
constexpr uint64_t kLineChunk = 256;

// Each row folds into its own line of the output (plan/cpu_choice.cc), so slices of rows run in
// parallel, each row's updates in order. Where the lines are the whole Output, a call that is not
// in place copies each line from the Input just before folding it.
Status RunScatterLines(const plan::Plan& plan, const plan::HostBuffers& buffers, const Parallel& parallel,
                       bool checked) {
  NoteImplementationRun(plan::CpuImplementation::ScatterLines);
  const Status status = ValidateBeforeWalk(plan, buffers, parallel, checked);
  if (!status.ok()) return status;
  const plan::RowGeometry& rows = plan.cpu.rows;
  const bool fromInput = WalkCopiesInput(plan, buffers);
  const plan::KernelConstants& k = plan.walk;
  const uint64_t e = plan.elementSize, x = plan.indexSize;
  const FoldRowFn fold = SelectFoldRow(plan.cpu.kernelSet, plan.dataType, plan.reduction, plan.indexType);
  const RowTiling tiling = TileRows(plan, parallel.concurrency());
  // A row's updates land anywhere in its line: a contiguous next line is hinted for writing a
  // slice per chunk of this row, so that its first touches do not wait on memory one by one.
  const uint64_t stride = k.indexedStrides[0], bound = k.indexedSizes[0];
  const uint64_t lineBytes = stride == 1 ? bound * e : 0;
  const uint64_t chunks = (rows.rowLength + kLineChunk - 1) / kLineChunk;
  const uint64_t aheadBytes = (lineBytes + chunks - 1) / chunks;
  parallel.For(tiling.rowSlices, tiling.grain, [&](uint64_t first, uint64_t last) {
    IeeeFloatScope ieee;
    for (uint64_t slice = first; slice < last; ++slice) {
      const uint64_t rowBegin = rows.rowCount * slice / tiling.rowSlices;
      const uint64_t rowEnd = rows.rowCount * (slice + 1) / tiling.rowSlices;
      UnitCursor cursor(tiling.outer, rowBegin), next(tiling.outer, rowBegin + 1);
      for (uint64_t r = rowBegin; r < rowEnd; ++r, cursor.Next(), next.Next()) {
        uint8_t* line = buffers.output + cursor.data() * e;
        uint8_t* nextLine = r + 1 < rowEnd && aheadBytes > 0 ? buffers.output + next.data() * e : nullptr;
        if (fromInput) std::memcpy(line, buffers.input + cursor.data() * e, lineBytes);
        for (uint64_t j = 0, c = 0; j < rows.rowLength; j += kLineChunk, ++c) {
          if (nextLine != nullptr && c * aheadBytes < lineBytes) {
            PrefetchForWrite(nextLine + c * aheadBytes, std::min(aheadBytes, lineBytes - c * aheadBytes));
          }
          fold(line, 0, stride, bound, buffers.indices + (cursor.index() + j) * x,
               buffers.updates + (cursor.iter() + j) * e, std::min(kLineChunk, rows.rowLength - j));
        }
      }
    }
  });
  return Status::Ok();
}

// Element rows in row-major order through the kernel set's row kernel, on the calling thread.
Status RunScatterElementRows(const plan::Plan& plan, const plan::HostBuffers& buffers, const Parallel& parallel,
                             bool checked) {
  NoteImplementationRun(plan::CpuImplementation::ScatterElementRows);
  const Status status = ValidateAndCopy(plan, buffers, parallel, checked, false);
  if (!status.ok()) return status;
  const plan::KernelConstants& k = plan.walk;
  const plan::RowGeometry& rows = plan.cpu.rows;
  const uint64_t e = plan.elementSize, x = plan.indexSize;
  const ScatterRowFn row =
      KernelsOf(plan.cpu.kernelSet).scatterRow[ElementSizeLog2(plan.elementSize)][IndexKind(plan.indexType)];
  const RowTiling tiling = TileRows(plan, 1);
  UnitCursor cursor(tiling.outer, 0);
  for (uint64_t r = 0; r < rows.rowCount; ++r, cursor.Next()) {
    row(buffers.output + cursor.data() * e, k.dataStrides[rows.inner], k.indexedStrides[0], k.indexedSizes[0],
        buffers.indices + cursor.index() * x, buffers.updates + cursor.iter() * e, rows.rowLength);
  }
  return Status::Ok();
}

// Any scatter, unit by unit in row-major order, on the calling thread.
Status RunScatterUnits(const plan::Plan& plan, const plan::HostBuffers& buffers, const Parallel& parallel,
                       bool checked) {
  NoteImplementationRun(plan::CpuImplementation::ScatterUnits);
  const Status status = ValidateAndCopy(plan, buffers, parallel, checked, false);
  if (!status.ok()) return status;
  // Reductions on floats must see IEEE arithmetic.
  IeeeFloatScope ieee;
  const BlockWriter write = MakeWriter(plan, buffers);
  WithIndexType(plan.indexType, [&](auto tag) {
    ForEachMoveHinting<decltype(tag)>(
        plan.walk, buffers.indices, 0, plan.walk.unitCount, write.hintAhead,
        [&](uint64_t destination) { write.Hint(buffers.output, destination); },
        [&](uint64_t destination, uint64_t source) { write(buffers.output, destination, buffers.updates, source); });
  });
  write.Fence();
  return Status::Ok();
}

}  // namespace gs::cpu
