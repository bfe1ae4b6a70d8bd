// Executing a compiled operator on a GPU through D3D12 (vkd3d on Linux). Link gs::d3d12.
// The plan is the one ExecuteOnCpu runs, and the bytes out are the same.
#pragma once

#include <cstdint>
#include <memory>

#include "gs/compiled_operator.h"
#include "gs/cpu.h"  // TensorBindings, IndexChecking
#include "gs/status.h"

struct ID3D12Device;
struct ID3D12GraphicsCommandList;
struct ID3D12Resource;

namespace gs {

// A tensor in a caller's D3D12 buffer: Offset (a multiple of the element size) and the bytes
// from there that the operator may touch.
struct D3D12Buffer {
  ID3D12Resource* Resource = nullptr;
  uint64_t Offset = 0;
  uint64_t SizeInBytes = 0;
};

// Named as the desc members; UpdatesTensor only for the scatters. A scatter runs in place with
// OutputTensor on InputTensor's resource and offset.
struct D3D12Bindings {
  D3D12Buffer InputTensor;
  D3D12Buffer IndicesTensor;
  D3D12Buffer UpdatesTensor;
  D3D12Buffer OutputTensor;
};

// What a recorded operator needs until the GPU has run it (constants, scratch buffers,
// descriptors): keep it alive until the command list has completed.
class D3D12Recording {
 public:
  ~D3D12Recording();
  // After the command list has completed. Returns:
  // - Ok;
  // - InvalidArgument: checked mode met an index out of range, with the CPU engine's message;
  //   the output holds what ExecuteOnCpu's would (IndexChecking::Checked: a failed scatter
  //   left it untouched, a failed gather may have written its view);
  // - Unsupported: more updates landed on one output element than this path folds (nothing
  //   was written; ExecuteOnCpu runs it);
  // - DeviceRemoved: the device was removed before the GPU ran it;
  // - OutOfMemory, Internal: reading the result back failed.
  Status Result() const;

  struct State;
  explicit D3D12Recording(std::unique_ptr<State> state);

 private:
  std::unique_ptr<State> state_;
};

// Holds a device, a queue for the synchronous calls, and the pipelines, created once per
// kernel on first use. One call at a time per engine runs on its queue; calls from several
// threads are serialised.
//
// The engine's life: destroy every engine before main returns (or std::exit is called). An
// engine still alive when exit begins (kept in a static, as a runtime keeps its device) waits
// for its queue and releases its device objects then, before the driver's own exit handlers;
// its later calls answer StatusCode::Unsupported and its destructor releases nothing more. That
// holds on lavapipe and on NVIDIA's Linux driver (gpu.StaticEngine.ExitsCleanly exits 0 on an
// H100, 2026-11-26); other drivers are untested. Release D3D12Recordings, and the caller's own
// references to the engine's device and objects on it, before main returns too: the device
// cannot be destroyed in time while the caller holds it.
class D3D12Engine {
 public:
  // With device == nullptr the engine makes its own (Linux: vkd3d on the first Vulkan device,
  // lavapipe when no GPU; Windows: the default adapter). A caller's device gets a reference.
  // Returns Ok; Unsupported (no device could be made: fall back to ExecuteOnCpu); OutOfMemory;
  // Internal (creating the pipelines, the queue or its objects failed).
  static Status Create(ID3D12Device* device, std::unique_ptr<D3D12Engine>* engine);

  ~D3D12Engine();
  D3D12Engine(const D3D12Engine&) = delete;
  D3D12Engine& operator=(const D3D12Engine&) = delete;

  ID3D12Device* device() const;

  // The most elements one typed buffer view holds: 2^27 (D3D12's limit) unless lowered, e.g.
  // for a device with a smaller texel-buffer limit, or by tests to cover many windows on small
  // tensors. A multiple of 16 in [16, 2^27]. Each tensor is bound as 8 such windows of its
  // buffer and each scatter scratch list (a word per output element, per update) as 4; a
  // larger one answers StatusCode::Unsupported. Not while a call is running.
  // Returns Ok, or InvalidArgument when elements is not such a multiple (nothing changes).
  Status SetViewElementLimit(uint64_t elements);

  // Uploads the bytes the input views span (never the rest of a buffer), runs the operator,
  // writes back only the output view's elements and waits; the limits are checked first. Same
  // contract as ExecuteOnCpu. Returns:
  // - Ok;
  // - InvalidArgument: as ExecuteOnCpu (empty op, bindings, checked mode's first bad index with
  //   the CPU engine's message; see IndexChecking::Checked for what the output holds then);
  // - Unsupported: this path cannot run the plan (a limit above; nothing written): the caller
  //   may fall back to ExecuteOnCpu;
  // - OutOfMemory: an allocation (host or GPU) failed; DeviceRemoved: the device was removed,
  //   and no byte the GPU did not write reaches the output; Internal: a D3D12 call failed.
  Status ExecuteOnHost(const CompiledOperator& op, const TensorBindings& bindings,
                       IndexChecking checking = IndexChecking::Checked);

  // Records the operator into the caller's compute or direct command list on the caller's
  // buffers, as DirectML's dispatch does. Inputs must be in a shader-resource state
  // (NON_PIXEL_SHADER_RESOURCE), OutputTensor (created with ALLOW_UNORDERED_ACCESS) in
  // UNORDERED_ACCESS; they stay so. Each binding's Offset + SizeInBytes must lie inside its
  // resource (InvalidArgument otherwise). The list's root signature, pipeline and descriptor heap
  // are replaced: the caller sets its own again afterwards. Returns Ok (the index check's
  // verdict comes later, from recording->Result()); InvalidArgument (empty op, null list,
  // IndexChecking not a value, bindings); Unsupported (as ExecuteOnHost; nothing recorded); OutOfMemory;
  // DeviceRemoved; Internal (a D3D12 call failed).
  Status Record(const CompiledOperator& op, ID3D12GraphicsCommandList* list,
                const D3D12Bindings& buffers, IndexChecking checking,
                std::unique_ptr<D3D12Recording>* recording);

  struct State;

 private:
  explicit D3D12Engine(std::unique_ptr<State> state);
  std::unique_ptr<State> state_;
};

}  // namespace gs
