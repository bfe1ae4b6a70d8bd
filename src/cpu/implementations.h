// The run functions of the CPU implementation list (plan/cpu_choice.cc), one per entry, and
// the record of which one ran. Each runs a whole call: the walk, the checked mode's
// validation, and for a scatter the Input -> Output copy first; each records its own entry.
#pragma once

#include <cstdint>

#include "cpu/parallel.h"
#include "plan/call_checks.h"
#include "plan/plan.h"

namespace gs::cpu {

// Gathers: out[unit] = in[indexed offset], zeros where an index is out of bounds; checked
// mode validates in the same pass (a failed call may have written its output view).
Status RunGatherElementRows(const plan::Plan& plan, const plan::HostBuffers& buffers, const Parallel& parallel,
                            bool checked);
Status RunGatherTupleRows(const plan::Plan& plan, const plan::HostBuffers& buffers, const Parallel& parallel,
                          bool checked);
Status RunGatherBlocks(const plan::Plan& plan, const plan::HostBuffers& buffers, const Parallel& parallel,
                       bool checked);
Status RunGatherElementUnits(const plan::Plan& plan, const plan::HostBuffers& buffers, const Parallel& parallel,
                             bool checked);
Status RunGatherUnits(const plan::Plan& plan, const plan::HostBuffers& buffers, const Parallel& parallel,
                      bool checked);

// Scatters: checked mode validates every index before anything is written (a failed call
// leaves the output untouched), then Input is copied to Output and the updates folded in.
Status RunScatterStrips(const plan::Plan& plan, const plan::HostBuffers& buffers, const Parallel& parallel,
                        bool checked);
Status RunScatterLines(const plan::Plan& plan, const plan::HostBuffers& buffers, const Parallel& parallel,
                       bool checked);
Status RunScatterUnitsByDestination(const plan::Plan& plan, const plan::HostBuffers& buffers,
                                    const Parallel& parallel, bool checked);
Status RunScatterElementRows(const plan::Plan& plan, const plan::HostBuffers& buffers, const Parallel& parallel,
                             bool checked);
Status RunScatterUnits(const plan::Plan& plan, const plan::HostBuffers& buffers, const Parallel& parallel,
                       bool checked);

// Copies the Input view into the Output view (a scatter's first step when not in place).
void RunStridedCopy(const plan::Plan& plan, const uint8_t* source, uint8_t* destination,
                    const Parallel& parallel);

// What ScatterUnitsByDestination found when it counted the destinations: the one decision of
// the engine that reads index values.
enum class Destinations : uint32_t {
  NotCounted,  // the entry that ran does not count them
  Distinct,    // no two units start at one offset: units written in any order
  Repeated,    // some do: units bucketed by destination, each bucket in row-major order
};

// Tests: the entry the last call on this thread ran, as its run function recorded it, and
// what it found of the destinations.
struct ImplementationRun {
  plan::CpuImplementation implementation = plan::CpuImplementation::GatherUnits;
  Destinations destinations = Destinations::NotCounted;
};
void NoteImplementationRun(plan::CpuImplementation implementation);
void NoteDestinations(Destinations destinations);
ImplementationRun LastImplementationRun();

}  // namespace gs::cpu
