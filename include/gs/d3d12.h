// Executing a compiled operator on a GPU through D3D12 (vkd3d on Linux). Link gs::d3d12.
// The plan is the one ExecuteOnCpu runs, and the bytes out are the same.
#pragma once

#include <memory>

#include "gs/compiled_operator.h"
#include "gs/cpu.h"  // TensorBindings, IndexChecking
#include "gs/status.h"

struct ID3D12Device;

namespace gs {

// Holds a device, a queue for the synchronous calls, and the pipelines, created once per
// kernel on first use. One call at a time per engine runs on its queue; calls from several
// threads are serialised.
class D3D12Engine {
 public:
  // With device == nullptr the engine makes its own (Linux: vkd3d on the first Vulkan device,
  // lavapipe when no GPU; Windows: the default adapter). A caller's device gets a reference.
  static Status Create(ID3D12Device* device, std::unique_ptr<D3D12Engine>* engine);

  ~D3D12Engine();
  D3D12Engine(const D3D12Engine&) = delete;
  D3D12Engine& operator=(const D3D12Engine&) = delete;

  ID3D12Device* device() const;

  // Uploads the bound host memory, runs the operator, reads the output back and waits. Same
  // contract as ExecuteOnCpu: checked mode fails with the CPU engine's message and leaves the
  // output untouched. StatusCode::Unsupported when this path cannot run the plan (the caller
  // may fall back to ExecuteOnCpu).
  Status ExecuteOnHost(const CompiledOperator& op, const TensorBindings& bindings,
                       IndexChecking checking = IndexChecking::Checked);

  struct State;

 private:
  explicit D3D12Engine(std::unique_ptr<State> state);
  std::unique_ptr<State> state_;
};

}  // namespace gs
