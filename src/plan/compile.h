// The plan compiler's entry point.
#pragma once

#include "gs/operators.h"
#include "gs/status.h"
#include "plan/plan.h"

namespace gs::plan {

// Validates desc against every rule of the spec and fills *plan. Pure: no threads, no SIMD.
Status CompilePlan(const OperatorDesc& desc, Plan* plan);

}  // namespace gs::plan
