// Gather blocks (kernel_set.h, GatherBlocksFn), built into each kernel set so that a block's
// copy is inlined in the loop that walks the units. Included by row_kernels.h.
#pragma once

#include <cstdint>
#include <cstring>

#include "cpu/elements.h"
#include "cpu/kernel_set.h"
#include "cpu/simd/stream_intrinsics.h"

namespace gs::cpu::simd {
namespace {

// A unit's offsets in the walked, indexed and Indices tensors, held in the registers of the
// loop that steps it: along the walk's innermost dim by its strides, sought anew (a division
// per dim) where a run of that dim ends. Not cpu::UnitCursor, whose odometer lives in memory
// (its carry is out of line) and whose inline functions the generic build shares: a kernel
// set's copy of them could reach a CPU without its instructions.
struct RunCursor {
  uint64_t iter, data, index;
  uint64_t left;  // units to the end of the run, this one included

  static RunCursor Seek(const plan::KernelConstants& k, uint64_t unit) {
    RunCursor at{0, 0, 0, 1};
    for (uint64_t d = k.rank; d-- > 0;) {
      const uint64_t coord = unit % k.sizes[d];
      if (d + 1 == k.rank) at.left = k.sizes[d] - coord;
      unit /= k.sizes[d];
      at.iter += coord * k.iterStrides[d];
      at.data += coord * k.dataStrides[d];
      at.index += coord * k.indexStrides[d];
    }
    return at;
  }

  // Steps to `unit`, the next one: along the run, or sought when the run ends (unless `unit`
  // is `end`). `steps`: the innermost dim's strides in the three tensors.
  void Next(const plan::KernelConstants& k, const uint64_t (&steps)[3], uint64_t unit, uint64_t end) {
    if (--left != 0) {
      iter += steps[0];
      data += steps[1];
      index += steps[2];
    } else if (unit < end) {
      *this = Seek(k, unit);
    }
  }
};

// The unit's source offset in elements; a component out of bounds counts as position 0 (the
// indexed tensor is not empty where gather blocks run) and clears *inBounds, so that the loop
// has no branch on index values before the copy. kOne: tuples of one component (a dim's bound
// and stride then stay in registers).
template <typename IndexT, bool kOne>
inline uint64_t BlockSource(const plan::KernelConstants& k, uint64_t bound, uint64_t stride, const uint8_t* indices,
                            const RunCursor& at, bool* inBounds) {
  if constexpr (kOne) {
    const uint64_t position = ResolveIndex(LoadIndex<IndexT>(indices, at.index), bound, inBounds);
    return at.data + (*inBounds ? position : 0) * stride;
  }
  uint64_t offset = at.data;
  bool all = true;
  for (uint64_t c = 0; c < k.tupleSize; ++c) {
    bool ok;
    const uint64_t position =
        ResolveIndex(LoadIndex<IndexT>(indices, at.index + c * k.tupleStride), k.indexedSizes[c], &ok);
    offset += (ok ? position : 0) * k.indexedStrides[c];
    all = all && ok;
  }
  *inBounds = all;
  return offset;
}

// Into L2 (prefetcht1), not L1: hints into L1 stalled the loop once the core's L1 miss buffers
// were full; the copy then takes the rows from L2 (perf/results/2026-11-26-notes-moved-from-code.md).
inline void HintSource(const uint8_t* source, uint64_t bytes) {
  for (uint64_t b = 0; b < bytes; b += 64) __builtin_prefetch(source + b, 0, 2);
}

// The loop carries little besides the copy: on a 2-core Zen 4 each instruction less a block
// left more rows in flight (perf/results/2026-11-27-lean-block-walk.md).
template <class Arch, typename IndexT, bool kStream, bool kOne>
uint64_t GatherBlockRange(const BlockWalk& w, uint64_t begin, uint64_t end) {
  const plan::KernelConstants& k = *w.walk;
  const uint64_t bound = k.indexedSizes[0], stride = k.indexedStrides[0];
  const uint64_t e = w.elementBytes, blockBytes = k.blockElements * e, ahead = w.aheadUnits;
  const uint64_t inner = k.rank == 0 ? 0 : k.rank - 1;
  const uint64_t steps[3] = {k.iterStrides[inner], k.dataStrides[inner], k.indexStrides[inner]};
  bool inBounds;
  const auto source = [&](const RunCursor& unit) {
    return w.input + BlockSource<IndexT, kOne>(k, bound, stride, w.indices, unit, &inBounds) * e;
  };
  // The first units' sources at once; then each one `ahead` on as a block is copied. A source
  // is resolved twice, for its hint and for its copy (its index then in L1): the walk keeps no
  // buffer of resolved sources, one of the costs the chunked walk before it carried.
  RunCursor next = RunCursor::Seek(k, begin);
  uint64_t hinted = begin;
  for (; hinted < end && hinted < begin + ahead; ++hinted) {
    HintSource(source(next), w.prefetchBytes);
    next.Next(k, steps, hinted + 1, end);
  }
  RunCursor at = RunCursor::Seek(k, begin);
  uint64_t zeroed = 0;
  for (uint64_t u = begin; u < end; ++u) {
    if (hinted < end) {
      HintSource(source(next), w.prefetchBytes);
      next.Next(k, steps, ++hinted, end);
    }
    uint8_t* destination = w.output + at.iter * e;
    const uint8_t* from = source(at);
    if constexpr (kStream) {
      StreamCopy<Arch>(destination, from, blockBytes);
    } else {
      std::memcpy(destination, from, blockBytes);
    }
    if (__builtin_expect(!inBounds, 0)) {
      ++zeroed;
      if constexpr (kStream) StreamFence<Arch>();  // the streamed copy lands before the zeros
      std::memset(destination, 0, blockBytes);
    }
    at.Next(k, steps, u + 1, end);
  }
  if constexpr (kStream) StreamFence<Arch>();
  return zeroed;
}

template <class Arch, typename IndexT, bool kStream>
uint64_t GatherBlocks(const BlockWalk& w, uint64_t begin, uint64_t end) {
  return w.walk->tupleSize == 1 ? GatherBlockRange<Arch, IndexT, kStream, true>(w, begin, end)
                                : GatherBlockRange<Arch, IndexT, kStream, false>(w, begin, end);
}

template <class Arch, bool kStream>
void FillGatherBlocks(GatherBlocksFn (&blocks)[4]) {
  blocks[0] = GatherBlocks<Arch, int32_t, kStream>;
  blocks[1] = GatherBlocks<Arch, int64_t, kStream>;
  blocks[2] = GatherBlocks<Arch, uint32_t, kStream>;
  blocks[3] = GatherBlocks<Arch, uint64_t, kStream>;
}

}  // namespace
}  // namespace gs::cpu::simd
