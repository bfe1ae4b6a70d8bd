// What the scatter entries of the implementation list share (scatter.cc,
// scatter_by_destination.cc). The last update in row-major order of the updates wins, and
// reductions fold in that order, whatever the thread count: each entry says how it keeps it.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "cpu/kernel_set.h"
#include "cpu/parallel.h"
#include "cpu/reductions.h"
#include "cpu/walk.h"
#include "plan/call_checks.h"
#include "plan/plan.h"

namespace gs::cpu {

// Calls visit(destination, source) for each in-bounds unit of [begin, end) in row-major order,
// and before it hint(destination) for the in-bounds unit `ahead` units on (0: no hints); false
// when some unit was out of bounds.
template <typename IndexT, typename Visit, typename Hint>
bool ForEachMoveHinting(const plan::KernelConstants& k, const uint8_t* indices, uint64_t begin,
                        uint64_t end, uint64_t ahead, const Hint& hint, const Visit& visit) {
  UnitCursor cursor(k, begin), further(k, ahead == 0 ? begin : std::min(end, begin + ahead));
  bool allInBounds = true;
  for (uint64_t unit = begin; unit < end; ++unit, cursor.Next()) {
    uint64_t destination;
    if (ahead != 0 && unit + ahead < end) {
      if (IndexedOffset<IndexT>(k, indices, further, &destination)) hint(destination);
      further.Next();
    }
    if (IndexedOffset<IndexT>(k, indices, cursor, &destination)) {
      visit(destination, cursor.iter());
    } else {
      allInBounds = false;
    }
  }
  return allInBounds;
}

template <typename IndexT, typename Visit>
bool ForEachMove(const plan::KernelConstants& k, const uint8_t* indices, uint64_t begin, uint64_t end,
                 const Visit& visit) {
  return ForEachMoveHinting<IndexT>(k, indices, begin, end, 0, [](uint64_t) {}, visit);
}

// Folds one block of updates into the output.
struct BlockWriter {
  uint64_t elementSize;
  uint64_t blockElements;
  CombineFn combine;        // nullptr: plain overwrite
  StreamCopyFn streamCopy;  // overwrites with non-temporal stores (then Fence), or nullptr
  StreamFenceFn streamFence;
  uint64_t hintBytes;       // of a destination block hintAhead moves on, for writing
  uint64_t hintAhead;       // 0: no hints

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
  void Hint(uint8_t* output, uint64_t destination) const {
    for (uint64_t b = 0; b < hintBytes; b += 64) __builtin_prefetch(output + destination * elementSize + b, 1, 3);
  }
  void HintSource(const uint8_t* updates, uint64_t source) const {
    for (uint64_t b = 0; b < hintBytes; b += 64) __builtin_prefetch(updates + source * elementSize + b, 0, 3);
  }
  void Fence() const {
    if (streamCopy != nullptr) streamFence();
  }
};

// Overwrites stream as the plan says for the call: in place, or after the Input -> Output copy.
// Destinations that do not stream are hinted as the plan says.
inline BlockWriter MakeWriter(const plan::Plan& plan, const plan::HostBuffers& buffers) {
  const bool overwrite = plan.reduction == Reduction::None;
  const KernelTable& kernels = KernelsOf(plan.cpu.kernelSet);
  const bool stream = buffers.inPlace ? plan.cpu.streamOutput : plan.cpu.streamOutputAfterCopy;
  const CombineFn combine =
      overwrite ? nullptr : SelectCombine(plan.cpu.kernelSet, plan.dataType, plan.reduction, plan.walk.blockElements);
  return {plan.elementSize, plan.walk.blockElements, combine,
          stream ? kernels.streamCopy : nullptr, kernels.streamFence, stream ? 0 : plan.cpu.prefetchBytes,
          stream ? 0 : plan.cpu.aheadUnits};
}

// Before a scatter folds its updates: checked mode's validation unless the entry already read
// every index in bounds, then the Input -> Output copy (not in place). Nothing is written when
// it fails.
Status ValidateAndCopy(const plan::Plan& plan, const plan::HostBuffers& buffers, const Parallel& parallel,
                       bool checked, bool indicesKnownValid);

}  // namespace gs::cpu
