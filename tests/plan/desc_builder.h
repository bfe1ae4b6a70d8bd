// Builds descs for plan tests: tensors own their sizes and strides.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "gs/gs.h"

namespace gs::test {

struct Tensor {
  std::vector<uint32_t> sizes;
  std::vector<uint32_t> strides;  // empty: packed
  DataType type = DataType::Float32;
  TensorDesc desc;

  Tensor(DataType t, std::vector<uint32_t> s, std::vector<uint32_t> st = {})
      : sizes(std::move(s)), strides(std::move(st)), type(t) {
    desc.DataType = type;
    desc.DimensionCount = static_cast<uint32_t>(sizes.size());
    desc.Sizes = sizes.data();
    desc.Strides = strides.empty() ? nullptr : strides.data();
    desc.TotalTensorSizeInBytes = MinimumTensorSizeInBytes(desc);
  }
  Tensor(const Tensor&) = delete;
};

inline Status Compile(OperatorType type, const void* desc, CompiledOperator* op) {
  return CompileOperator(OperatorDesc{type, desc}, op);
}

}  // namespace gs::test
