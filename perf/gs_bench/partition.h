// gs-bench --partition: how the CPU engine's plan splits each suite call over 1 to N threads,
// computed from what the plan records (no call is run): a check of the partitioning where no
// many-core machine is at hand (perf/README.md).
#pragma once

#include <vector>

#include "suite.h"

namespace gs_bench {

// Prints one table per case and variant; returns 0, or 1 when a case could not be compiled.
int PrintPartitions(const std::vector<Case>& cases, const std::vector<int>& threads);

}  // namespace gs_bench
