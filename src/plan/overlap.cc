#include "plan/overlap.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "plan/odometer.h"

namespace gs::plan {

bool ViewIsOverlapFree(const TensorView& view) {
  if (view.elementCount == 0) return true;
  // Sufficient test: sorted by stride, each dim steps past everything the smaller ones reach.
  struct Dim {
    uint64_t size, stride;
  };
  Dim dims[kMaxRank];
  uint32_t count = 0;
  for (uint32_t d = 0; d < view.dimensionCount; ++d) {
    if (view.sizes[d] > 1) dims[count++] = {view.sizes[d], view.strides[d]};
  }
  for (uint32_t i = 1; i < count; ++i) {  // insertion sort: at most 8 dims
    for (uint32_t j = i; j > 0 && dims[j].stride < dims[j - 1].stride; --j) std::swap(dims[j], dims[j - 1]);
  }
  uint64_t reach = 0;  // highest offset reached by the dims so far
  bool disjoint = true;
  for (uint32_t i = 0; i < count && disjoint; ++i) {
    disjoint = dims[i].stride > reach;
    reach += (dims[i].size - 1) * dims[i].stride;  // <= extent, cannot overflow
  }
  if (disjoint) return true;
  for (uint32_t i = 0; i < count; ++i) {
    if (dims[i].stride == 0) return false;
  }
  // Interleaved strides can still be disjoint: decide exactly, by marking every offset in a
  // bitmap of the extent, or by sorting the offsets of a view with few elements and a large
  // extent. A view too large for both is rejected as unprovable.
  constexpr uint64_t kBitmapExtentLimit = uint64_t{1} << 26;
  constexpr uint64_t kSortElementLimit = uint64_t{1} << 20;
  if (view.elementCount > view.extentElements) return false;  // pigeonhole: two must share
  const bool useBitmap = view.extentElements <= kBitmapExtentLimit;
  if (!useBitmap && view.elementCount > kSortElementLimit) return false;
  std::vector<bool> seen(useBitmap ? view.extentElements : 0, false);
  std::vector<uint64_t> offsets;
  if (!useBitmap) offsets.reserve(view.elementCount);
  uint64_t sizes[kMaxRank];
  for (uint32_t d = 0; d < view.dimensionCount; ++d) sizes[d] = view.sizes[d];
  Odometer<1> element;
  element.rank = view.dimensionCount;
  element.sizes = sizes;
  element.strides[0] = view.strides;
  element.Seek(0);
  for (uint64_t n = 0; n < view.elementCount; ++n, element.Next()) {
    const uint64_t offset = element.offsets[0];
    if (useBitmap) {
      if (seen[offset]) return false;
      seen[offset] = true;
    } else {
      offsets.push_back(offset);
    }
  }
  std::sort(offsets.begin(), offsets.end());
  return std::adjacent_find(offsets.begin(), offsets.end()) == offsets.end();
}

}  // namespace gs::plan
