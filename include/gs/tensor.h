// Tensor descriptions, mirroring DirectML's DML_BUFFER_TENSOR_DESC.
#pragma once

#include <cstdint>

namespace gs {

// The 11 element types of DML_FEATURE_LEVEL_4_1 for these operators.
enum class DataType : uint32_t {
  Float64,
  Float32,
  Float16,
  Int64,
  Int32,
  Int16,
  Int8,
  UInt64,
  UInt32,
  UInt16,
  UInt8,
};

inline constexpr uint32_t kMaxDimensionCount = 8;

// A view of a buffer. Sizes and Strides point at DimensionCount values each and are only
// read during CompileOperator (the compiled operator keeps its own copy).
struct TensorDesc {
  ::gs::DataType DataType = ::gs::DataType::Float32;
  uint32_t DimensionCount = 0;            // 1..8
  const uint32_t* Sizes = nullptr;        // every size >= 1
  const uint32_t* Strides = nullptr;      // in elements; nullptr = packed row-major; 0 broadcasts
  uint64_t TotalTensorSizeInBytes = 0;    // bytes of the buffer the view lives in
};

// Size of one element in bytes (1, 2, 4 or 8); 0 for a value outside the enum.
uint32_t ElementSizeInBytes(DataType type);

// Upper-case DirectML spelling without the prefix, e.g. "FLOAT16"; "?" outside the enum.
const char* DataTypeName(DataType type);

// Parses a DirectML spelling ("FLOAT16"); false when the name is unknown.
bool ParseDataType(const char* name, DataType* type);

// The smallest TotalTensorSizeInBytes a buffer holding this view needs
// ((sum of (size-1)*stride) + 1 elements); 0 when the desc is malformed or overflows.
uint64_t MinimumTensorSizeInBytes(const TensorDesc& desc);

}  // namespace gs
