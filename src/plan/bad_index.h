// Checked mode's error for the first bad index, worded once for both engines: the CPU engine
// finds the element itself, the D3D12 path reads position and bits back from the GPU.
#pragma once

#include <cstdint>

#include "gs/status.h"
#include "plan/plan.h"

namespace gs::plan {

// position: the element's flat row-major position in Indices. indexBits: the element's bits
// zero-extended to 64 (a 32-bit index in the low half), read as plan.indexType.
Status BadIndexStatus(const Plan& plan, uint64_t position, uint64_t indexBits);

// A checked gather met a bad index that was not there when the indices were read again: the
// caller changed them during the call.
Status IndicesChangedStatus(const Plan& plan);

}  // namespace gs::plan
