#include "plan/overlap.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "plan/odometer.h"

namespace gs::plan {
namespace {

// Sums of z_d * stride_d reach 2^64 in magnitude: 128-bit arithmetic (a GCC/Clang extension).
__extension__ using Wide = __int128;

struct Dim {
  uint64_t size, stride;
};

// Depth-first search over z, largest strides first: z_d in (-size_d, size_d), the first
// nonzero one positive (z and -z are the same pair of elements), pruned by what the smaller
// dims can still reach; the last dim is solved by division.
class OverlapSearch {
 public:
  OverlapSearch(const Dim* dims, uint32_t count, uint64_t maxSteps)
      : dims_(dims), count_(count), maxSteps_(maxSteps) {
    reach_[count] = 0;
    for (uint32_t d = count; d-- > 0;) {
      reach_[d] = reach_[d + 1] + static_cast<Wide>(dims[d].size - 1) * dims[d].stride;
    }
  }

  Overlap Run() { return Search(0, 0, false); }

 private:
  Overlap Search(uint32_t d, Wide partial, bool nonzero) {
    if (++steps_ > maxSteps_) return Overlap::Unproven;
    const Wide stride = dims_[d].stride;
    const Wide limit = dims_[d].size - 1;
    if (d + 1 == count_) {
      if (partial % stride != 0) return Overlap::None;
      const Wide z = -partial / stride;
      const bool allowed = nonzero ? (z >= -limit && z <= limit) : (z > 0 && z <= limit);
      return allowed ? Overlap::Found : Overlap::None;
    }
    // partial + z * stride must stay within what the dims after d can cancel.
    const Wide rest = reach_[d + 1];
    Wide low = nonzero ? -limit : 0, high = limit;
    low = std::max(low, Ceil(-rest - partial, stride));
    high = std::min(high, Floor(rest - partial, stride));
    Overlap result = Overlap::None;
    for (Wide z = low; z <= high && result != Overlap::Found; ++z) {
      const Overlap here = Search(d + 1, partial + z * stride, nonzero || z != 0);
      if (here == Overlap::Unproven) return here;
      result = here;
    }
    return result;
  }

  static Wide Floor(Wide a, Wide b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }
  static Wide Ceil(Wide a, Wide b) { return -Floor(-a, b); }

  const Dim* dims_;
  uint32_t count_;
  uint64_t maxSteps_;
  Wide reach_[kMaxRank + 1];
  uint64_t steps_ = 0;
};

// Exact for views whose offsets can be listed and sorted (up to 2^20 elements) or marked in
// a bitmap (an extent up to 2^26 elements); Unproven beyond both.
Overlap ListOffsets(const TensorView& view) {
  constexpr uint64_t kBitmapExtentLimit = uint64_t{1} << 26;
  constexpr uint64_t kSortElementLimit = uint64_t{1} << 20;
  const bool useBitmap = view.extentElements <= kBitmapExtentLimit;
  if (!useBitmap && view.elementCount > kSortElementLimit) return Overlap::Unproven;
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
    if (!useBitmap) {
      offsets.push_back(offset);
    } else if (seen[offset]) {
      return Overlap::Found;
    } else {
      seen[offset] = true;
    }
  }
  std::sort(offsets.begin(), offsets.end());
  return std::adjacent_find(offsets.begin(), offsets.end()) == offsets.end() ? Overlap::None
                                                                             : Overlap::Found;
}

// The dims of size > 1, sorted by stride (insertion sort: at most 8); returns their count.
uint32_t SortedDims(const TensorView& view, Dim* dims) {
  uint32_t count = 0;
  for (uint32_t d = 0; d < view.dimensionCount; ++d) {
    if (view.sizes[d] > 1) dims[count++] = {view.sizes[d], view.strides[d]};
  }
  for (uint32_t i = 1; i < count; ++i) {
    for (uint32_t j = i; j > 0 && dims[j].stride < dims[j - 1].stride; --j) std::swap(dims[j], dims[j - 1]);
  }
  return count;
}

// Sorted by stride, each dim steps past everything the smaller reach (the sum stays within the
// view's extent: no overflow for a view of a tensor's dims).
bool StepsPastEachOther(const Dim* dims, uint32_t count) {
  uint64_t reach = 0;
  for (uint32_t i = 0; i < count; ++i) {
    if (dims[i].stride <= reach) return false;
    reach += (dims[i].size - 1) * dims[i].stride;
  }
  return true;
}

}  // namespace

bool ProvablyApart(const TensorView& view) {
  Dim dims[kMaxRank];
  return StepsPastEachOther(dims, SortedDims(view, dims));
}

Overlap FindSelfOverlap(const TensorView& view, uint64_t maxSteps) {
  if (view.elementCount == 0) return Overlap::None;
  Dim dims[kMaxRank];
  const uint32_t count = SortedDims(view, dims);
  // Quick sufficient test first.
  if (StepsPastEachOther(dims, count)) return Overlap::None;
  if (dims[0].stride == 0) return Overlap::Found;  // a broadcast dim of size > 1
  if (view.elementCount > view.extentElements) return Overlap::Found;  // pigeonhole
  std::reverse(dims, dims + count);  // largest strides first: the search prunes best so
  const Overlap searched = OverlapSearch(dims, count, maxSteps).Run();
  return searched == Overlap::Unproven ? ListOffsets(view) : searched;
}

}  // namespace gs::plan
