// D3D12Engine's life: the device, the pipelines, the queue, list and fence its synchronous
// calls share, and what a removed device means for every call (engine_state.h lists the rest).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
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

Status CheckNotReleasedAtExit(const D3D12Engine::State& engine, const char* who) {
  if (!engine.releasedAtExit.load()) return Status::Ok();
  return Status(StatusCode::Unsupported,
                std::string(who) + ": the process is exiting and the engine released its D3D12 device when "
                "exit began (include/gs/d3d12.h, the engine's life); use ExecuteOnCpu");
}

namespace {

// Waits (at most 5 s) for the work submitted on the engine's queue: a removed device reports
// every fence value complete, so the wait is bounded either way.
void WaitForQueue(const D3D12Engine::State& s) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while (s.fence->GetCompletedValue() < s.fenceValue && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::yield();
  }
}

// The live engines, for the exit hook. Never destroyed: an engine in a static may be destroyed
// after every other static of the library.
struct LiveEngines {
  std::mutex mutex;
  std::vector<D3D12Engine::State*> engines;
};
LiveEngines& Live() {
  static LiveEngines* live = new LiveEngines;
  return *live;
}

// A driver's own exit handlers (C++ statics of the ICD, registered when the loader opened it
// during the device's creation) run before the destructor of a static registered earlier, such
// as a caller's global std::unique_ptr<D3D12Engine>: that destructor then released objects of
// a driver already torn down, and segfaulted on NVIDIA's. This hook is registered after the
// device exists, so it runs before the driver's handlers: it waits for each live engine's queue
// and releases its device objects while the driver still works.
void ReleaseEnginesAtExit() {
  LiveEngines& live = Live();
  std::lock_guard<std::mutex> lock(live.mutex);
  for (D3D12Engine::State* s : live.engines) {
    std::lock_guard<std::mutex> queue(s->queueMutex);
    if (s->fence) WaitForQueue(*s);
    s->releasedAtExit = true;
    s->list = {};
    s->allocator = {};
    s->queue = {};
    s->fence = {};
    s->abandoned.clear();
    s->pipelines.Release();
    s->device = {};
  }
  live.engines.clear();
}

// Adds an engine whose device objects all exist. When it is the only live one, a driver may
// have been (re)loaded since the last hook was registered (all devices gone, the loader closes
// the ICD): the hook is registered again, after that driver's handlers.
void AddLiveEngine(D3D12Engine::State* s) {
  LiveEngines& live = Live();
  std::lock_guard<std::mutex> lock(live.mutex);
  if (live.engines.empty()) std::atexit(ReleaseEnginesAtExit);
  live.engines.push_back(s);
}

void RemoveLiveEngine(D3D12Engine::State* s) {
  LiveEngines& live = Live();
  std::lock_guard<std::mutex> lock(live.mutex);
  live.engines.erase(std::remove(live.engines.begin(), live.engines.end(), s), live.engines.end());
}

}  // namespace
}  // namespace d3d12

using d3d12::ComPtr;

D3D12Engine::D3D12Engine(std::unique_ptr<State> state) : state_(std::move(state)) {
  d3d12::AddLiveEngine(state_.get());
}
D3D12Engine::~D3D12Engine() {
  d3d12::RemoveLiveEngine(state_.get());
  if (state_->releasedAtExit) return;  // nothing left to release
  // Abandoned work may still run on a device that reported removal without stopping.
  if (!state_->abandoned.empty()) d3d12::WaitForQueue(*state_);
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
