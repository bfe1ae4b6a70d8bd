// Inside D3D12Engine: its state and a recording's, and the steps its files share.
//   engine.cc          the engine's life: the device, queue and fence; a removed device
//   record.cc          a plan's passes recorded on D3D12 buffers (the caller's, or the host path's)
//   descriptors.cc     the views of every tensor and list the kernels bind
//   host_execution.cc  host memory: upload, record, run, read back
#pragma once

#include <algorithm>
#include <atomic>
#include <memory>
#include <mutex>
#include <new>
#include <string>
#include <vector>

#include "d3d12/d3d12_api.h"
#include "d3d12/features.h"
#include "d3d12/pipelines.h"
#include "gs/d3d12.h"
#include "gs/status.h"
#include "plan/gpu_dispatch.h"
#include "plan/plan.h"

namespace gs {

struct D3D12Engine::State {
  d3d12::ComPtr<ID3D12Device> device;
  d3d12::DeviceFeatures features;  // asked once, at Create
  d3d12::Pipelines pipelines;
  std::mutex queueMutex;  // the synchronous calls share one queue, list and fence
  d3d12::ComPtr<ID3D12CommandQueue> queue;
  d3d12::ComPtr<ID3D12CommandAllocator> allocator;
  d3d12::ComPtr<ID3D12GraphicsCommandList> list;
  d3d12::ComPtr<ID3D12Fence> fence;
  uint64_t fenceValue = 0;
  uint64_t viewElementLimit = plan::kGpuViewElementLimit;
  // Set when a call could not wait for its submitted work (device removed, fence not signalled):
  // later calls fail the same way, and the buffers that work may still touch are kept until
  // the engine goes.
  Status removed;
  std::vector<std::shared_ptr<void>> abandoned;
  // Set once the process began to exit with the engine alive: its device objects are released
  // (engine.cc, ReleaseEnginesAtExit), every later call is Unsupported and the destructor
  // releases nothing more.
  std::atomic<bool> releasedAtExit{false};
};

// Everything one recorded operator needs until the GPU has run it.
struct D3D12Recording::State {
  plan::Plan plan;
  bool checked = true;
  d3d12::ComPtr<ID3D12Resource> constants;  // upload heap: a block per pass, then the status's start
  uint64_t statusInitOffset = 0;
  d3d12::ComPtr<ID3D12Resource> status, statusReadback;
  d3d12::ComPtr<ID3D12Resource> heads, links, order, sources;  // scatters
  d3d12::ComPtr<ID3D12Resource> placeholder;  // viewed in place of an empty tensor (no bytes)
  d3d12::ComPtr<ID3D12DescriptorHeap> heap;
  // The heap's table of views, and the one of a pass with copyViews (the same when none has).
  D3D12_GPU_DESCRIPTOR_HANDLE table = {}, copyTable = {};
  plan::GpuSchedule schedule;
  ID3D12PipelineState* pipelines[plan::kMaxGpuPasses] = {};
};

namespace d3d12 {

// The status buffer's words (GS_STATUS_*, plan/hlsl_shared/gpu_constants.h).
inline constexpr uint64_t kStatusBytes = 4 * GS_STATUS_WORDS;

// A tensor on the GPU: a buffer, where the tensor starts in it, and its bytes. Views are typed
// (vkd3d binds typed views only; see design/gpu-path.md) and start at a whole element.
struct GpuTensor {
  ID3D12Resource* resource = nullptr;
  uint64_t offset = 0;
  uint64_t bytes = 0;
};

std::string Hresult(HRESULT hr);  // "0x887a0005"

// Unsupported, naming `who`, once the engine released its device at exit; Ok otherwise.
Status CheckNotReleasedAtExit(const D3D12Engine::State& engine, const char* who);

// A removed device (reset, hung or lost GPU) runs nothing more and its fences may never
// complete: every call checks first, and a wait gives up, instead of hanging or reading back
// memory the GPU never wrote. `who` starts the message.
Status CheckDeviceNotRemoved(ID3D12Device* device, const std::string& who);

// Waits for the queue by polling the fence (no OS event needed on either platform).
Status WaitForFence(ID3D12Device* device, ID3D12Fence* fence, uint64_t value, const std::string& who);

// Runs a known gather on a new engine: Unsupported, naming what came back, when the device
// runs gs's kernels wrong (self_check.cc).
Status CheckKnownGather(D3D12Engine& engine);

// No exception crosses the API: an allocation failing inside a call is that call's OutOfMemory
// (nothing is submitted after the last allocation of a synchronous call).
template <typename Call>
Status OutOfMemoryAsStatus(const char* call, Call&& run) {
  try {
    return run();
  } catch (const std::bad_alloc&) {
    return Status(StatusCode::OutOfMemory, std::string(call) + ": out of memory");
  }
}

// Schedules the plan's passes and gets their pipelines: Unsupported (the plan is beyond this
// path's limits) before any buffer is made. tensors: where each will be bound (by
// plan::TensorRole; only the offsets are read).
Status Schedule(D3D12Engine::State& engine, const plan::Plan& plan, bool checked, bool inPlace,
                const GpuTensor* tensors, D3D12Recording::State* run);

// Creates what a scheduled run needs: constants, status and scratch lists, and the
// descriptors. tensors: by plan::TensorRole, each its view's span (plan::ViewSpanInBytes); an
// absent one has no resource.
Status Prepare(D3D12Engine::State& engine, const GpuTensor* tensors, bool inPlace, D3D12Recording::State* run);

// Records the passes (the inputs in a shader-resource state, the output in UNORDERED_ACCESS),
// then the status words' copy to the readback buffer.
void RecordPasses(ID3D12GraphicsCommandList* list, ID3D12RootSignature* rootSignature,
                  const D3D12Recording::State& run);

// Writes the descriptor heap of a prepared run: every tensor's and list's windows as its
// schedule says (elements, window), in the registers' order (gpu/hlsl/common.hlsli), and a
// second such table for a copy pass with copyViews; sets run->table and run->copyTable. Empty
// string, or what failed.
std::string WriteDescriptors(ID3D12Device* device, const GpuTensor* tensors, bool inPlace, D3D12Recording::State* run);

}  // namespace d3d12
}  // namespace gs
