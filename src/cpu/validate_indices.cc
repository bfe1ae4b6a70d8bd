#include "cpu/validate_indices.h"

#include <atomic>
#include <limits>
#include <type_traits>

#include "cpu/kernel_set.h"
#include "cpu/elements.h"
#include "plan/bad_index.h"
#include "plan/odometer.h"

namespace gs::cpu {
namespace {

constexpr uint64_t kNone = std::numeric_limits<uint64_t>::max();

// The Indices element at flat position p and its offset (offsets[0]).
plan::Odometer<1> IndexAt(const plan::IndexValidation& v, uint64_t p) {
  plan::Odometer<1> element;
  element.rank = v.rank;
  element.sizes = v.sizes;
  element.strides[0] = v.strides;
  element.Seek(p);
  return element;
}

// First bad flat position in [begin, end), or kNone.
template <typename IndexT>
uint64_t FirstBadInRange(const plan::IndexValidation& v, const uint8_t* indices, uint64_t begin,
                         uint64_t end) {
  plan::Odometer<1> element = IndexAt(v, begin);
  uint64_t component = begin % v.tupleSize;
  for (uint64_t p = begin; p < end; ++p, element.Next()) {
    bool ok;
    ResolveIndex(LoadIndex<IndexT>(indices, element.offsets[0]), v.bounds[component], &ok);
    if (!ok) return p;
    if (++component == v.tupleSize) component = 0;
  }
  return kNone;
}

}  // namespace

Status ValidateIndices(const plan::Plan& plan, const uint8_t* indices, const Parallel& parallel) {
  const plan::IndexValidation& v = plan.validation;
  if (v.elementCount == 0) return Status::Ok();
  return WithIndexType(plan.indexType, [&](auto tag) -> Status {
    using IndexT = decltype(tag);
    std::atomic<uint64_t> firstBad{kNone};
    constexpr uint64_t kGrain = 1 << 16;
    // Indices contiguous in row-major order (the usual case): the kernel set's vector check.
    const bool contiguous = plan.cpu.indicesContiguous;
    const FirstBadFn check = KernelsOf(plan.cpu.kernelSet).firstBad[IndexKind(plan.indexType)];
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
    const IndexT value = LoadIndex<IndexT>(indices, IndexAt(v, p).offsets[0]);
    return plan::BadIndexStatus(plan, p, static_cast<std::make_unsigned_t<IndexT>>(value));
  });
}

Status OutOfBoundsStatus(const plan::Plan& plan, const uint8_t* indices, const Parallel& parallel) {
  const Status status = ValidateIndices(plan, indices, parallel);
  return status.ok() ? plan::IndicesChangedStatus(plan) : status;
}

}  // namespace gs::cpu
