// Whether an output view puts two of its elements on the same bytes.
#pragma once

#include "plan/plan.h"

namespace gs::plan {

// True when no two elements of the view share bytes (false also when the view is too large
// to prove it: see overlap.cc).
bool ViewIsOverlapFree(const TensorView& view);

}  // namespace gs::plan
