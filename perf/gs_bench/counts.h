// Count mode (--valgrind-calls=N): instead of timing, each selected CPU benchmark makes N
// calls between callgrind client requests, so that valgrind --tool=callgrind counts their
// instructions and simulated cache misses alone (perf/dashboard/gs_counts.py runs it and
// reads the dumps). Deterministic: the same build and suite give the same counts.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "register.h"
#include "suite.h"

namespace gs_bench {

// One dump per benchmark, named by its benchmark name; prints a JSON document to stdout
// with the context and the benchmarks counted. Returns the exit status.
int CountCalls(const std::vector<Case>& cases, const Options& options, int calls,
               const std::string& filter,
               const std::vector<std::pair<std::string, std::string>>& context);

}  // namespace gs_bench
