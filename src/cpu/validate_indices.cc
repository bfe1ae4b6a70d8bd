#include "cpu/validate_indices.h"

#include <atomic>
#include <limits>
#include <type_traits>

#include "cpu/kernel_set.h"
#include "cpu/walk.h"
#include "plan/bad_index.h"

namespace gs::cpu {
namespace {

constexpr uint64_t kNone = std::numeric_limits<uint64_t>::max();

// Element offset of flat position p in the (folded) Indices view.
uint64_t OffsetOf(const plan::IndexValidation& v, uint64_t p) {
  uint64_t offset = 0;
  for (uint64_t d = v.rank; d-- > 0;) {
    offset += (p % v.sizes[d]) * v.strides[d];
    p /= v.sizes[d];
  }
  return offset;
}

// First bad flat position in [begin, end), or kNone. Walks with an odometer, not divisions.
template <typename IndexT>
uint64_t FirstBadInRange(const plan::IndexValidation& v, const uint8_t* indices, uint64_t begin,
                         uint64_t end) {
  uint64_t coords[plan::kMaxRank] = {};
  uint64_t rest = begin;
  for (uint64_t d = v.rank; d-- > 0;) {
    coords[d] = rest % v.sizes[d];
    rest /= v.sizes[d];
  }
  uint64_t offset = OffsetOf(v, begin);
  uint64_t component = begin % v.tupleSize;
  for (uint64_t p = begin; p < end; ++p) {
    uint64_t position;
    if (!ResolveIndex(LoadIndex<IndexT>(indices, offset), v.bounds[component], &position)) {
      return p;
    }
    if (++component == v.tupleSize) component = 0;
    for (uint64_t d = v.rank; d-- > 0;) {
      offset += v.strides[d];
      if (++coords[d] < v.sizes[d]) break;
      offset -= v.strides[d] * v.sizes[d];
      coords[d] = 0;
    }
  }
  return kNone;
}

}  // namespace

Status ValidateIndices(const plan::Plan& plan, const uint8_t* indices, const Parallel& parallel) {
  const plan::IndexValidation& v = plan.validation;
  return WithIndexType(plan.indexType, [&](auto tag) -> Status {
    using IndexT = decltype(tag);
    std::atomic<uint64_t> firstBad{kNone};
    constexpr uint64_t kGrain = 1 << 16;
    // Indices contiguous in row-major order (the usual case): the kernel set's vector check.
    const bool contiguous = v.rank == 0 || (v.rank == 1 && v.strides[0] == 1);
    const FirstBadFn check = ActiveKernels().firstBad[IndexKind(plan.indexType)];
    parallel.For(v.elementCount, kGrain, [&](uint64_t begin, uint64_t end) {
      if (begin > firstBad.load(std::memory_order_relaxed)) return;  // an earlier one is known
      uint64_t bad = kNone;
      if (contiguous) {
        const uint64_t j = check(indices + begin * sizeof(IndexT), end - begin, v.bounds,
                                 v.tupleSize, begin % v.tupleSize);
        if (j < end - begin) bad = begin + j;
      } else {
        bad = FirstBadInRange<IndexT>(v, indices, begin, end);
      }
      uint64_t seen = firstBad.load(std::memory_order_relaxed);
      while (bad < seen && !firstBad.compare_exchange_weak(seen, bad)) {
      }
    });
    const uint64_t p = firstBad.load();
    if (p == kNone) return Status::Ok();
    const IndexT value = LoadIndex<IndexT>(indices, OffsetOf(v, p));
    return plan::BadIndexStatus(plan, p, static_cast<std::make_unsigned_t<IndexT>>(value));
  });
}

}  // namespace gs::cpu
