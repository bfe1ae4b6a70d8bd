#include "d3d12_timing.h"

#include <cstring>
#include <thread>
#include <vector>

#include "d3d12/d3d12_api.h"
#include "d3d12/resources.h"
#include "gs/d3d12.h"

namespace gs_bench {

using gs::d3d12::ComPtr;
using gs::d3d12::CreateBuffer;
using gs::d3d12::Transition;

struct D3D12Timing::State {
  std::unique_ptr<gs::D3D12Engine> engine;
  ComPtr<ID3D12CommandQueue> queue;
  ComPtr<ID3D12CommandAllocator> allocator;
  ComPtr<ID3D12GraphicsCommandList> list;
  ComPtr<ID3D12Fence> fence;
  uint64_t fenceValue = 0;
  ComPtr<ID3D12QueryHeap> timestamps;  // two: before and after
  ComPtr<ID3D12Resource> timestampReadback;
  uint64_t frequency = 0;
  ComPtr<ID3D12Resource> tensors[4];  // Input, Indices, Updates, Output (empty when absent or in place)
  gs::D3D12Bindings bindings;
  ComPtr<ID3D12Resource> copySource, copyDestination;
  uint64_t copyBytes = 0;
};

namespace {

std::string Begin(D3D12Timing::State& s) {
  if (FAILED(s.allocator->Reset()) || FAILED(s.list->Reset(s.allocator.get(), nullptr))) {
    return "d3d12: resetting the command list failed";
  }
  return "";
}

// Closes, runs and waits for the list.
std::string Submit(D3D12Timing::State& s) {
  if (FAILED(s.list->Close())) return "d3d12: closing the command list failed";
  ID3D12CommandList* lists[] = {s.list.get()};
  s.queue->ExecuteCommandLists(1, lists);
  if (FAILED(s.queue->Signal(s.fence.get(), ++s.fenceValue))) return "d3d12: signalling the fence failed";
  while (s.fence->GetCompletedValue() < s.fenceValue) std::this_thread::yield();
  return "";
}

// Seconds between the two timestamps the list recorded (after Submit).
double Elapsed(D3D12Timing::State& s) {
  uint64_t ticks[2] = {};
  void* mapped = nullptr;
  if (FAILED(s.timestampReadback->Map(0, nullptr, &mapped))) return 0;
  std::memcpy(ticks, mapped, sizeof ticks);
  s.timestampReadback->Unmap(0, nullptr);
  return static_cast<double>(ticks[1] - ticks[0]) / static_cast<double>(s.frequency);
}

void Stamp(D3D12Timing::State& s, UINT which) {
  s.list->EndQuery(s.timestamps.get(), D3D12_QUERY_TYPE_TIMESTAMP, which);
  if (which == 1) {
    s.list->ResolveQueryData(s.timestamps.get(), D3D12_QUERY_TYPE_TIMESTAMP, 0, 2, s.timestampReadback.get(), 0);
  }
}

}  // namespace

D3D12Timing::D3D12Timing(std::unique_ptr<State> state) : state_(std::move(state)) {}
D3D12Timing::~D3D12Timing() = default;

D3D12Timing* D3D12Timing::Get(std::string* why) {
  static std::string reason;
  static std::unique_ptr<D3D12Timing> timing = []() -> std::unique_ptr<D3D12Timing> {
    auto s = std::make_unique<State>();
    const gs::Status status = gs::D3D12Engine::Create(nullptr, &s->engine);
    if (!status.ok()) {
      reason = status.message();
      return nullptr;
    }
    ID3D12Device* device = s->engine->device();
    D3D12_COMMAND_QUEUE_DESC queueDesc = {};
    queueDesc.Type = D3D12_COMMAND_LIST_TYPE_COMPUTE;
    D3D12_QUERY_HEAP_DESC queryDesc = {};
    queryDesc.Type = D3D12_QUERY_HEAP_TYPE_TIMESTAMP;
    queryDesc.Count = 2;
    if (FAILED(device->CreateCommandQueue(&queueDesc, ComPtr<ID3D12CommandQueue>::Iid(), s->queue.Receive())) ||
        FAILED(device->CreateCommandAllocator(D3D12_COMMAND_LIST_TYPE_COMPUTE, ComPtr<ID3D12CommandAllocator>::Iid(),
                                              s->allocator.Receive())) ||
        FAILED(device->CreateCommandList(0, D3D12_COMMAND_LIST_TYPE_COMPUTE, s->allocator.get(), nullptr,
                                         ComPtr<ID3D12GraphicsCommandList>::Iid(), s->list.Receive())) ||
        FAILED(device->CreateFence(0, D3D12_FENCE_FLAG_NONE, ComPtr<ID3D12Fence>::Iid(), s->fence.Receive())) ||
        FAILED(device->CreateQueryHeap(&queryDesc, ComPtr<ID3D12QueryHeap>::Iid(), s->timestamps.Receive())) ||
        FAILED(s->queue->GetTimestampFrequency(&s->frequency)) || s->frequency == 0) {
      reason = "d3d12: creating the queue, list, fence or timestamp queries failed";
      return nullptr;
    }
    s->list->Close();
    s->timestampReadback = CreateBuffer(device, D3D12_HEAP_TYPE_READBACK, 16, D3D12_RESOURCE_STATE_COPY_DEST,
                                        D3D12_RESOURCE_FLAG_NONE);
    if (!s->timestampReadback) {
      reason = "d3d12: creating the timestamp readback failed";
      return nullptr;
    }
    return std::make_unique<D3D12Timing>(std::move(s));
  }();
  *why = reason;
  return timing.get();
}

std::string D3D12Timing::Upload(const gs::TensorBindings& host) {
  State& s = *state_;
  for (auto& t : s.tensors) t = {};
  s.bindings = {};
  ID3D12Device* device = s.engine->device();
  const bool inPlace = host.OutputTensor.Data != nullptr && host.OutputTensor.Data == host.InputTensor.Data;
  const void* data[4] = {host.InputTensor.Data, host.IndicesTensor.Data, host.UpdatesTensor.Data,
                         inPlace ? nullptr : host.OutputTensor.Data};
  const uint64_t bytes[4] = {host.InputTensor.SizeInBytes, host.IndicesTensor.SizeInBytes,
                             host.UpdatesTensor.SizeInBytes, host.OutputTensor.SizeInBytes};
  uint64_t offsets[4] = {}, total = 0;
  for (int r = 0; r < 4; ++r) {
    offsets[r] = total;
    if (data[r] != nullptr) total += (bytes[r] + 255) / 256 * 256;
  }
  ComPtr<ID3D12Resource> upload = CreateBuffer(device, D3D12_HEAP_TYPE_UPLOAD, total, D3D12_RESOURCE_STATE_GENERIC_READ,
                                               D3D12_RESOURCE_FLAG_NONE);
  void* mapped = nullptr;
  if (!upload || FAILED(upload->Map(0, nullptr, &mapped))) return "d3d12: creating the upload buffer failed";
  for (int r = 0; r < 4; ++r) {
    if (data[r] != nullptr) std::memcpy(static_cast<uint8_t*>(mapped) + offsets[r], data[r], bytes[r]);
  }
  upload->Unmap(0, nullptr);
  std::string error = Begin(s);
  if (!error.empty()) return error;
  D3D12_RESOURCE_BARRIER barriers[4];
  UINT count = 0;
  for (int r = 0; r < 4; ++r) {
    if (data[r] == nullptr) continue;
    const bool unordered = r == 3 || (r == 0 && inPlace);
    s.tensors[r] = CreateBuffer(device, D3D12_HEAP_TYPE_DEFAULT, (bytes[r] + 3) / 4 * 4, D3D12_RESOURCE_STATE_COPY_DEST,
                                unordered ? D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS : D3D12_RESOURCE_FLAG_NONE);
    if (!s.tensors[r]) return "d3d12: creating a tensor buffer failed";
    s.list->CopyBufferRegion(s.tensors[r].get(), 0, upload.get(), offsets[r], bytes[r]);
    barriers[count++] = Transition(s.tensors[r].get(), D3D12_RESOURCE_STATE_COPY_DEST,
                                   unordered ? D3D12_RESOURCE_STATE_UNORDERED_ACCESS
                                             : D3D12_RESOURCE_STATE_NON_PIXEL_SHADER_RESOURCE);
  }
  s.list->ResourceBarrier(count, barriers);
  error = Submit(s);
  if (!error.empty()) return error;
  s.bindings.InputTensor = {s.tensors[0].get(), 0, bytes[0]};
  s.bindings.IndicesTensor = {s.tensors[1].get(), 0, bytes[1]};
  s.bindings.UpdatesTensor = {s.tensors[2].get(), 0, bytes[2]};
  s.bindings.OutputTensor = {inPlace ? s.tensors[0].get() : s.tensors[3].get(), 0, bytes[3]};
  return "";
}

std::string D3D12Timing::TimeOperator(const gs::CompiledOperator& op, bool checked, double* seconds) {
  State& s = *state_;
  std::string error = Begin(s);
  if (!error.empty()) return error;
  Stamp(s, 0);
  std::unique_ptr<gs::D3D12Recording> recording;
  const gs::Status recorded = s.engine->Record(
      op, s.list.get(), s.bindings, checked ? gs::IndexChecking::Checked : gs::IndexChecking::Unchecked, &recording);
  if (!recorded.ok()) {
    s.list->Close();
    return recorded.message();
  }
  Stamp(s, 1);
  error = Submit(s);
  if (!error.empty()) return error;
  const gs::Status result = recording->Result();
  if (!result.ok()) return result.message();
  *seconds = Elapsed(s);
  return "";
}

std::string D3D12Timing::TimeCopy(uint64_t bytes, double* seconds) {
  State& s = *state_;
  if (s.copyBytes != bytes) {
    ID3D12Device* device = s.engine->device();
    s.copySource = CreateBuffer(device, D3D12_HEAP_TYPE_DEFAULT, bytes, D3D12_RESOURCE_STATE_COPY_SOURCE,
                                D3D12_RESOURCE_FLAG_NONE);
    s.copyDestination = CreateBuffer(device, D3D12_HEAP_TYPE_DEFAULT, bytes, D3D12_RESOURCE_STATE_COPY_DEST,
                                     D3D12_RESOURCE_FLAG_NONE);
    if (!s.copySource || !s.copyDestination) return "d3d12: creating the copy buffers failed";
    s.copyBytes = bytes;
  }
  std::string error = Begin(s);
  if (!error.empty()) return error;
  Stamp(s, 0);
  s.list->CopyBufferRegion(s.copyDestination.get(), 0, s.copySource.get(), 0, bytes);
  Stamp(s, 1);
  error = Submit(s);
  if (!error.empty()) return error;
  *seconds = Elapsed(s);
  return "";
}

}  // namespace gs_bench
