// Speed decisions of the CPU engine that depend on the plan and the thread count, made at the
// start of each execute (a few integer operations). CPU-only: the GPU ignores them.
#pragma once

#include <algorithm>
#include <cstdint>

#include "cpu/kernel_set.h"
#include "plan/plan.h"

namespace gs::cpu {

// Bytes of rows read that one strip may touch: about a quarter of a core's L2, so that the
// rows a strip reads stay there while the strip walks every output row.
inline constexpr uint64_t kStripReadBytes = 512 * 1024;
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
  // last): then a strip's reads stay within kStripReadBytes.
  walk->stripWidth = walk->rowLength;
  const uint64_t lineElements = std::max<uint64_t>(1, 64 / e);
  if (k.dataStrides[inner] != 0 && walk->rowLength >= 4 * lineElements) {
    uint64_t width = lineElements;
    while (width * 2 * k.indexedSizes[0] * e <= kStripReadBytes) width *= 2;
    walk->stripWidth = std::min(width, walk->rowLength);
  }
  const uint64_t strips = (walk->rowLength + walk->stripWidth - 1) / walk->stripWidth;
  const uint64_t bytes = k.unitCount * (e + plan.indexSize);
  const uint64_t worthTasks = std::max<uint64_t>(1, bytes / kTaskBytes);
  const uint64_t wanted = std::min<uint64_t>(worthTasks, 4 * static_cast<uint64_t>(threads));
  walk->rowSlices = threads <= 1 ? 1 : std::clamp<uint64_t>((wanted + strips - 1) / strips, 1, walk->rowCount);
  walk->grain = std::max<uint64_t>(1, strips * walk->rowSlices / worthTasks);
  return true;
}

// Non-temporal stores pay when the output would not fit the last-level cache anyway.
inline bool ShouldStream(uint64_t outputBytes, uint64_t blockBytes) {
  const uint64_t llc = LastLevelCacheBytes();
  return llc > 0 && outputBytes > llc && blockBytes >= 64;
}

}  // namespace gs::cpu
