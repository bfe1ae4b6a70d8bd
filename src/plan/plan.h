// The Plan: everything both engines need to run one compiled operator, as plain data.
// Decided once by CompilePlan (compile.cc) for a machine (machine.h); of the CPU engine's
// choices only one thread or many is left to the call (cpu_choice.h).
#pragma once

#include <cstdint>

#include "gs/operators.h"
#include "gs/tensor.h"
#include "plan/cpu_choice.h"
#include "plan/hlsl_shared/plan_constants.h"  // KernelConstants, CopyConstants, IndexValidation
#include "plan/kept_scratch.h"

namespace gs::plan {

inline constexpr uint32_t kMaxRank = 8;

// A tensor as the desc gave it (sizes padded to DimensionCount, strides made explicit).
struct TensorView {
  DataType dataType = DataType::Float32;
  uint32_t elementSize = 0;  // ElementSizeInBytes(dataType), read once at compile time
  uint32_t dimensionCount = 0;
  uint32_t sizes[kMaxRank] = {};
  uint64_t strides[kMaxRank] = {};  // elements; explicit even when the desc had none
  uint64_t elementCount = 0;        // product of sizes
  uint64_t extentElements = 0;      // 1 + sum((size - 1) * stride): elements the view reaches
  uint64_t totalSizeInBytes = 0;    // the desc's TotalTensorSizeInBytes
  bool present = false;             // false for UpdatesTensor of a gather
};

// The bytes from the view's first element to the end of its last: all any element touches
// (no more than totalSizeInBytes, which CompilePlan checked; 0 for an empty view). The GPU
// path binds and moves these, not the whole buffer.
inline uint64_t ViewSpanInBytes(const TensorView& view) {
  return view.extentElements * view.elementSize;
}

enum class TensorRole : uint32_t { Input, Indices, Updates, Output };
inline constexpr uint32_t kTensorRoleCount = 4;
const char* TensorRoleName(TensorRole role);  // "InputTensor", ...

struct Plan {
  OperatorType op = OperatorType::Gather;
  bool isScatter = false;
  Reduction reduction = Reduction::None;
  DataType dataType = DataType::Float32;
  uint32_t elementSize = 0;
  DataType indexType = DataType::Int32;
  uint32_t indexSize = 0;
  bool indexSigned = false;

  TensorView tensors[kTensorRoleCount];  // by TensorRole

  KernelConstants walk = {};  // the units both engines walk, and what each reads (plan_constants.h)
  CopyConstants copy = {};          // scatters only
  IndexValidation validation = {};

  CpuChoice cpu;  // the CPU engine's implementation (cpu_choice.h); the GPU ignores it
  KeptScratch kept;  // not a decision: the CPU engine's memory between calls (kept_scratch.h)

  const TensorView& tensor(TensorRole role) const { return tensors[static_cast<uint32_t>(role)]; }
};

}  // namespace gs::plan
