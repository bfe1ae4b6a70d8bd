// D3D12Engine's life: the device, the pipelines, the queue, list and fence its synchronous
// calls share, and what a removed device means for every call (engine_state.h lists the rest).
#include <chrono>
#include <cstdio>
#include <memory>
#include <string>
#include <thread>

#include "d3d12/engine_state.h"
#include "d3d12/platform.h"

namespace gs {
namespace d3d12 {

std::string Hresult(HRESULT hr) {
  char text[16];
  std::snprintf(text, sizeof text, "0x%08x", static_cast<unsigned>(hr));
  return text;
}

Status CheckDeviceNotRemoved(ID3D12Device* device, const std::string& who) {
  const HRESULT reason = device->GetDeviceRemovedReason();
  if (reason == S_OK) return Status::Ok();
  return Status(StatusCode::DeviceRemoved,
                who + ": the D3D12 device was removed (GetDeviceRemovedReason " + Hresult(reason) +
                    "); nothing was written: recreate the engine on a new device or use ExecuteOnCpu");
}

Status WaitForFence(ID3D12Device* device, ID3D12Fence* fence, uint64_t value, const std::string& who) {
  while (fence->GetCompletedValue() < value) {
    Status removed = CheckDeviceNotRemoved(device, who);
    if (!removed.ok()) return removed;
    std::this_thread::yield();
  }
  // A removed device reports every fence value as complete.
  return CheckDeviceNotRemoved(device, who);
}

}  // namespace d3d12

using d3d12::ComPtr;

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

ID3D12Device* D3D12Engine::device() const { return state_->device.get(); }

Status D3D12Engine::SetViewElementLimit(uint64_t elements) {
  return d3d12::OutOfMemoryAsStatus("D3D12Engine::SetViewElementLimit", [&]() -> Status {
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
  return d3d12::OutOfMemoryAsStatus("D3D12Engine::Create", [&]() -> Status {
    auto state = std::make_unique<State>();
    if (device != nullptr) {
      state->device = ComPtr<ID3D12Device>::Share(device);
    } else {
      std::string error;
      state->device = d3d12::CreateDefaultDevice(&error);
      if (!state->device) return Status(StatusCode::Unsupported, "D3D12Engine: " + error);
    }
    ID3D12Device* d = state->device.get();
    state->features = d3d12::QueryDeviceFeatures(d);
    const std::string missing = d3d12::MissingEngineFeature(state->features);
    if (!missing.empty()) return Status(StatusCode::Unsupported, "D3D12Engine: " + missing);
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
    std::unique_ptr<D3D12Engine> made(new D3D12Engine(std::move(state)));
    Status works = d3d12::CheckKnownGather(*made);
    if (!works.ok()) return works;
    *engine = std::move(made);
    return Status::Ok();
  });
}

}  // namespace gs
