// The CPU engine's entry points for the implementations a plan records (plan/cpu_choice.h).
#pragma once

#include <cstdint>

#include "cpu/parallel.h"
#include "plan/plan.h"

namespace gs::cpu {

// Gathers (all four): out[unit] = in[indexed offset], zeros where an index is out of bounds.
// checked: returns whether every index the walk read was in bounds (unchecked: may return true
// regardless).
bool RunGather(const plan::Plan& plan, const uint8_t* input, const uint8_t* indices,
               uint8_t* output, const Parallel& parallel, bool checked);

// Copies the Input view into the Output view (a scatter's first step when not in place).
void RunStridedCopy(const plan::Plan& plan, const uint8_t* source, uint8_t* destination,
                    const Parallel& parallel);

// Tests: the implementation the last call on this thread ran (each Run records its own).
void NoteImplementationRun(plan::CpuImplementation implementation);
plan::CpuImplementation LastImplementationRun();

}  // namespace gs::cpu
