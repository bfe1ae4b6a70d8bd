// Checked mode: every index is validated before anything is written.
#pragma once

#include "cpu/parallel.h"
#include "gs/status.h"
#include "plan/plan.h"

namespace gs::cpu {

// Ok when every Indices element is in range; otherwise the error naming the first bad
// element in row-major order, its value and the valid range.
Status ValidateIndices(const plan::Plan& plan, const uint8_t* indices, const Parallel& parallel);

// For a pass that met an out-of-bounds index: the error naming the first, or, when a second
// reading finds none, that the indices changed during the call.
Status OutOfBoundsStatus(const plan::Plan& plan, const uint8_t* indices, const Parallel& parallel);

}  // namespace gs::cpu
