// D3D12Engine: record the plan's passes on D3D12 buffers (the caller's, or for host memory
// its own after an upload), run, read back.
#include <chrono>
#include <cstring>
#include <functional>
#include <memory>
#include <mutex>
#include <new>
#include <string>
#include <thread>
#include <vector>

#include "d3d12/d3d12_api.h"
#include "d3d12/pipelines.h"
#include "d3d12/platform.h"
#include "d3d12/resources.h"
#include "gs/d3d12.h"
#include "plan/bad_index.h"
#include "plan/call_checks.h"
#include "plan/gpu_dispatch.h"
#include "plan/plan.h"

namespace gs {

using d3d12::ComPtr;
using d3d12::CreateBuffer;
using d3d12::Transition;

struct D3D12Engine::State {
  ComPtr<ID3D12Device> device;
  d3d12::Pipelines pipelines;
  std::mutex queueMutex;  // the synchronous calls share one queue, list and fence
  ComPtr<ID3D12CommandQueue> queue;
  ComPtr<ID3D12CommandAllocator> allocator;
  ComPtr<ID3D12GraphicsCommandList> list;
  ComPtr<ID3D12Fence> fence;
  uint64_t fenceValue = 0;
  uint64_t viewElementLimit = plan::kGpuViewElementLimit;
  // Set when a call could not wait for its submitted work (device removed, fence not signalled):
  // later calls fail the same way, and the buffers that work may still touch are kept until
  // the engine goes.
  Status removed;
  std::vector<std::shared_ptr<void>> abandoned;
};

namespace {

// What the kernels' cbuffer holds (gpu/hlsl/common.hlsli), one copy per pass.
struct ConstantBlock {
  plan::KernelConstants kernel;
  plan::CopyConstants copy;
  plan::IndexValidation validation;
  plan::PassConstants pass;
};
constexpr uint64_t kConstantBlockStride = (sizeof(ConstantBlock) + 255) / 256 * 256;
constexpr uint64_t kPlacementAlignment = 256;

uint64_t AlignUp(uint64_t value, uint64_t alignment) {
  return (value + alignment - 1) / alignment * alignment;
}

std::string Hresult(HRESULT hr) {
  char text[16];
  std::snprintf(text, sizeof text, "0x%08x", static_cast<unsigned>(hr));
  return text;
}

DXGI_FORMAT ElementFormat(uint32_t elementBytes) {
  switch (elementBytes) {
    case 1: return DXGI_FORMAT_R8_UINT;
    case 2: return DXGI_FORMAT_R16_UINT;
    case 4: return DXGI_FORMAT_R32_UINT;
    default: return DXGI_FORMAT_R32G32_UINT;
  }
}

D3D12_RESOURCE_BARRIER UavBarrier() {
  D3D12_RESOURCE_BARRIER barrier = {};
  barrier.Type = D3D12_RESOURCE_BARRIER_TYPE_UAV;
  barrier.UAV.pResource = nullptr;  // every UAV: the next pass reads what this one wrote
  return barrier;
}

// The status buffer: first bad flat position (GS_NO_BAD_INDEX: none), the index's two words,
// and 1 when a scatter's list was longer than the plan's limit.
constexpr uint64_t kStatusBytes = 16;

// A removed device (reset, hung or lost GPU) runs nothing more and its fences may never
// complete: every call checks first, and a wait gives up, instead of hanging or reading back
// memory the GPU never wrote.
Status CheckDeviceNotRemoved(ID3D12Device* device, const std::string& who) {
  const HRESULT reason = device->GetDeviceRemovedReason();
  if (reason == S_OK) return Status::Ok();
  return Status(StatusCode::DeviceRemoved,
                who + ": the D3D12 device was removed (GetDeviceRemovedReason " + Hresult(reason) +
                    "); nothing was written: recreate the engine on a new device or use ExecuteOnCpu");
}

// Waits for the queue by polling the fence (no OS event needed on either platform).
Status WaitForFence(ID3D12Device* device, ID3D12Fence* fence, uint64_t value, const std::string& who) {
  while (fence->GetCompletedValue() < value) {
    Status removed = CheckDeviceNotRemoved(device, who);
    if (!removed.ok()) return removed;
    std::this_thread::yield();
  }
  // A removed device reports every fence value as complete.
  return CheckDeviceNotRemoved(device, who);
}

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

// A tensor on the GPU: a buffer, where the tensor starts in it, and its bytes. Views are typed
// (vkd3d binds typed views only; see design/gpu-path.md) and start at a whole element.
struct GpuTensor {
  ID3D12Resource* resource = nullptr;
  uint64_t offset = 0;
  uint64_t bytes = 0;
};

// One view of the tensor's elements [start, start + count) (count at least one).
void WriteView(ID3D12Device* device, const GpuTensor& t, DXGI_FORMAT format, uint32_t elementBytes,
               bool unordered, uint64_t start, uint64_t count, D3D12_CPU_DESCRIPTOR_HANDLE slot) {
  const uint64_t first = t.offset / elementBytes + start;
  count = std::max<uint64_t>(1, count);
  if (unordered) {
    D3D12_UNORDERED_ACCESS_VIEW_DESC desc = {};
    desc.Format = format;
    desc.ViewDimension = D3D12_UAV_DIMENSION_BUFFER;
    desc.Buffer.FirstElement = first;
    desc.Buffer.NumElements = static_cast<UINT>(count);
    device->CreateUnorderedAccessView(t.resource, nullptr, &desc, slot);
  } else {
    D3D12_SHADER_RESOURCE_VIEW_DESC desc = {};
    desc.Format = format;
    desc.ViewDimension = D3D12_SRV_DIMENSION_BUFFER;
    desc.Shader4ComponentMapping = D3D12_DEFAULT_SHADER_4_COMPONENT_MAPPING;
    desc.Buffer.FirstElement = first;
    desc.Buffer.NumElements = static_cast<UINT>(count);
    device->CreateShaderResourceView(t.resource, &desc, slot);
  }
}

// The tensor as the kernels' `windows` views (gpu/hlsl/common.hlsli): window w holds
// elements [w * window, (w + 1) * window); windows past the tensor's end show window 0, which
// no kernel then selects (the plan fits every tensor in the windows).
void WriteWindows(ID3D12Device* device, const GpuTensor& t, DXGI_FORMAT format, uint32_t elementBytes,
                  bool unordered, uint64_t window, uint32_t windows,
                  const std::function<D3D12_CPU_DESCRIPTOR_HANDLE()>& next) {
  const uint64_t elements = t.bytes / elementBytes;
  for (uint32_t w = 0; w < windows; ++w) {
    const uint64_t start = uint64_t{w} * window < elements ? uint64_t{w} * window : 0;
    WriteView(device, t, format, elementBytes, unordered, start, std::min(window, elements - start), next());
  }
}

}  // namespace

// Everything one recorded operator needs until the GPU has run it.
struct D3D12Recording::State {
  plan::Plan plan;
  bool checked = true;
  ComPtr<ID3D12Resource> constants;  // upload heap: a block per pass, then the status's start
  uint64_t statusInitOffset = 0;
  ComPtr<ID3D12Resource> status, statusReadback;
  ComPtr<ID3D12Resource> heads, links, order, sources;  // scatters
  ComPtr<ID3D12DescriptorHeap> heap;
  plan::GpuSchedule schedule;
  ID3D12PipelineState* pipelines[plan::kMaxGpuPasses] = {};
};

namespace {

// Creates what the passes need and writes their descriptors. tensors: by plan::TensorRole;
// an absent tensor has no resource.
Status Prepare(D3D12Engine::State& s, const plan::Plan& plan, const GpuTensor* tensors,
               bool checked, bool inPlace, D3D12Recording::State* run);

// Records the passes (the caller's inputs in a shader-resource state, its output in
// UNORDERED_ACCESS), then the status word's copy to the readback buffer.
void RecordPasses(ID3D12GraphicsCommandList* list, ID3D12RootSignature* rootSignature,
                  const D3D12Recording::State& run);

}  // namespace

D3D12Engine::D3D12Engine(std::unique_ptr<State> state) : state_(std::move(state)) {}
D3D12Engine::~D3D12Engine() {
  // Abandoned work may still run on a device that reported removal without stopping; a removed
  // device reports every fence value complete, so this wait is bounded either way.
  if (state_->abandoned.empty()) return;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while (state_->fence->GetCompletedValue() < state_->fenceValue && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::yield();
  }
}

D3D12Recording::D3D12Recording(std::unique_ptr<State> state) : state_(std::move(state)) {}
D3D12Recording::~D3D12Recording() = default;

Status D3D12Recording::Result() const {
  return OutOfMemoryAsStatus("D3D12Recording::Result", [&]() -> Status {
    const State& run = *state_;
    ComPtr<ID3D12Device> device;
    if (SUCCEEDED(run.statusReadback->GetDevice(ComPtr<ID3D12Device>::Iid(), device.Receive()))) {
      Status removed = CheckDeviceNotRemoved(device.get(), std::string(OperatorTypeName(run.plan.op)) +
                                                               ": D3D12Recording::Result");
      if (!removed.ok()) return removed;  // the status words were never written
    }
    uint32_t words[4];
    uint8_t* mapped = nullptr;
    if (FAILED(run.statusReadback->Map(0, nullptr, reinterpret_cast<void**>(&mapped)))) {
      return Status(StatusCode::Internal, std::string(OperatorTypeName(run.plan.op)) +
                                              ": D3D12: mapping the status readback failed");
    }
    std::memcpy(words, mapped, sizeof words);
    run.statusReadback->Unmap(0, nullptr);
    if (run.checked && words[0] != GS_NO_BAD_INDEX) {
      return plan::BadIndexStatus(run.plan, words[0], words[1] | (uint64_t{words[2]} << 32));
    }
    if (words[3] != 0) {
      return Status(StatusCode::Unsupported,
                    std::string(OperatorTypeName(run.plan.op)) + ": D3D12: more than " +
                        std::to_string(plan::kGpuMaxUpdatesPerElement) +
                        " updates land on one output element, more than the D3D12 path folds on one "
                        "thread; nothing was written (ExecuteOnCpu runs it)");
    }
    return Status::Ok();
  });
}

ID3D12Device* D3D12Engine::device() const { return state_->device.get(); }

Status D3D12Engine::SetViewElementLimit(uint64_t elements) {
  return OutOfMemoryAsStatus("D3D12Engine::SetViewElementLimit", [&]() -> Status {
    if (elements < 16 || elements % 16 != 0 || elements > plan::kGpuViewElementLimit) {
      return Status(StatusCode::InvalidArgument,
                    "D3D12Engine::SetViewElementLimit: " + std::to_string(elements) +
                        " is not a multiple of 16 in [16, 2^27]");
    }
    state_->viewElementLimit = elements;
    return Status::Ok();
  });
}

Status D3D12Engine::Create(ID3D12Device* device, std::unique_ptr<D3D12Engine>* engine) {
  return OutOfMemoryAsStatus("D3D12Engine::Create", [&]() -> Status {
    auto state = std::make_unique<State>();
    if (device != nullptr) {
      state->device = ComPtr<ID3D12Device>::Share(device);
    } else {
      std::string error;
      state->device = d3d12::CreateDefaultDevice(&error);
      if (!state->device) return Status(StatusCode::Unsupported, "D3D12Engine: " + error);
    }
    ID3D12Device* d = state->device.get();
    const std::string error = state->pipelines.Init(d);
    if (!error.empty()) return Status(StatusCode::Internal, "D3D12Engine: " + error);

    D3D12_COMMAND_QUEUE_DESC queueDesc = {};
    queueDesc.Type = D3D12_COMMAND_LIST_TYPE_COMPUTE;
    if (FAILED(d->CreateCommandQueue(&queueDesc, ComPtr<ID3D12CommandQueue>::Iid(), state->queue.Receive())) ||
        FAILED(d->CreateCommandAllocator(D3D12_COMMAND_LIST_TYPE_COMPUTE,
                                         ComPtr<ID3D12CommandAllocator>::Iid(), state->allocator.Receive())) ||
        FAILED(d->CreateCommandList(0, D3D12_COMMAND_LIST_TYPE_COMPUTE, state->allocator.get(), nullptr,
                                    ComPtr<ID3D12GraphicsCommandList>::Iid(), state->list.Receive())) ||
        FAILED(d->CreateFence(0, D3D12_FENCE_FLAG_NONE, ComPtr<ID3D12Fence>::Iid(), state->fence.Receive()))) {
      return Status(StatusCode::Internal, "D3D12Engine: creating the queue, command list or fence failed");
    }
    state->list->Close();
    engine->reset(new D3D12Engine(std::move(state)));
    return Status::Ok();
  });
}

namespace {

Status Prepare(D3D12Engine::State& s, const plan::Plan& plan, const GpuTensor* tensors,
               bool checked, bool inPlace, D3D12Recording::State* run) {
  const std::string name = OperatorTypeName(plan.op);
  ID3D12Device* device = s.device.get();
  run->plan = plan;
  run->checked = checked;
  plan::GpuOptions options;
  options.checked = checked;
  options.inPlace = inPlace;
  options.viewElementLimit = s.viewElementLimit;
  const std::string unsupported = plan::ScheduleGpuPasses(plan, options, &run->schedule);
  if (!unsupported.empty()) return Status(StatusCode::Unsupported, name + ": D3D12: " + unsupported);
  const plan::GpuSchedule& schedule = run->schedule;
  const uint32_t es = plan.elementSize;
  for (uint32_t i = 0; i < schedule.passCount; ++i) {
    std::string error;
    run->pipelines[i] = s.pipelines.Get(schedule.passes[i].kernel, es, schedule.windowed, &error);
    if (run->pipelines[i] == nullptr) return Status(StatusCode::Internal, name + ": D3D12: " + error);
  }

  const D3D12_RESOURCE_FLAGS uav = D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS;
  run->statusInitOffset = kConstantBlockStride * schedule.passCount;
  run->constants = CreateBuffer(device, D3D12_HEAP_TYPE_UPLOAD, run->statusInitOffset + kStatusBytes,
                                D3D12_RESOURCE_STATE_GENERIC_READ);
  run->status = CreateBuffer(device, D3D12_HEAP_TYPE_DEFAULT, kStatusBytes, D3D12_RESOURCE_STATE_COPY_DEST, uav);
  run->statusReadback = CreateBuffer(device, D3D12_HEAP_TYPE_READBACK, kStatusBytes, D3D12_RESOURCE_STATE_COPY_DEST);
  bool made = run->constants && run->status && run->statusReadback;
  if (plan.isScatter) {
    const uint64_t perUpdate = schedule.listNextElements * 4;
    run->heads = CreateBuffer(device, D3D12_HEAP_TYPE_DEFAULT, schedule.listHeadElements * 4,
                              D3D12_RESOURCE_STATE_UNORDERED_ACCESS, uav);
    run->links = CreateBuffer(device, D3D12_HEAP_TYPE_DEFAULT, perUpdate, D3D12_RESOURCE_STATE_UNORDERED_ACCESS, uav);
    run->order = CreateBuffer(device, D3D12_HEAP_TYPE_DEFAULT, perUpdate, D3D12_RESOURCE_STATE_UNORDERED_ACCESS, uav);
    run->sources = CreateBuffer(device, D3D12_HEAP_TYPE_DEFAULT, perUpdate, D3D12_RESOURCE_STATE_UNORDERED_ACCESS, uav);
    made = made && run->heads && run->links && run->order && run->sources;
  }
  if (!made) return Status(StatusCode::OutOfMemory, name + ": D3D12: creating a buffer failed");

  uint8_t* mapped = nullptr;
  if (FAILED(run->constants->Map(0, nullptr, reinterpret_cast<void**>(&mapped)))) {
    return Status(StatusCode::Internal, name + ": D3D12: mapping the constants failed");
  }
  for (uint32_t i = 0; i < schedule.passCount; ++i) {
    ConstantBlock block = {};
    block.kernel = plan.kernel;
    block.copy = plan.copy;
    block.validation = plan.validation;
    block.pass = schedule.passes[i].constants;
    std::memcpy(mapped + i * kConstantBlockStride, &block, sizeof block);
  }
  const uint32_t statusStart[4] = {GS_NO_BAD_INDEX, 0, 0, 0};
  std::memcpy(mapped + run->statusInitOffset, statusStart, sizeof statusStart);
  run->constants->Unmap(0, nullptr);

  // Descriptors: Input, Indices, Updates, Output windows, the status, the lists' windows.
  // Slots a plan does not use get a valid view of a buffer it has, in the declared format.
  D3D12_DESCRIPTOR_HEAP_DESC heapDesc = {};
  heapDesc.Type = D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV;
  heapDesc.NumDescriptors = d3d12::kDescriptorCount;
  heapDesc.Flags = D3D12_DESCRIPTOR_HEAP_FLAG_SHADER_VISIBLE;
  if (FAILED(device->CreateDescriptorHeap(&heapDesc, ComPtr<ID3D12DescriptorHeap>::Iid(), run->heap.Receive()))) {
    return Status(StatusCode::Internal, name + ": D3D12: CreateDescriptorHeap failed");
  }
  const UINT increment = device->GetDescriptorHandleIncrementSize(D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV);
  D3D12_CPU_DESCRIPTOR_HANDLE slot = run->heap->GetCPUDescriptorHandleForHeapStart();
  auto next = [&]() {
    D3D12_CPU_DESCRIPTOR_HANDLE current = slot;
    slot.ptr += increment;
    return current;
  };
  const DXGI_FORMAT element = ElementFormat(es);
  const GpuTensor& input = tensors[static_cast<int>(plan::TensorRole::Input)];
  const GpuTensor& indices = tensors[static_cast<int>(plan::TensorRole::Indices)];
  const GpuTensor& updates = tensors[static_cast<int>(plan::TensorRole::Updates)];
  const GpuTensor& output = tensors[static_cast<int>(plan::TensorRole::Output)];
  // In place, Input is the output (a UAV): t0 then shows Updates, which no pass reads there.
  const GpuTensor& inputSlot = inPlace ? updates : input;
  const GpuTensor& updatesSlot = updates.resource != nullptr ? updates : input;
  const GpuTensor status{run->status.get(), 0, kStatusBytes};
  auto list = [&](const ComPtr<ID3D12Resource>& buffer, uint64_t elements) {
    return buffer ? GpuTensor{buffer.get(), 0, elements * 4} : status;
  };
  const uint64_t window = s.viewElementLimit;
  const DXGI_FORMAT word = DXGI_FORMAT_R32_UINT;
  const uint32_t tensorWindows = plan::kGpuTensorWindows, listWindows = plan::kGpuListWindows;
  WriteWindows(device, inputSlot, element, es, false, window, tensorWindows, next);
  WriteWindows(device, indices, word, 4, false, window, tensorWindows, next);
  WriteWindows(device, updatesSlot, element, es, false, window, tensorWindows, next);
  WriteWindows(device, output, element, es, true, window, tensorWindows, next);
  WriteView(device, status, word, 4, true, 0, kStatusBytes / 4, next());
  WriteWindows(device, list(run->heads, schedule.listHeadElements), word, 4, true, window, listWindows, next);
  WriteWindows(device, list(run->links, schedule.listNextElements), word, 4, true, window, listWindows, next);
  WriteWindows(device, list(run->order, schedule.listNextElements), word, 4, true, window, listWindows, next);
  WriteWindows(device, list(run->sources, schedule.listNextElements), word, 4, true, window, listWindows, next);
  return Status::Ok();
}

void RecordPasses(ID3D12GraphicsCommandList* list, ID3D12RootSignature* rootSignature,
                  const D3D12Recording::State& run) {
  list->CopyBufferRegion(run.status.get(), 0, run.constants.get(), run.statusInitOffset, kStatusBytes);
  const D3D12_RESOURCE_BARRIER toUav = Transition(run.status.get(), D3D12_RESOURCE_STATE_COPY_DEST,
                                                  D3D12_RESOURCE_STATE_UNORDERED_ACCESS);
  list->ResourceBarrier(1, &toUav);
  ID3D12DescriptorHeap* heaps[] = {run.heap.get()};
  list->SetDescriptorHeaps(1, heaps);
  list->SetComputeRootSignature(rootSignature);
  list->SetComputeRootDescriptorTable(d3d12::kRootTable, run.heap->GetGPUDescriptorHandleForHeapStart());
  const D3D12_RESOURCE_BARRIER uavBarrier = UavBarrier();
  for (uint32_t i = 0; i < run.schedule.passCount; ++i) {
    const plan::GpuPass& pass = run.schedule.passes[i];
    list->SetPipelineState(run.pipelines[i]);
    list->SetComputeRootConstantBufferView(d3d12::kRootConstants,
                                           run.constants->GetGPUVirtualAddress() + i * kConstantBlockStride);
    list->Dispatch(pass.groupsX, pass.groupsY, 1);
    list->ResourceBarrier(1, &uavBarrier);
  }
  const D3D12_RESOURCE_BARRIER toCopy = Transition(run.status.get(), D3D12_RESOURCE_STATE_UNORDERED_ACCESS,
                                                   D3D12_RESOURCE_STATE_COPY_SOURCE);
  list->ResourceBarrier(1, &toCopy);
  list->CopyBufferRegion(run.statusReadback.get(), 0, run.status.get(), 0, kStatusBytes);
}

// The caller's D3D12 buffers as the plan's bound tensors; the rules are the CPU engine's.
Status CheckGpuBindings(const plan::Plan& plan, const D3D12Bindings& b, GpuTensor* tensors, bool* inPlace) {
  const D3D12Buffer* all[] = {&b.InputTensor, &b.IndicesTensor, &b.UpdatesTensor, &b.OutputTensor};
  plan::BoundTensor bound[plan::kTensorRoleCount];
  for (uint32_t r = 0; r < plan::kTensorRoleCount; ++r) bound[r] = {all[r]->Resource, all[r]->Offset, all[r]->SizeInBytes};
  Status status = plan::CheckBoundTensors(plan, plan::BindingSpace::D3D12Resources, bound, inPlace);
  if (!status.ok()) return status;
  for (uint32_t r = 0; r < plan::kTensorRoleCount; ++r) {
    if (plan.tensors[r].present) tensors[r] = {all[r]->Resource, all[r]->Offset, plan.tensors[r].totalSizeInBytes};
  }
  return Status::Ok();
}

Status RecordIn(D3D12Engine::State& engine, const CompiledOperator& op, ID3D12GraphicsCommandList* list,
                const D3D12Bindings& buffers, IndexChecking checking,
                std::unique_ptr<D3D12Recording>* recording) {
  if (!op.valid() || list == nullptr) {
    return Status(StatusCode::InvalidArgument,
                  "D3D12Engine::Record: needs a compiled operator (CompileOperator succeeded) and a command list");
  }
  const plan::Plan& plan = *op.plan();
  Status status = plan::CheckIndexChecking(plan, checking, "IndexChecking");
  if (!status.ok()) return status;
  status = CheckDeviceNotRemoved(engine.device.get(), std::string(OperatorTypeName(plan.op)) + ": D3D12Engine::Record");
  if (!status.ok()) return status;
  GpuTensor tensors[plan::kTensorRoleCount];
  bool inPlace = false;
  status = CheckGpuBindings(plan, buffers, tensors, &inPlace);
  if (!status.ok()) return status;
  auto run = std::make_unique<D3D12Recording::State>();
  status = Prepare(engine, plan, tensors, checking == IndexChecking::Checked, inPlace, run.get());
  if (!status.ok()) return status;
  // Everything is allocated before the caller's list gets a command: nothing can fail after.
  const D3D12Recording::State& passes = *run;
  auto made = std::make_unique<D3D12Recording>(std::move(run));
  RecordPasses(list, engine.pipelines.rootSignature(), passes);
  *recording = std::move(made);
  return Status::Ok();
}

Status ExecuteOnHostIn(D3D12Engine::State& engine, const CompiledOperator& op, const TensorBindings& bindings,
                       IndexChecking checking) {
  if (!op.valid()) {
    return Status(StatusCode::InvalidArgument,
                  "D3D12Engine::ExecuteOnHost: the CompiledOperator is empty (CompileOperator did not succeed)");
  }
  const plan::Plan& plan = *op.plan();
  const std::string name = OperatorTypeName(plan.op);
  Status status = plan::CheckIndexChecking(plan, checking, "IndexChecking");
  if (!status.ok()) return status;
  plan::HostBuffers bound;
  status = plan::CheckHostBindings(plan, bindings, &bound);
  if (!status.ok()) return status;
  auto fail = [&](const std::string& what) { return Status(StatusCode::Internal, name + ": D3D12: " + what); };
  // Made before anything is submitted: from then on nothing may throw until the GPU is done.
  const std::string who = name + ": D3D12Engine::ExecuteOnHost";
  status = CheckDeviceNotRemoved(engine.device.get(), who);
  if (!status.ok()) return status;

  // Host bytes to upload: the inputs, and the output's current bytes (a strided output keeps
  // the bytes between its elements; in place they are also the input).
  D3D12Engine::State& s = engine;
  ID3D12Device* device = s.device.get();
  const uint8_t* hostData[plan::kTensorRoleCount] = {bound.inPlace ? nullptr : bound.input, bound.indices,
                                                      bound.updates, bound.output};
  uint64_t uploadOffsets[plan::kTensorRoleCount] = {};
  uint64_t uploadBytes = 0;
  GpuTensor tensors[plan::kTensorRoleCount];
  ComPtr<ID3D12Resource> buffers[plan::kTensorRoleCount];
  for (uint32_t r = 0; r < plan::kTensorRoleCount; ++r) {
    const plan::TensorView& view = plan.tensors[r];
    if (!view.present || hostData[r] == nullptr) continue;
    uploadOffsets[r] = uploadBytes;
    uploadBytes = AlignUp(uploadBytes + view.totalSizeInBytes, kPlacementAlignment);
    const bool output = r == static_cast<uint32_t>(plan::TensorRole::Output);
    buffers[r] = CreateBuffer(device, D3D12_HEAP_TYPE_DEFAULT, AlignUp(view.totalSizeInBytes, 4),
                              D3D12_RESOURCE_STATE_COPY_DEST,
                              output ? D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS : D3D12_RESOURCE_FLAG_NONE);
    if (!buffers[r]) return Status(StatusCode::OutOfMemory, name + ": D3D12: creating a buffer failed");
    tensors[r] = {buffers[r].get(), 0, view.totalSizeInBytes};
  }
  const plan::TensorView& outputView = plan.tensor(plan::TensorRole::Output);
  ComPtr<ID3D12Resource> upload = CreateBuffer(device, D3D12_HEAP_TYPE_UPLOAD, uploadBytes, D3D12_RESOURCE_STATE_GENERIC_READ);
  ComPtr<ID3D12Resource> readback = CreateBuffer(device, D3D12_HEAP_TYPE_READBACK, AlignUp(outputView.totalSizeInBytes, 4),
                                                 D3D12_RESOURCE_STATE_COPY_DEST);
  if (!upload || !readback) return Status(StatusCode::OutOfMemory, name + ": D3D12: creating a buffer failed");
  uint8_t* mapped = nullptr;
  if (FAILED(upload->Map(0, nullptr, reinterpret_cast<void**>(&mapped)))) return fail("mapping the upload buffer failed");
  for (uint32_t r = 0; r < plan::kTensorRoleCount; ++r) {
    if (buffers[r]) std::memcpy(mapped + uploadOffsets[r], hostData[r], plan.tensors[r].totalSizeInBytes);
  }
  upload->Unmap(0, nullptr);

  D3D12Recording::State run;
  status = Prepare(s, plan, tensors, checking == IndexChecking::Checked, bound.inPlace, &run);
  if (!status.ok()) return status;

  std::lock_guard<std::mutex> lock(s.queueMutex);
  if (!s.removed.ok()) return s.removed;
  ID3D12GraphicsCommandList* list = s.list.get();
  if (FAILED(s.allocator->Reset()) || FAILED(list->Reset(s.allocator.get(), nullptr))) {
    return fail("resetting the command list failed");
  }
  // From Reset to Close nothing allocates: an exception there would leave the engine's list
  // recording, and every later call would fail.
  const uint32_t outputRole = static_cast<uint32_t>(plan::TensorRole::Output);
  D3D12_RESOURCE_BARRIER barriers[plan::kTensorRoleCount];
  UINT barrierCount = 0;
  for (uint32_t r = 0; r < plan::kTensorRoleCount; ++r) {
    if (!buffers[r]) continue;
    list->CopyBufferRegion(buffers[r].get(), 0, upload.get(), uploadOffsets[r], plan.tensors[r].totalSizeInBytes);
    barriers[barrierCount++] = Transition(buffers[r].get(), D3D12_RESOURCE_STATE_COPY_DEST,
                                          r == outputRole ? D3D12_RESOURCE_STATE_UNORDERED_ACCESS
                                                          : D3D12_RESOURCE_STATE_NON_PIXEL_SHADER_RESOURCE);
  }
  list->ResourceBarrier(barrierCount, barriers);
  RecordPasses(list, s.pipelines.rootSignature(), run);
  const D3D12_RESOURCE_BARRIER toCopy = Transition(buffers[outputRole].get(), D3D12_RESOURCE_STATE_UNORDERED_ACCESS,
                                                   D3D12_RESOURCE_STATE_COPY_SOURCE);
  list->ResourceBarrier(1, &toCopy);
  list->CopyBufferRegion(readback.get(), 0, buffers[outputRole].get(), 0, outputView.totalSizeInBytes);
  HRESULT hr = list->Close();
  if (FAILED(hr)) return fail("closing the command list failed (" + Hresult(hr) + ")");
  ID3D12CommandList* lists[] = {list};
  s.queue->ExecuteCommandLists(1, lists);
  hr = s.queue->Signal(s.fence.get(), ++s.fenceValue);
  status = SUCCEEDED(hr) ? WaitForFence(device, s.fence.get(), s.fenceValue, who)
                         : fail("signalling the fence failed (" + Hresult(hr) + ")");
  if (!status.ok()) {
    struct InFlight {
      ComPtr<ID3D12Resource> buffers[plan::kTensorRoleCount], upload, readback;
      D3D12Recording::State run;
    };
    auto kept = std::make_shared<InFlight>();
    for (uint32_t r = 0; r < plan::kTensorRoleCount; ++r) kept->buffers[r] = std::move(buffers[r]);
    kept->upload = std::move(upload);
    kept->readback = std::move(readback);
    kept->run = std::move(run);
    s.abandoned.push_back(std::move(kept));
    s.removed = status;
    return status;
  }

  status = D3D12Recording(std::make_unique<D3D12Recording::State>(std::move(run))).Result();
  if (!status.ok()) return status;  // checked mode: the host output stays untouched
  uint8_t* results = nullptr;
  if (FAILED(readback->Map(0, nullptr, reinterpret_cast<void**>(&results)))) return fail("mapping the readback buffer failed");
  std::memcpy(bound.output, results, outputView.totalSizeInBytes);
  readback->Unmap(0, nullptr);
  return Status::Ok();
}

}  // namespace

Status D3D12Engine::Record(const CompiledOperator& op, ID3D12GraphicsCommandList* list,
                           const D3D12Bindings& buffers, IndexChecking checking,
                           std::unique_ptr<D3D12Recording>* recording) {
  return OutOfMemoryAsStatus("D3D12Engine::Record",
                             [&] { return RecordIn(*state_, op, list, buffers, checking, recording); });
}

Status D3D12Engine::ExecuteOnHost(const CompiledOperator& op, const TensorBindings& bindings,
                                  IndexChecking checking) {
  return OutOfMemoryAsStatus("D3D12Engine::ExecuteOnHost",
                             [&] { return ExecuteOnHostIn(*state_, op, bindings, checking); });
}

}  // namespace gs
