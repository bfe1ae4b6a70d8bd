// Checked mode's error, word for word the CPU engine's (src/cpu/validate_indices.cc), from
// what the GPU's validation reported: the first bad flat position and the index's bits.
#pragma once

#include <cstdint>

#include "gs/status.h"
#include "plan/plan.h"

namespace gs::d3d12 {

// valueBits: the index element's bytes, zero-extended (32-bit indices in the low half).
Status BadIndexStatus(const plan::Plan& plan, uint64_t position, uint64_t valueBits);

}  // namespace gs::d3d12
