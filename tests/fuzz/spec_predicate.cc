// The spec's descriptor rules, one after the other, in 128-bit arithmetic so that no product
// can wrap. Written from shared/spec/semantics.md; nothing here calls into src/.
#include "spec_predicate.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace gs_fuzz {
namespace {

using u128 = unsigned __int128;
constexpr u128 kMax64 = ~uint64_t{0};

struct Tensor {
  const gs::TensorDesc* desc;
  uint32_t rank;
  std::vector<uint64_t> sizes, strides;
  u128 elements = 1;
  u128 extent = 1;  // elements the view reaches: 1 + sum((size - 1) * stride), 0 when empty
};

uint32_t ElementBytes(gs::DataType type) {
  switch (type) {
    case gs::DataType::Float64: case gs::DataType::Int64: case gs::DataType::UInt64: return 8;
    case gs::DataType::Float32: case gs::DataType::Int32: case gs::DataType::UInt32: return 4;
    case gs::DataType::Float16: case gs::DataType::Int16: case gs::DataType::UInt16: return 2;
    case gs::DataType::Int8: case gs::DataType::UInt8: return 1;
  }
  return 0;
}

bool IsIndexType(gs::DataType type) {
  return type == gs::DataType::Int32 || type == gs::DataType::Int64 ||
         type == gs::DataType::UInt32 || type == gs::DataType::UInt64;
}

// A tensor on its own: present, 1..8 dims, a known type, element count and byte extent within
// 64 bits, and a TotalTensorSizeInBytes that holds the whole view. A size may be 0 (an empty
// tensor, which reaches no element).
bool ReadTensor(const gs::TensorDesc* desc, Tensor* t) {
  if (desc == nullptr || desc->DimensionCount < 1 || desc->DimensionCount > 8 ||
      desc->Sizes == nullptr) {
    return false;
  }
  const uint32_t bytes = ElementBytes(desc->DataType);
  if (bytes == 0) return false;
  t->desc = desc;
  t->rank = desc->DimensionCount;
  t->sizes.assign(desc->Sizes, desc->Sizes + t->rank);
  t->strides.assign(t->rank, 0);
  // Packed strides are suffix products; with >2^64 elements the desc is rejected. An empty
  // tensor has no element, however large its other sizes (its strides are never used).
  bool empty = false;
  for (uint64_t size : t->sizes) empty = empty || size == 0;
  u128 packed = 1;
  for (uint32_t d = t->rank; d-- > 0;) {
    t->strides[d] = desc->Strides ? desc->Strides[d] : static_cast<uint64_t>(packed);
    packed = empty ? 0 : packed * t->sizes[d];
    if (packed > kMax64) return false;  // the element count overflows 64 bits
  }
  t->elements = packed;
  if (t->elements == 0) t->extent = 0;
  for (uint32_t d = 0; d < t->rank && t->elements > 0; ++d) {
    t->extent += u128(t->sizes[d] - 1) * t->strides[d];
  }
  const u128 extentBytes = t->extent * bytes;  // < 2^104: no wrap
  return extentBytes <= kMax64 && desc->TotalTensorSizeInBytes >= extentBytes;
}

bool AllOnes(const Tensor& t, uint32_t leading) {
  for (uint32_t d = 0; d < leading; ++d) {
    if (t.sizes[d] != 1) return false;
  }
  return true;
}

// Does some element offset of the view repeat? Exact for views whose offsets can be listed
// (up to 2^20 elements) or marked (an extent up to 2^26); beyond that a view whose strides
// do not nest is left undecided.
enum class Overlaps { No, Yes, Undecided };
Overlaps OutputOverlapsItself(const Tensor& t) {
  if (t.elements == 0) return Overlaps::No;
  std::vector<std::pair<uint64_t, uint64_t>> dims;  // (stride, size) of dims larger than 1
  for (uint32_t d = 0; d < t.rank; ++d) {
    if (t.sizes[d] > 1) dims.push_back({t.strides[d], t.sizes[d]});
  }
  for (const auto& [stride, size] : dims) {
    if (stride == 0) return Overlaps::Yes;
  }
  std::sort(dims.begin(), dims.end());
  u128 reach = 0;
  bool nested = true;  // each stride steps past everything the smaller strides reach
  for (const auto& [stride, size] : dims) {
    nested = nested && stride > reach;
    reach += u128(size - 1) * stride;
  }
  if (nested) return Overlaps::No;
  if (t.elements > t.extent) return Overlaps::Yes;  // more elements than offsets: two must share
  constexpr uint64_t kSortLimit = uint64_t{1} << 20;    // elements: list and sort offsets
  constexpr uint64_t kBitmapLimit = uint64_t{1} << 26;  // extent: mark offsets in a bitmap
  if (t.elements > kSortLimit && t.extent > kBitmapLimit) return Overlaps::Undecided;
  // Every offset, by an odometer over the dims larger than 1.
  std::vector<uint64_t> offsets;
  std::vector<bool> seen(t.elements > kSortLimit ? static_cast<uint64_t>(t.extent) : 0);
  std::vector<uint64_t> at(dims.size(), 0);
  for (uint64_t n = 0; n < t.elements; ++n) {
    uint64_t offset = 0;
    for (size_t k = 0; k < dims.size(); ++k) offset += at[k] * dims[k].first;
    if (seen.empty()) {
      offsets.push_back(offset);
    } else {
      if (seen[offset]) return Overlaps::Yes;
      seen[offset] = true;
    }
    for (size_t k = 0; k < dims.size() && ++at[k] == dims[k].second; ++k) at[k] = 0;
  }
  std::sort(offsets.begin(), offsets.end());
  return std::adjacent_find(offsets.begin(), offsets.end()) != offsets.end() ? Overlaps::Yes
                                                                             : Overlaps::No;
}

struct Args {
  const gs::TensorDesc *input = nullptr, *indices = nullptr, *updates = nullptr,
                       *output = nullptr;
  bool scatter = false;
  uint32_t axis = 0, indexDimensions = 0, inputCount = 0, indicesCount = 0, batch = 0;
  uint32_t reduction = 0;
};

bool ElementsShapes(const Args& a, const Tensor& in, const Tensor& idx, const Tensor* upd,
                    const Tensor& out) {
  const uint32_t rank = in.rank;
  if (a.axis >= rank) return false;
  for (uint32_t d = 0; d < rank; ++d) {  // smaller off the axis: the input's leading corner
    if (d != a.axis && idx.sizes[d] > in.sizes[d]) return false;
  }
  if (a.scatter) return upd->sizes == idx.sizes && out.sizes == in.sizes;
  return out.sizes == idx.sizes;
}

bool GatherShapes(const Args& a, const Tensor& in, const Tensor& idx, const Tensor& out) {
  const uint32_t rank = in.rank;
  if (a.axis >= rank || a.indexDimensions >= rank) return false;
  if (!AllOnes(idx, rank - a.indexDimensions)) return false;
  std::vector<uint64_t> want(in.sizes.begin(), in.sizes.begin() + a.axis);
  want.insert(want.end(), idx.sizes.end() - a.indexDimensions, idx.sizes.end());
  want.insert(want.end(), in.sizes.begin() + a.axis + 1, in.sizes.end());
  // Right-aligned: too long, only leading ones of Input (before Axis) may go; too short,
  // leading ones pad it.
  while (want.size() > rank) {
    const size_t dropped = want.size() - rank;
    if (dropped > a.axis || !AllOnes(in, static_cast<uint32_t>(dropped))) return false;
    want.erase(want.begin(), want.begin() + static_cast<long>(dropped));
  }
  want.insert(want.begin(), rank - want.size(), 1);
  return out.sizes == want;
}

bool NdShapes(const Args& a, const Tensor& in, const Tensor& idx, const Tensor& walked,
              const Tensor& out) {
  const uint32_t rank = in.rank;
  if (a.inputCount < 1 || a.inputCount > rank || a.indicesCount < 1 || a.indicesCount > rank) {
    return false;
  }
  if (!AllOnes(in, rank - a.inputCount) || !AllOnes(idx, rank - a.indicesCount)) return false;
  const uint64_t q = idx.sizes[rank - 1];
  if (a.batch + 1 > a.indicesCount || a.batch + q > a.inputCount) return false;
  const uint32_t inFirst = rank - a.inputCount, idxFirst = rank - a.indicesCount;
  std::vector<uint64_t> want;
  for (uint32_t b = 0; b < a.batch; ++b) {
    if (in.sizes[inFirst + b] != idx.sizes[idxFirst + b]) return false;
    want.push_back(in.sizes[inFirst + b]);
  }
  for (uint32_t d = idxFirst + a.batch; d < rank - 1; ++d) want.push_back(idx.sizes[d]);
  for (uint64_t d = inFirst + a.batch + q; d < rank; ++d) want.push_back(in.sizes[d]);
  if (want.size() > rank) return false;
  want.insert(want.begin(), rank - want.size(), 1);
  if (walked.sizes != want) return false;
  return !a.scatter || out.sizes == in.sizes;
}

}  // namespace

bool SpecAcceptsDesc(const gs::OperatorDesc& desc, bool* decided) {
  if (decided != nullptr) *decided = true;
  if (desc.Desc == nullptr) return false;
  Args a;
  switch (desc.Type) {
    case gs::OperatorType::Gather: {
      const auto& d = *static_cast<const gs::GatherOperatorDesc*>(desc.Desc);
      a = {d.InputTensor, d.IndicesTensor, nullptr, d.OutputTensor};
      a.axis = d.Axis;
      a.indexDimensions = d.IndexDimensions;
      break;
    }
    case gs::OperatorType::GatherElements: {
      const auto& d = *static_cast<const gs::GatherElementsOperatorDesc*>(desc.Desc);
      a = {d.InputTensor, d.IndicesTensor, nullptr, d.OutputTensor};
      a.axis = d.Axis;
      break;
    }
    case gs::OperatorType::GatherNd: {
      const auto& d = *static_cast<const gs::GatherNdOperatorDesc*>(desc.Desc);
      a = {d.InputTensor, d.IndicesTensor, nullptr, d.OutputTensor};
      a.inputCount = d.InputDimensionCount;
      a.indicesCount = d.IndicesDimensionCount;
      break;
    }
    case gs::OperatorType::GatherNd1: {
      const auto& d = *static_cast<const gs::GatherNd1OperatorDesc*>(desc.Desc);
      a = {d.InputTensor, d.IndicesTensor, nullptr, d.OutputTensor};
      a.inputCount = d.InputDimensionCount;
      a.indicesCount = d.IndicesDimensionCount;
      a.batch = d.BatchDimensionCount;
      break;
    }
    case gs::OperatorType::ScatterElements: {
      const auto& d = *static_cast<const gs::ScatterElementsOperatorDesc*>(desc.Desc);
      a = {d.InputTensor, d.IndicesTensor, d.UpdatesTensor, d.OutputTensor, true};
      a.axis = d.Axis;
      a.reduction = static_cast<uint32_t>(d.Reduction);
      break;
    }
    case gs::OperatorType::ScatterNd: {
      const auto& d = *static_cast<const gs::ScatterNdOperatorDesc*>(desc.Desc);
      a = {d.InputTensor, d.IndicesTensor, d.UpdatesTensor, d.OutputTensor, true};
      a.inputCount = d.InputDimensionCount;
      a.indicesCount = d.IndicesDimensionCount;
      a.reduction = static_cast<uint32_t>(d.Reduction);
      break;
    }
    default: return false;  // not one of the six operators
  }
  if (a.reduction > static_cast<uint32_t>(gs::Reduction::Max)) return false;

  Tensor in, idx, upd, out;
  if (!ReadTensor(a.input, &in) || !ReadTensor(a.indices, &idx) || !ReadTensor(a.output, &out)) {
    return false;
  }
  if (a.scatter && !ReadTensor(a.updates, &upd)) return false;
  if (idx.rank != in.rank || out.rank != in.rank || (a.scatter && upd.rank != in.rank)) return false;
  if (!IsIndexType(a.indices->DataType)) return false;
  if (a.output->DataType != a.input->DataType) return false;
  if (a.scatter && a.updates->DataType != a.input->DataType) return false;

  bool shapes = false;
  switch (desc.Type) {
    case gs::OperatorType::GatherElements:
    case gs::OperatorType::ScatterElements:
      shapes = ElementsShapes(a, in, idx, a.scatter ? &upd : nullptr, out);
      break;
    case gs::OperatorType::Gather: shapes = GatherShapes(a, in, idx, out); break;
    default: shapes = NdShapes(a, in, idx, a.scatter ? upd : out, out); break;
  }
  if (!shapes) return false;
  const Overlaps overlaps = OutputOverlapsItself(out);
  if (overlaps == Overlaps::Undecided && decided != nullptr) *decided = false;
  return overlaps == Overlaps::No;
}

}  // namespace gs_fuzz
