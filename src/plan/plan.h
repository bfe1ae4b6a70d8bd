// The Plan: everything both engines need to run one compiled operator, as plain data.
// Decided once by CompilePlan (compile.cc); the executors decide nothing.
#pragma once

#include <cstdint>

#include "gs/operators.h"
#include "gs/tensor.h"

namespace gs::plan {

inline constexpr uint32_t kMaxRank = 8;

// A tensor as the desc gave it (sizes padded to DimensionCount, strides made explicit).
struct TensorView {
  DataType dataType = DataType::Float32;
  uint32_t dimensionCount = 0;
  uint32_t sizes[kMaxRank] = {};
  uint64_t strides[kMaxRank] = {};  // elements; explicit even when the desc had none
  uint64_t elementCount = 0;        // product of sizes
  uint64_t extentElements = 0;      // 1 + sum((size - 1) * stride): elements the view reaches
  uint64_t totalSizeInBytes = 0;    // the desc's TotalTensorSizeInBytes
  bool present = false;             // false for UpdatesTensor of a gather
};

// Which tensor a plan walks and which one it indexes:
//   gathers:  walk Output ("iter"), read Input ("data") at the indexed position
//   scatters: walk Updates ("iter"), write Output ("data") at the indexed position
//
// The constants a kernel reads, one struct for the CPU engine and (later) the GPU kernels.
// Every field is 64-bit and arrays have 8 entries, so a GPU constant buffer can mirror it
// as uint64_t2 arrays with no packing surprises.
struct KernelConstants {
  uint64_t rank;            // walked dims left after normalisation (0..8)
  uint64_t unitCount;       // product of sizes[0..rank): one unit moves one block
  uint64_t blockElements;   // contiguous elements a unit moves (iter and data both stride 1)
  uint64_t tupleSize;       // index components per unit: q for the ND operators, else 1
  uint64_t tupleStride;     // Indices stride between the components of one tuple
  uint64_t sizes[kMaxRank];
  uint64_t iterStrides[kMaxRank];     // walked tensor
  uint64_t dataStrides[kMaxRank];     // indexed tensor; 0 on dims that the indices drive
  uint64_t indexStrides[kMaxRank];    // Indices; 0 on dims the index does not vary along
  uint64_t indexedSizes[kMaxRank];    // bound of each tuple component
  uint64_t indexedStrides[kMaxRank];  // indexed-tensor stride each component moves along
};

// A strided element copy (the Input -> Output step of a scatter that is not in place).
struct CopyConstants {
  uint64_t rank;
  uint64_t unitCount;
  uint64_t blockElements;
  uint64_t sizes[kMaxRank];
  uint64_t srcStrides[kMaxRank];
  uint64_t dstStrides[kMaxRank];
};

// Checked mode: every Indices element is validated in row-major order before anything is
// written. Element at flat position p is component (p % tupleSize) of its tuple.
struct IndexValidation {
  uint64_t rank;
  uint64_t elementCount;
  uint64_t tupleSize;
  uint64_t sizes[kMaxRank];
  uint64_t strides[kMaxRank];
  uint64_t bounds[kMaxRank];  // per tuple component
};

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

  KernelConstants kernel = {};
  CopyConstants copy = {};          // scatters only
  IndexValidation validation = {};

  const TensorView& tensor(TensorRole role) const { return tensors[static_cast<uint32_t>(role)]; }
};

}  // namespace gs::plan
