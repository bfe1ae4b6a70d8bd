// The scatter entries that write in row-major order: strips of columns, rows through the row
// kernel, and the generic unit walk.
#include "cpu/scatter.h"

#include <algorithm>

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

// Columns own disjoint outputs (plan/cpu_choice.cc), so strips of columns run in parallel,
// each walking every row in order through a packed copy of its columns.
Status RunScatterStrips(const plan::Plan& plan, const plan::HostBuffers& buffers, const Parallel& parallel,
                        bool checked) {
  NoteImplementationRun(plan::CpuImplementation::ScatterStrips);
  const Status status = ValidateAndCopy(plan, buffers, parallel, checked, false);
  if (!status.ok()) return status;
  const uint8_t* indices = buffers.indices;
  const uint8_t* updates = buffers.updates;
  uint8_t* output = buffers.output;
  const plan::KernelConstants& k = plan.walk;
  const plan::RowGeometry& rows = plan.cpu.rows;
  const RowTiling tiling = TileScatterStrips(plan);
  const uint64_t e = plan.elementSize, x = plan.indexSize;
  const uint64_t step = k.dataStrides[rows.inner], bound = k.indexedSizes[0];
  const uint64_t stride = k.indexedStrides[0];
  const ScatterRowFn row =
      KernelsOf(plan.cpu.kernelSet).scatterRow[ElementSizeLog2(plan.elementSize)][IndexKind(plan.indexType)];
  const CombineFn combine =
      plan.reduction == Reduction::None ? nullptr : SelectCombine(plan.dataType, plan.reduction);
  parallel.For(tiling.strips, tiling.grain, [&](uint64_t first, uint64_t last) {
    IeeeFloatScope ieee;
    for (uint64_t strip = first; strip < last; ++strip) {
      const uint64_t column = strip * rows.stripWidth;
      const uint64_t width = std::min(rows.stripWidth, rows.rowLength - column);
      // The strip's output columns, packed; in place when no scratch could be had.
      uint8_t* scratch = StripScratch(bound * width * e);
      if (scratch != nullptr) PackStrip(output, step, stride, bound, e, column, width, scratch);
      uint8_t* columns = scratch != nullptr ? scratch : output + column * step * e;
      const uint64_t columnsStep = scratch != nullptr ? 1 : step;
      const uint64_t columnsStride = scratch != nullptr ? width : stride;
      UnitCursor cursor(tiling.outer, 0), ahead(tiling.outer, std::min(rows.rowCount, kRowsAhead));
      for (uint64_t r = 0; r < rows.rowCount; ++r, cursor.Next()) {
        if (r + kRowsAhead < rows.rowCount) {
          PrefetchRow(indices + (ahead.index() + column) * x, width * x);
          PrefetchRow(updates + (ahead.iter() + column) * e, width * e);
          ahead.Next();
        }
        const uint8_t* rowIndices = indices + (cursor.index() + column) * x;
        const uint8_t* rowUpdates = updates + (cursor.iter() + column) * e;
        if (combine == nullptr) {
          row(columns, columnsStep, columnsStride, bound, rowIndices, rowUpdates, width);
          continue;
        }
        WithIndexType(plan.indexType, [&](auto tag) {
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
    ForEachMove<decltype(tag)>(plan.walk, buffers.indices, 0, plan.walk.unitCount,
                               [&](uint64_t destination, uint64_t source) {
                                 write(buffers.output, destination, buffers.updates, source);
                               });
  });
  write.Fence();
  return Status::Ok();
}

}  // namespace gs::cpu
