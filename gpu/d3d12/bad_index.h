// Checked mode's error, word for word the CPU engine's (src/cpu/validate_indices.cc), for the
// first bad flat position that the GPU's validation pass found.
#pragma once

#include <cstdint>

#include "gs/status.h"
#include "plan/plan.h"

namespace gs::d3d12 {

// indices: the Indices tensor's bytes (host memory).
Status BadIndexStatus(const plan::Plan& plan, uint64_t position, const uint8_t* indices);

}  // namespace gs::d3d12
