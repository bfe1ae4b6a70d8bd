// The arithmetic of scatter reductions, exactly as the spec defines it.
#pragma once

#include <cstdint>

#include "gs/operators.h"
#include "gs/tensor.h"
#include "plan/machine.h"

namespace gs::cpu {

// Folds update[i] into accumulator[i] for i < count (both contiguous): acc = op(acc, update).
using CombineFn = void (*)(uint8_t* accumulator, const uint8_t* update, uint64_t count);

// The combine function of a kernel set for a data type, a reduction other than None and
// arrays of about `count` elements: the set's own for float16 where it has one
// (simd/half_folds.h), else the generic one.
CombineFn SelectCombine(plan::KernelSet set, DataType type, Reduction reduction, uint64_t count);

// Folds a row's `width` element updates, in order, into `data`: update j (contiguous in
// `updates`) into element p * stride + j * step, p its index (contiguous in `indices`) made a
// position in [0, bound); an update whose index is out of bounds is dropped.
using FoldRowFn = void (*)(uint8_t* data, uint64_t step, uint64_t stride, uint64_t bound, const uint8_t* indices,
                           const uint8_t* updates, uint64_t width);

// The row fold of a kernel set for a data type, a reduction other than None and an index type
// (float16 as SelectCombine): one loop with the arithmetic inlined, where a CombineFn call an
// element cost a third of the speed.
FoldRowFn SelectFoldRow(plan::KernelSet set, DataType type, Reduction reduction, DataType indexType);

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
