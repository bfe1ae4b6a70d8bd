#include "cpu/validate_indices.h"

#include <atomic>
#include <limits>
#include <string>

#include "cpu/kernel_set.h"
#include "cpu/elements.h"
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

template <typename IndexT>
std::string RangeText(uint64_t bound) {
  if (std::is_signed_v<IndexT>) return "[-" + std::to_string(bound) + ", " + std::to_string(bound) + ")";
  return "[0, " + std::to_string(bound) + ")";
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
    const IndexT value = LoadIndex<IndexT>(indices, IndexAt(v, p).offsets[0]);
    const uint64_t bound = v.bounds[p % v.tupleSize];
    std::string message = std::string(OperatorTypeName(plan.op)) +
                          ": IndicesTensor element at flat row-major position " +
                          std::to_string(p) + " is " + std::to_string(value) +
                          ", outside the valid range " + RangeText<IndexT>(bound) +
                          " of a dimension of size " + std::to_string(bound);
    if (v.tupleSize > 1) {
      message += " (component " + std::to_string(p % v.tupleSize) + " of its index tuple)";
    }
    return Status(StatusCode::InvalidArgument, message);
  });
}

}  // namespace gs::cpu
