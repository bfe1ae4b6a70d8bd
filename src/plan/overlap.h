// Whether an output view puts two of its elements on the same bytes.
#pragma once

#include <cstdint>

#include "plan/plan.h"

namespace gs::plan {

enum class Overlap { None, Found, Unproven };

// Steps the exact search may take before it gives up (the answer is then Unproven).
inline constexpr uint64_t kOverlapSearchSteps = uint64_t{1} << 24;

// Two distinct elements share an offset iff a nonzero z with |z_d| < Sizes[d] has
// sum(z_d * Strides[d]) == 0: a bounded linear Diophantine problem (NumPy's mem_overlap.c
// solves the same), searched exactly here within kOverlapSearchSteps.
Overlap FindSelfOverlap(const TensorView& view, uint64_t maxSteps = kOverlapSearchSteps);

// FindSelfOverlap's quick sufficient test alone, no search: sorted by stride, each dim of size
// above 1 steps past everything the smaller strides reach. False means "not shown", not
// "overlaps".
bool ProvablyApart(const TensorView& view);

}  // namespace gs::plan
