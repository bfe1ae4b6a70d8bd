// The machine the CPU engine runs on, read once per process.
#pragma once

#include <cstdint>

#include "plan/machine.h"

namespace gs::cpu {

// This machine: the kernel set (ActiveKernelSet), the cache sizes (CacheBytes) and the
// hardware threads, read at first use.
const plan::MachineInfo& ThisMachine();

// Bytes of cpu 0's data or unified cache of `level` (1-3), from sysfs, else sysconf (Windows:
// GetLogicalProcessorInformationEx); 0 when unknown.
uint64_t CacheBytes(int level);

}  // namespace gs::cpu
