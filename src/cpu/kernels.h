// The CPU kernels the executor runs; each is chosen by the plan's element and index sizes.
#pragma once

#include <cstdint>

#include "cpu/parallel.h"
#include "plan/plan.h"

namespace gs::cpu {

// Gathers (all four): out[unit] = in[indexed offset], zeros where an index is out of bounds.
void RunGather(const plan::Plan& plan, const uint8_t* input, const uint8_t* indices,
               uint8_t* output, const Parallel& parallel);

// Copies the Input view into the Output view (a scatter's first step when not in place).
void RunStridedCopy(const plan::CopyConstants& copy, uint32_t elementSize, const uint8_t* source,
                    uint8_t* destination, const Parallel& parallel);

// Units per task so that a task moves enough bytes to be worth a thread.
inline uint64_t GrainUnits(uint64_t bytesPerUnit) {
  constexpr uint64_t kBytesPerTask = 64 * 1024;
  const uint64_t units = kBytesPerTask / (bytesPerUnit == 0 ? 1 : bytesPerUnit);
  return units == 0 ? 1 : units;
}

}  // namespace gs::cpu
