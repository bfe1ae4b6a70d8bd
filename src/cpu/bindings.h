// Checking the caller's buffers against the compiled operator before touching them.
#pragma once

#include "gs/cpu.h"
#include "gs/status.h"
#include "plan/plan.h"

namespace gs::cpu {

struct BoundBuffers {
  const uint8_t* input = nullptr;
  const uint8_t* indices = nullptr;
  const uint8_t* updates = nullptr;
  uint8_t* output = nullptr;
  bool inPlace = false;  // a scatter whose Output is bound to its Input buffer
};

// Every bound buffer present, large enough for its desc, aligned to its elements, and no output
// overlapping an input except a scatter's Output on its own Input view (in place).
Status CheckBindings(const plan::Plan& plan, const TensorBindings& bindings, BoundBuffers* bound);

}  // namespace gs::cpu
