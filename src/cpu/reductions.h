// The arithmetic of scatter reductions, exactly as the spec defines it.
#pragma once

#include <cstdint>

#include "gs/operators.h"
#include "gs/tensor.h"

namespace gs::cpu {

// Folds update[i] into accumulator[i] for i < count (both contiguous): acc = op(acc, update).
using CombineFn = void (*)(uint8_t* accumulator, const uint8_t* update, uint64_t count);

// The combine function for a data type and a reduction other than None.
CombineFn SelectCombine(DataType type, Reduction reduction);

// While alive on a thread: round to nearest even, no flush-to-zero or denormals-are-zero,
// exceptions masked, whatever the host process set; restores the caller's settings after.
class IeeeFloatScope {
 public:
  IeeeFloatScope();
  ~IeeeFloatScope();
  IeeeFloatScope(const IeeeFloatScope&) = delete;
  IeeeFloatScope& operator=(const IeeeFloatScope&) = delete;

 private:
  unsigned saved_ = 0;
};

}  // namespace gs::cpu
