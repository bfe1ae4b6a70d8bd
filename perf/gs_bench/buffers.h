// A suite case made ready to run: its compiled operator and its buffers (aligned, huge pages
// for large ones, pre-faulted), filled with deterministic data and seeded indices.
#pragma once

#include <cstddef>
#include <memory>
#include <string>

#include "buffer.h"
#include "gs/gs.h"
#include "suite.h"

namespace gs_bench {

// Everything a (case, variant) needs, built outside the timed loop and shared by its
// checked/unchecked x threads benchmarks.
struct Prepared {
  std::string key;
  std::string error;  // non-empty: setup failed
  gs::CompiledOperator op;
  gs::TensorBindings bindings;
  Buffer input, indices, updates, output;
};

gs::CpuExecuteOptions CpuOptions(bool checked, int threads);

// Throws std::runtime_error on a suite entry it cannot read; a desc gs rejects sets error.
std::unique_ptr<Prepared> Prepare(const Case& c, const std::string& variant);

}  // namespace gs_bench
