// Overflow-checked arithmetic on sizes and strides, shared by the plan compiler and the API.
#pragma once

#include <cstdint>
#include <string>

#include "gs/tensor.h"

namespace gs::plan {

inline bool CheckedMultiply(uint64_t a, uint64_t b, uint64_t* product) {
  return !__builtin_mul_overflow(a, b, product);
}

inline bool CheckedAdd(uint64_t a, uint64_t b, uint64_t* sum) {
  return !__builtin_add_overflow(a, b, sum);
}

// Product of the sizes (0 for an empty tensor, however large its other sizes). False on
// 64-bit overflow.
inline bool ElementCount(const uint32_t* sizes, uint32_t count, uint64_t* product) {
  for (uint32_t i = 0; i < count; ++i) {
    if (sizes[i] == 0) {
      *product = 0;
      return true;
    }
  }
  uint64_t result = 1;
  for (uint32_t i = 0; i < count; ++i) {
    if (!CheckedMultiply(result, sizes[i], &result)) return false;
  }
  *product = result;
  return true;
}

// Packed row-major strides when the desc has none. Call after ElementCount succeeded, so
// that the packed products cannot overflow.
inline void ExplicitStrides(const TensorDesc& desc, uint64_t* strides) {
  uint64_t packed = 1;
  for (uint32_t i = desc.DimensionCount; i-- > 0;) {
    strides[i] = desc.Strides != nullptr ? desc.Strides[i] : packed;
    packed *= desc.Sizes[i];  // only meaningful without explicit strides; overflow checked later
  }
}

// Elements the view reaches: 1 + sum((size - 1) * stride), 0 for an empty view. False on
// 64-bit overflow.
inline bool ViewExtentElements(const uint32_t* sizes, const uint64_t* strides, uint32_t count,
                               uint64_t* extent) {
  for (uint32_t i = 0; i < count; ++i) {
    if (sizes[i] == 0) {
      *extent = 0;
      return true;
    }
  }
  uint64_t last = 0;
  for (uint32_t i = 0; i < count; ++i) {
    uint64_t reach = 0;
    if (!CheckedMultiply(sizes[i] - 1ull, strides[i], &reach) || !CheckedAdd(last, reach, &last)) {
      return false;
    }
  }
  return CheckedAdd(last, 1, extent);
}

// "{1,4,2}"
template <typename T>
std::string FormatDims(const T* values, uint32_t count) {
  std::string text = "{";
  for (uint32_t i = 0; i < count; ++i) {
    if (i > 0) text += ",";
    text += std::to_string(values[i]);
  }
  return text + "}";
}

}  // namespace gs::plan
