// Operator descriptions, mirroring DirectML's DML_*_OPERATOR_DESC with the same member names.
#pragma once

#include <cstdint>

#include "gs/tensor.h"

namespace gs {

enum class OperatorType : uint32_t {
  Gather,           // DML_OPERATOR_GATHER
  GatherElements,   // DML_OPERATOR_GATHER_ELEMENTS
  GatherNd,         // DML_OPERATOR_GATHER_ND
  GatherNd1,        // DML_OPERATOR_GATHER_ND1
  ScatterElements,  // DML_OPERATOR_SCATTER_ELEMENTS (DML_SCATTER_OPERATOR_DESC)
  ScatterNd,        // DML_OPERATOR_SCATTER_ND
};

// DirectML spelling, e.g. "GATHER_ND1"; "?" outside the enum.
const char* OperatorTypeName(OperatorType type);
bool ParseOperatorType(const char* name, OperatorType* type);

// How a scatter combines an update with the value already there (an extension, as in ONNX).
enum class Reduction : uint32_t { None, Add, Multiply, Min, Max };

const char* ReductionName(Reduction reduction);  // "NONE", "ADD", ...
bool ParseReduction(const char* name, Reduction* reduction);

struct GatherOperatorDesc {
  const TensorDesc* InputTensor = nullptr;
  const TensorDesc* IndicesTensor = nullptr;
  const TensorDesc* OutputTensor = nullptr;
  uint32_t Axis = 0;
  uint32_t IndexDimensions = 0;
};

struct GatherElementsOperatorDesc {
  const TensorDesc* InputTensor = nullptr;
  const TensorDesc* IndicesTensor = nullptr;
  const TensorDesc* OutputTensor = nullptr;
  uint32_t Axis = 0;
};

struct GatherNdOperatorDesc {
  const TensorDesc* InputTensor = nullptr;
  const TensorDesc* IndicesTensor = nullptr;
  const TensorDesc* OutputTensor = nullptr;
  uint32_t InputDimensionCount = 0;
  uint32_t IndicesDimensionCount = 0;
};

struct GatherNd1OperatorDesc {
  const TensorDesc* InputTensor = nullptr;
  const TensorDesc* IndicesTensor = nullptr;
  const TensorDesc* OutputTensor = nullptr;
  uint32_t InputDimensionCount = 0;
  uint32_t IndicesDimensionCount = 0;
  uint32_t BatchDimensionCount = 0;
};

struct ScatterElementsOperatorDesc {
  const TensorDesc* InputTensor = nullptr;
  const TensorDesc* IndicesTensor = nullptr;
  const TensorDesc* UpdatesTensor = nullptr;
  const TensorDesc* OutputTensor = nullptr;
  uint32_t Axis = 0;
  ::gs::Reduction Reduction = ::gs::Reduction::None;
};

struct ScatterNdOperatorDesc {
  const TensorDesc* InputTensor = nullptr;
  const TensorDesc* IndicesTensor = nullptr;
  const TensorDesc* UpdatesTensor = nullptr;
  const TensorDesc* OutputTensor = nullptr;
  uint32_t InputDimensionCount = 0;
  uint32_t IndicesDimensionCount = 0;
  ::gs::Reduction Reduction = ::gs::Reduction::None;
};

// DML_OPERATOR_DESC: Desc points at the struct that Type names.
struct OperatorDesc {
  OperatorType Type = OperatorType::Gather;
  const void* Desc = nullptr;
};

}  // namespace gs
