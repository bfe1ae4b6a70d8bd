// An operator desc that owns its sizes, strides and tensor descs, so tests can build, copy
// and print descs without juggling the raw pointers of gs::OperatorDesc.
#pragma once

#include <cstdint>
#include <vector>

#include "gs/operators.h"
#include "gs/tensor.h"

namespace gs_reference {

struct OwnedTensor {
  gs::DataType type = gs::DataType::Float32;
  std::vector<uint32_t> sizes;
  std::vector<uint32_t> strides;  // empty: packed row-major
  uint64_t total_bytes = 0;

  gs::TensorDesc Desc() const {
    gs::TensorDesc desc;
    desc.DataType = type;
    desc.DimensionCount = static_cast<uint32_t>(sizes.size());
    desc.Sizes = sizes.data();
    desc.Strides = strides.empty() ? nullptr : strides.data();
    desc.TotalTensorSizeInBytes = total_bytes;
    return desc;
  }
};

struct OwnedOperator {
  gs::OperatorType type = gs::OperatorType::Gather;
  OwnedTensor input, indices, updates, output;  // updates: scatters only
  uint32_t axis = 0;
  uint32_t index_dimensions = 0;    // GATHER
  uint32_t input_dims = 0;          // the ND operators' InputDimensionCount
  uint32_t indices_dims = 0;        // IndicesDimensionCount
  uint32_t batch_dims = 0;          // GATHER_ND1
  gs::Reduction reduction = gs::Reduction::None;

  bool IsScatter() const {
    return type == gs::OperatorType::ScatterElements || type == gs::OperatorType::ScatterNd;
  }

  // The returned desc points into *this: valid until *this is modified, copied or destroyed.
  const gs::OperatorDesc& Desc() {
    input_desc_ = input.Desc();
    indices_desc_ = indices.Desc();
    updates_desc_ = updates.Desc();
    output_desc_ = output.Desc();
    desc_.Type = type;
    switch (type) {
      case gs::OperatorType::Gather:
        gather_ = {&input_desc_, &indices_desc_, &output_desc_, axis, index_dimensions};
        desc_.Desc = &gather_;
        break;
      case gs::OperatorType::GatherElements:
        gather_elements_ = {&input_desc_, &indices_desc_, &output_desc_, axis};
        desc_.Desc = &gather_elements_;
        break;
      case gs::OperatorType::GatherNd:
        gather_nd_ = {&input_desc_, &indices_desc_, &output_desc_, input_dims, indices_dims};
        desc_.Desc = &gather_nd_;
        break;
      case gs::OperatorType::GatherNd1:
        gather_nd1_ = {&input_desc_,  &indices_desc_, &output_desc_,
                       input_dims,    indices_dims,   batch_dims};
        desc_.Desc = &gather_nd1_;
        break;
      case gs::OperatorType::ScatterElements:
        scatter_elements_ = {&input_desc_, &indices_desc_, &updates_desc_, &output_desc_, axis,
                             reduction};
        desc_.Desc = &scatter_elements_;
        break;
      case gs::OperatorType::ScatterNd:
        scatter_nd_ = {&input_desc_, &indices_desc_, &updates_desc_, &output_desc_,
                       input_dims,   indices_dims,   reduction};
        desc_.Desc = &scatter_nd_;
        break;
    }
    return desc_;
  }

 private:
  gs::TensorDesc input_desc_, indices_desc_, updates_desc_, output_desc_;
  gs::GatherOperatorDesc gather_;
  gs::GatherElementsOperatorDesc gather_elements_;
  gs::GatherNdOperatorDesc gather_nd_;
  gs::GatherNd1OperatorDesc gather_nd1_;
  gs::ScatterElementsOperatorDesc scatter_elements_;
  gs::ScatterNdOperatorDesc scatter_nd_;
  gs::OperatorDesc desc_;
};

}  // namespace gs_reference
