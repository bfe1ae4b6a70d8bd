// The plan compiler's entry point.
#pragma once

#include "gs/operators.h"
#include "gs/status.h"
#include "plan/plan.h"

namespace gs::plan {

// Validates desc against every rule of the spec and fills *plan for `machine`. Pure: no
// threads, no SIMD, nothing read of the hardware but `machine`.
Status CompilePlan(const OperatorDesc& desc, const MachineInfo& machine, Plan* plan);

}  // namespace gs::plan
