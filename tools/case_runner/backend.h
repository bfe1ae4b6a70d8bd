// Where a case runs. The runner compiles the desc (the plan is the same for every backend),
// binds host buffers, and asks a backend to execute; the checks afterwards are shared, so a
// new backend (D3D12: upload, dispatch, read back into the output binding) is one class.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "gs/compiled_operator.h"
#include "gs/cpu.h"
#include "gs/status.h"

namespace gs::cases {

class Backend {
 public:
  virtual ~Backend() = default;

  // "cpu", "d3d12": the suffix of report lines when several backends run.
  virtual std::string name() const = 0;

  // Empty when the backend can run here; otherwise why not, and every case SKIPs with it.
  virtual std::string Unavailable() const { return {}; }

  // Reads the input bindings and leaves the result in the output binding's bytes. The
  // bindings are host memory; the output may alias InputTensor (a scatter in place).
  virtual Status Execute(const CompiledOperator& op, const TensorBindings& bindings,
                         IndexChecking checking) = 0;
};

// The names --backend accepts besides "all", in the order "all" runs them.
const std::vector<std::string>& BackendNames();

// nullptr for a name not in BackendNames().
std::unique_ptr<Backend> MakeBackend(const std::string& name);

}  // namespace gs::cases
