#include "d3d12_timing.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <thread>
#include <utility>
#include <vector>

#include "d3d12/d3d12_api.h"
#include "d3d12/kernel_bytecode.h"
#include "d3d12/platform.h"
#include "d3d12/resources.h"
#include "gs/d3d12.h"
#include "plan/hlsl_shared/gpu_constants.h"

namespace gs_bench {

using gs::d3d12::ComPtr;
using gs::d3d12::CreateBuffer;
using gs::d3d12::Transition;
using State = D3D12Timing::State;

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
  // The copy kernel's: its root signature (4 root constants at b0, a table of t0 and u0), its
  // pipeline, and buffers of whole 16-byte words with their two views.
  ComPtr<ID3D12RootSignature> wideRoot;
  ComPtr<ID3D12PipelineState> widePipeline;
  ComPtr<ID3D12DescriptorHeap> wideHeap;
  ComPtr<ID3D12Resource> wideSource, wideDestination;
  uint64_t wideWords = 0;
  // What the closed list holds, rerun by Rerun: an operator's recording (its result read after
  // each run) or a copy (none).
  std::unique_ptr<gs::D3D12Recording> recording;
};

namespace {

// A new list: it no longer holds the recording it held.
std::string Begin(D3D12Timing::State& s) {
  s.recording.reset();
  if (FAILED(s.allocator->Reset()) || FAILED(s.list->Reset(s.allocator.get(), nullptr))) {
    return "d3d12: resetting the command list failed";
  }
  return "";
}

// Runs the closed list and waits for it.
std::string Execute(D3D12Timing::State& s) {
  ID3D12CommandList* lists[] = {s.list.get()};
  s.queue->ExecuteCommandLists(1, lists);
  if (FAILED(s.queue->Signal(s.fence.get(), ++s.fenceValue))) return "d3d12: signalling the fence failed";
  while (s.fence->GetCompletedValue() < s.fenceValue) std::this_thread::yield();
  return "";
}

// Closes the list (for Rerun, or Submit).
std::string Close(D3D12Timing::State& s) {
  return FAILED(s.list->Close()) ? "d3d12: closing the command list failed" : "";
}

// Closes, runs and waits for the list.
std::string Submit(D3D12Timing::State& s) {
  const std::string error = Close(s);
  return error.empty() ? Execute(s) : error;
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

constexpr uint32_t kWideWordBytes = 16;
constexpr uint32_t kThreadsPerGroup = GS_THREADS_PER_GROUP;  // copy_wide.hlsl's [numthreads]
constexpr uint32_t kMaxGroupsX = 32768;
static_assert(GS_ITEMS_PER_THREAD >= 4, "copy_wide.hlsl takes up to GS_ITEMS_PER_THREAD words a thread");

std::string CreateWidePipeline(State& s, ID3D12Device* device) {
  D3D12_DESCRIPTOR_RANGE ranges[2] = {};
  ranges[0].RangeType = D3D12_DESCRIPTOR_RANGE_TYPE_SRV;
  ranges[0].NumDescriptors = 1;
  ranges[1].RangeType = D3D12_DESCRIPTOR_RANGE_TYPE_UAV;
  ranges[1].NumDescriptors = 1;
  ranges[1].OffsetInDescriptorsFromTableStart = 1;
  D3D12_ROOT_PARAMETER parameters[2] = {};
  parameters[0].ParameterType = D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS;
  parameters[0].Constants.Num32BitValues = 4;
  parameters[0].ShaderVisibility = D3D12_SHADER_VISIBILITY_ALL;
  parameters[1].ParameterType = D3D12_ROOT_PARAMETER_TYPE_DESCRIPTOR_TABLE;
  parameters[1].DescriptorTable.NumDescriptorRanges = 2;
  parameters[1].DescriptorTable.pDescriptorRanges = ranges;
  parameters[1].ShaderVisibility = D3D12_SHADER_VISIBILITY_ALL;
  D3D12_ROOT_SIGNATURE_DESC desc = {};
  desc.NumParameters = 2;
  desc.pParameters = parameters;
  ComPtr<ID3DBlob> blob, errors;
  if (FAILED(gs::d3d12::SerializeRootSignature(desc, reinterpret_cast<ID3DBlob**>(blob.Receive()),
                                               reinterpret_cast<ID3DBlob**>(errors.Receive()))) ||
      FAILED(device->CreateRootSignature(0, blob->GetBufferPointer(), blob->GetBufferSize(),
                                         ComPtr<ID3D12RootSignature>::Iid(), s.wideRoot.Receive()))) {
    return "d3d12: the copy kernel's root signature failed";
  }
  const gs::d3d12::KernelBytecode& code = gs::d3d12::BytecodeFor(gs::plan::GpuKernel::CopyWide, 4, false);
  D3D12_COMPUTE_PIPELINE_STATE_DESC pipeline = {};
  pipeline.pRootSignature = s.wideRoot.get();
  pipeline.CS.pShaderBytecode = code.data;
  pipeline.CS.BytecodeLength = code.size;
  D3D12_DESCRIPTOR_HEAP_DESC heap = {};
  heap.Type = D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV;
  heap.NumDescriptors = 2;
  heap.Flags = D3D12_DESCRIPTOR_HEAP_FLAG_SHADER_VISIBLE;
  if (FAILED(device->CreateComputePipelineState(&pipeline, ComPtr<ID3D12PipelineState>::Iid(),
                                                s.widePipeline.Receive())) ||
      FAILED(device->CreateDescriptorHeap(&heap, ComPtr<ID3D12DescriptorHeap>::Iid(), s.wideHeap.Receive()))) {
    return "d3d12: the copy kernel's pipeline or descriptor heap failed";
  }
  return "";
}

// Buffers of `words` 16-byte words for the copy kernel (kept while the size stays), viewed as
// R32G32B32A32_UINT: the source a shader resource, the destination an unordered-access one.
std::string PrepareWideBuffers(State& s, uint64_t words) {
  if (s.wideWords == words) return "";
  ID3D12Device* device = s.engine->device();
  const uint64_t bytes = words * kWideWordBytes;
  s.wideSource = CreateBuffer(device, D3D12_HEAP_TYPE_DEFAULT, bytes, D3D12_RESOURCE_STATE_COPY_DEST);
  s.wideDestination = CreateBuffer(device, D3D12_HEAP_TYPE_DEFAULT, bytes, D3D12_RESOURCE_STATE_UNORDERED_ACCESS,
                                   D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS);
  if (!s.wideSource || !s.wideDestination) return "d3d12: creating the copy kernel's buffers failed";
  std::string error = Begin(s);
  if (!error.empty()) return error;
  const D3D12_RESOURCE_BARRIER toRead = Transition(s.wideSource.get(), D3D12_RESOURCE_STATE_COPY_DEST,
                                                   D3D12_RESOURCE_STATE_NON_PIXEL_SHADER_RESOURCE);
  s.list->ResourceBarrier(1, &toRead);
  error = Submit(s);
  if (!error.empty()) return error;
  D3D12_SHADER_RESOURCE_VIEW_DESC srv = {};
  srv.Format = DXGI_FORMAT_R32G32B32A32_UINT;
  srv.ViewDimension = D3D12_SRV_DIMENSION_BUFFER;
  srv.Shader4ComponentMapping = D3D12_DEFAULT_SHADER_4_COMPONENT_MAPPING;
  srv.Buffer.NumElements = static_cast<UINT>(words);
  D3D12_UNORDERED_ACCESS_VIEW_DESC uav = {};
  uav.Format = DXGI_FORMAT_R32G32B32A32_UINT;
  uav.ViewDimension = D3D12_UAV_DIMENSION_BUFFER;
  uav.Buffer.NumElements = static_cast<UINT>(words);
  D3D12_CPU_DESCRIPTOR_HANDLE at = s.wideHeap->GetCPUDescriptorHandleForHeapStart();
  device->CreateShaderResourceView(s.wideSource.get(), &srv, at);
  at.ptr += device->GetDescriptorHandleIncrementSize(D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV);
  device->CreateUnorderedAccessView(s.wideDestination.get(), nullptr, &uav, at);
  s.wideWords = words;
  return "";
}

// Records the copy kernel over every word of the wide buffers, wordsPerThread (1 to
// GS_ITEMS_PER_THREAD) a thread, from the source's first sourceWords words (kThreadsPerGroup to
// wideWords) over and over.
void RecordWideCopy(State& s, uint32_t wordsPerThread, uint64_t sourceWords) {
  const uint64_t wordsPerGroup = uint64_t{kThreadsPerGroup} * wordsPerThread;
  const uint64_t groups = (s.wideWords + wordsPerGroup - 1) / wordsPerGroup;
  const uint32_t groupsX = static_cast<uint32_t>(groups < kMaxGroupsX ? groups : kMaxGroupsX);
  const uint32_t groupsY = static_cast<uint32_t>((groups + groupsX - 1) / groupsX);
  const uint32_t constants[4] = {static_cast<uint32_t>(s.wideWords), groupsX * kThreadsPerGroup, wordsPerThread,
                                 static_cast<uint32_t>(sourceWords)};
  ID3D12DescriptorHeap* heaps[] = {s.wideHeap.get()};
  s.list->SetDescriptorHeaps(1, heaps);
  s.list->SetComputeRootSignature(s.wideRoot.get());
  s.list->SetPipelineState(s.widePipeline.get());
  s.list->SetComputeRoot32BitConstants(0, 4, constants, 0);
  s.list->SetComputeRootDescriptorTable(1, s.wideHeap->GetGPUDescriptorHandleForHeapStart());
  s.list->Dispatch(groupsX, groupsY, 1);
}

constexpr uint64_t kCheckWords = (1 << 16) + 3;

// The copy kernel copies every byte, at each count of words a thread, from a whole source and
// from a shorter one read over and over: a patterned source of 1 MiB and 48 bytes (a partial
// group) through it, read back and compared, before any figure rests on it.
std::string CheckWideCopy(State& s, uint32_t wordsPerThread, uint64_t sourceWords) {
  std::string error = PrepareWideBuffers(s, kCheckWords);
  if (!error.empty()) return error;
  ID3D12Device* device = s.engine->device();
  const uint64_t bytes = kCheckWords * kWideWordBytes;
  ComPtr<ID3D12Resource> upload = CreateBuffer(device, D3D12_HEAP_TYPE_UPLOAD, bytes, D3D12_RESOURCE_STATE_GENERIC_READ);
  ComPtr<ID3D12Resource> readback = CreateBuffer(device, D3D12_HEAP_TYPE_READBACK, bytes, D3D12_RESOURCE_STATE_COPY_DEST);
  void* mapped = nullptr;
  if (!upload || !readback || FAILED(upload->Map(0, nullptr, &mapped))) return "d3d12: the copy check's buffers failed";
  std::vector<uint32_t> pattern(bytes / 4);
  // A pattern of its own for each check: a destination left from the last one never passes.
  const uint32_t salt = 12345u * wordsPerThread + 7u * static_cast<uint32_t>(sourceWords);
  for (size_t i = 0; i < pattern.size(); ++i) pattern[i] = static_cast<uint32_t>(i * 2654435761u + salt);
  std::memcpy(mapped, pattern.data(), bytes);
  upload->Unmap(0, nullptr);
  if (!(error = Begin(s)).empty()) return error;
  D3D12_RESOURCE_BARRIER barrier = Transition(s.wideSource.get(), D3D12_RESOURCE_STATE_NON_PIXEL_SHADER_RESOURCE,
                                              D3D12_RESOURCE_STATE_COPY_DEST);
  s.list->ResourceBarrier(1, &barrier);
  s.list->CopyBufferRegion(s.wideSource.get(), 0, upload.get(), 0, bytes);
  std::swap(barrier.Transition.StateBefore, barrier.Transition.StateAfter);
  s.list->ResourceBarrier(1, &barrier);
  RecordWideCopy(s, wordsPerThread, sourceWords);
  barrier = Transition(s.wideDestination.get(), D3D12_RESOURCE_STATE_UNORDERED_ACCESS, D3D12_RESOURCE_STATE_COPY_SOURCE);
  s.list->ResourceBarrier(1, &barrier);
  s.list->CopyBufferRegion(readback.get(), 0, s.wideDestination.get(), 0, bytes);
  std::swap(barrier.Transition.StateBefore, barrier.Transition.StateAfter);
  s.list->ResourceBarrier(1, &barrier);
  if (!(error = Submit(s)).empty()) return error;
  if (FAILED(readback->Map(0, nullptr, &mapped))) return "d3d12: mapping the copy check's readback failed";
  bool same = true;
  const auto* copied = static_cast<const uint8_t*>(mapped);
  for (uint64_t at = 0; at < kCheckWords && same; at += sourceWords) {
    const uint64_t words = std::min(sourceWords, kCheckWords - at);
    same = std::memcmp(copied + at * kWideWordBytes, pattern.data(), words * kWideWordBytes) == 0;
  }
  readback->Unmap(0, nullptr);
  return same ? "" : "d3d12: the copy kernel (gpu/hlsl/copy_wide.hlsl) did not copy its source's bytes at " +
                         std::to_string(wordsPerThread) + " words a thread from a source of " +
                         std::to_string(sourceWords) + " words";
}

// A source for CheckWideCopy that wraps mid-group, many times over.
constexpr uint64_t kCheckedCyclicSourceWords = 1000 + 5;
static_assert(kCheckedCyclicSourceWords >= kThreadsPerGroup, "copy_wide.hlsl wraps its source once a step");

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
    reason = CreateWidePipeline(*s, device);
    for (uint32_t words : D3D12Timing::kCopyWordsPerThread) {
      if (reason.empty()) reason = CheckWideCopy(*s, words, kCheckWords);
      if (reason.empty()) reason = CheckWideCopy(*s, words, kCheckedCyclicSourceWords);
    }
    if (!reason.empty()) return nullptr;
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

std::string D3D12Timing::RecordOperator(const gs::CompiledOperator& op, bool checked, double* record_seconds) {
  State& s = *state_;
  std::string error = Begin(s);
  if (!error.empty()) return error;
  Stamp(s, 0);
  const auto t0 = std::chrono::steady_clock::now();
  const gs::Status recorded = s.engine->Record(
      op, s.list.get(), s.bindings, checked ? gs::IndexChecking::Checked : gs::IndexChecking::Unchecked, &s.recording);
  *record_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (!recorded.ok()) {
    s.list->Close();
    return recorded.message();
  }
  Stamp(s, 1);
  return Close(s);
}

bool D3D12Timing::CopiesFromCachedSource(uint64_t bytes, uint64_t sourceBytes) {
  const uint64_t sourceWords = sourceBytes / kWideWordBytes;
  return sourceWords >= kThreadsPerGroup && sourceWords < (bytes + kWideWordBytes - 1) / kWideWordBytes;
}

std::string D3D12Timing::RecordCopyKernel(uint64_t bytes, uint32_t wordsPerThread, uint64_t sourceBytes) {
  State& s = *state_;
  std::string error = PrepareWideBuffers(s, (bytes + kWideWordBytes - 1) / kWideWordBytes);
  if (!error.empty()) return error;
  if (!(error = Begin(s)).empty()) return error;
  Stamp(s, 0);
  RecordWideCopy(s, wordsPerThread,
                 CopiesFromCachedSource(bytes, sourceBytes) ? sourceBytes / kWideWordBytes : s.wideWords);
  Stamp(s, 1);
  return Close(s);
}

std::string D3D12Timing::RecordCopy(uint64_t bytes) {
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
  return Close(s);
}

std::string D3D12Timing::Rerun(double* seconds) {
  State& s = *state_;
  std::string error = Execute(s);
  if (!error.empty()) return error;
  if (s.recording) {
    const gs::Status result = s.recording->Result();
    if (!result.ok()) return result.message();
  }
  *seconds = Elapsed(s);
  return "";
}

std::string D3D12Timing::WarmUp(double seconds) {
  const auto start = std::chrono::steady_clock::now();
  double ignored = 0;
  do {
    const std::string error = Rerun(&ignored);
    if (!error.empty()) return error;
  } while (std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() < seconds);
  return "";
}

}  // namespace gs_bench
