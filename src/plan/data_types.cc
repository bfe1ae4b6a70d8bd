// Names, sizes and parsing of the public enums.
#include <cstring>

#include "gs/compiled_operator.h"
#include "gs/operators.h"
#include "gs/status.h"
#include "gs/tensor.h"
#include "plan/plan.h"
#include "plan/tensor_math.h"

namespace gs {
namespace {

struct DataTypeInfo {
  DataType type;
  const char* name;
  uint32_t size;
};

constexpr DataTypeInfo kDataTypes[] = {
    {DataType::Float64, "FLOAT64", 8}, {DataType::Float32, "FLOAT32", 4},
    {DataType::Float16, "FLOAT16", 2}, {DataType::Int64, "INT64", 8},
    {DataType::Int32, "INT32", 4},     {DataType::Int16, "INT16", 2},
    {DataType::Int8, "INT8", 1},       {DataType::UInt64, "UINT64", 8},
    {DataType::UInt32, "UINT32", 4},   {DataType::UInt16, "UINT16", 2},
    {DataType::UInt8, "UINT8", 1},
};

constexpr const char* kOperatorNames[] = {"GATHER",           "GATHER_ELEMENTS", "GATHER_ND",
                                          "GATHER_ND1",       "SCATTER_ELEMENTS", "SCATTER_ND"};
constexpr const char* kReductionNames[] = {"NONE", "ADD", "MULTIPLY", "MIN", "MAX"};

template <typename Enum, size_t N>
bool ParseName(const char* name, const char* const (&names)[N], Enum* value) {
  if (name == nullptr) return false;
  for (size_t i = 0; i < N; ++i) {
    if (std::strcmp(name, names[i]) == 0) {
      *value = static_cast<Enum>(i);
      return true;
    }
  }
  return false;
}

}  // namespace

uint32_t ElementSizeInBytes(DataType type) {
  for (const auto& info : kDataTypes) {
    if (info.type == type) return info.size;
  }
  return 0;
}

const char* DataTypeName(DataType type) {
  for (const auto& info : kDataTypes) {
    if (info.type == type) return info.name;
  }
  return "?";
}

bool ParseDataType(const char* name, DataType* type) {
  if (name == nullptr) return false;
  for (const auto& info : kDataTypes) {
    if (std::strcmp(name, info.name) == 0) {
      *type = info.type;
      return true;
    }
  }
  return false;
}

uint64_t MinimumTensorSizeInBytes(const TensorDesc& desc) {
  const uint32_t elementSize = ElementSizeInBytes(desc.DataType);
  if (elementSize == 0 || desc.Sizes == nullptr || desc.DimensionCount == 0 ||
      desc.DimensionCount > kMaxDimensionCount) {
    return 0;
  }
  uint64_t elementCount = 0;
  if (!plan::ElementCount(desc.Sizes, desc.DimensionCount, &elementCount) || elementCount == 0) {
    return 0;
  }
  uint64_t strides[kMaxDimensionCount];
  plan::ExplicitStrides(desc, strides);
  uint64_t extent = 0;
  uint64_t bytes = 0;
  if (!plan::ViewExtentElements(desc.Sizes, strides, desc.DimensionCount, &extent) ||
      !plan::CheckedMultiply(extent, elementSize, &bytes)) {
    return 0;
  }
  return bytes;
}

const char* OperatorTypeName(OperatorType type) {
  const auto index = static_cast<uint32_t>(type);
  return index < std::size(kOperatorNames) ? kOperatorNames[index] : "?";
}

bool ParseOperatorType(const char* name, OperatorType* type) {
  return ParseName(name, kOperatorNames, type);
}

const char* ReductionName(Reduction reduction) {
  const auto index = static_cast<uint32_t>(reduction);
  return index < std::size(kReductionNames) ? kReductionNames[index] : "?";
}

bool ParseReduction(const char* name, Reduction* reduction) {
  return ParseName(name, kReductionNames, reduction);
}

const char* StatusCodeName(StatusCode code) {
  switch (code) {
    case StatusCode::Ok: return "OK";
    case StatusCode::InvalidArgument: return "INVALID_ARGUMENT";
    case StatusCode::Unsupported: return "UNSUPPORTED";
    case StatusCode::OutOfMemory: return "OUT_OF_MEMORY";
    case StatusCode::DeviceRemoved: return "DEVICE_REMOVED";
    case StatusCode::Internal: return "INTERNAL";
  }
  return "?";
}

namespace plan {
const char* TensorRoleName(TensorRole role) {
  switch (role) {
    case TensorRole::Input: return "InputTensor";
    case TensorRole::Indices: return "IndicesTensor";
    case TensorRole::Updates: return "UpdatesTensor";
    case TensorRole::Output: return "OutputTensor";
  }
  return "?";
}
}  // namespace plan

}  // namespace gs
