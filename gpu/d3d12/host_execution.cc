// D3D12Engine::ExecuteOnHost: host memory in, through the engine's own buffers, queue and
// fence: upload the views' spans, record the plan's passes (record.cc), run, wait, read back
// the output view's elements.
#include <cstring>
#include <memory>
#include <mutex>
#include <string>

#include "d3d12/engine_state.h"
#include "d3d12/resources.h"
#include "plan/call_checks.h"
#include "plan/odometer.h"

namespace gs {
namespace d3d12 {
namespace {

constexpr uint64_t kPlacementAlignment = 256;

uint64_t AlignUp(uint64_t value, uint64_t alignment) {
  return (value + alignment - 1) / alignment * alignment;
}

Status Internal(const plan::Plan& plan, const std::string& what) {
  return Status(StatusCode::Internal, std::string(OperatorTypeName(plan.op)) + ": D3D12: " + what);
}

// One call's GPU copies of the host tensors, and its run. The engine keeps it whole when the
// call cannot wait for the GPU (a removed device), as the GPU may still use it.
struct HostWork {
  ComPtr<ID3D12Resource> buffers[plan::kTensorRoleCount];  // by role; none for one not on the GPU
  bool uploaded[plan::kTensorRoleCount] = {};
  uint64_t uploadOffsets[plan::kTensorRoleCount] = {};
  ComPtr<ID3D12Resource> upload, readback;
  D3D12Recording::State run;
};

// Buffers for the tensors' spans (plan::ViewSpanInBytes: never the rest of the caller's
// buffer), and the upload of the inputs' spans. The output's bytes go up only in place, where
// they are the input: otherwise every element of its view is written before it is read, and
// only those elements come back (WriteBack). tensors: the GPU copies, by role.
Status Stage(ID3D12Device* device, const plan::Plan& plan, const plan::HostBuffers& bound, HostWork* work,
             GpuTensor* tensors) {
  const Status noMemory(StatusCode::OutOfMemory,
                        std::string(OperatorTypeName(plan.op)) + ": D3D12: creating a buffer failed");
  const uint8_t* hostData[plan::kTensorRoleCount] = {bound.inPlace ? nullptr : bound.input, bound.indices,
                                                      bound.updates, bound.inPlace ? bound.output : nullptr};
  const uint32_t outputRole = static_cast<uint32_t>(plan::TensorRole::Output);
  uint64_t uploadBytes = 0;
  for (uint32_t r = 0; r < plan::kTensorRoleCount; ++r) {
    const plan::TensorView& view = plan.tensors[r];
    const uint64_t span = plan::ViewSpanInBytes(view);
    const bool inputInPlace = bound.inPlace && r == static_cast<uint32_t>(plan::TensorRole::Input);
    if (!view.present || span == 0 || inputInPlace) continue;  // in place, Output's copy is Input's
    const D3D12_RESOURCE_FLAGS flags =
        r == outputRole ? D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS : D3D12_RESOURCE_FLAG_NONE;
    work->buffers[r] =
        CreateBuffer(device, D3D12_HEAP_TYPE_DEFAULT, AlignUp(span, 4), D3D12_RESOURCE_STATE_COPY_DEST, flags);
    if (!work->buffers[r]) return noMemory;
    tensors[r] = {work->buffers[r].get(), 0, span};
    if (hostData[r] == nullptr) continue;
    work->uploaded[r] = true;
    work->uploadOffsets[r] = uploadBytes;
    uploadBytes = AlignUp(uploadBytes + span, kPlacementAlignment);
  }
  const uint64_t outputSpan = plan::ViewSpanInBytes(plan.tensor(plan::TensorRole::Output));
  if (outputSpan > 0) {
    work->readback =
        CreateBuffer(device, D3D12_HEAP_TYPE_READBACK, AlignUp(outputSpan, 4), D3D12_RESOURCE_STATE_COPY_DEST);
    if (!work->readback) return noMemory;
  }
  if (uploadBytes == 0) return Status::Ok();  // nothing to send
  work->upload = CreateBuffer(device, D3D12_HEAP_TYPE_UPLOAD, uploadBytes, D3D12_RESOURCE_STATE_GENERIC_READ);
  if (!work->upload) return noMemory;
  uint8_t* mapped = nullptr;
  if (FAILED(work->upload->Map(0, nullptr, reinterpret_cast<void**>(&mapped)))) {
    return Internal(plan, "mapping the upload buffer failed");
  }
  for (uint32_t r = 0; r < plan::kTensorRoleCount; ++r) {
    if (!work->uploaded[r]) continue;
    std::memcpy(mapped + work->uploadOffsets[r], hostData[r], plan::ViewSpanInBytes(plan.tensors[r]));
  }
  work->upload->Unmap(0, nullptr);
  return Status::Ok();
}

// Copies the output view's elements from `results` (the GPU copy of its span) into the caller's
// buffer, a run of contiguous elements at a time: the bytes between them are never written
// (they may be another call's elements, semantics.md).
void WriteBack(const plan::TensorView& view, const uint8_t* results, uint8_t* output) {
  if (view.elementCount == 0) return;
  // The innermost dimensions laid out packed (or of size 1) make one run.
  uint32_t outer = view.dimensionCount;
  uint64_t run = 1;
  while (outer > 0 && (view.sizes[outer - 1] == 1 || view.strides[outer - 1] == run)) {
    --outer;
    run *= view.sizes[outer];
  }
  uint64_t sizes[plan::kMaxRank], runs = 1;
  plan::Odometer<1> position;
  position.rank = outer;
  position.sizes = sizes;
  position.strides[0] = view.strides;
  for (uint32_t d = 0; d < outer; ++d) {
    sizes[d] = view.sizes[d];
    runs *= sizes[d];
  }
  position.Seek(0);
  const uint64_t elementBytes = view.elementSize;
  for (uint64_t i = 0; i < runs; ++i, position.Next()) {
    const uint64_t at = position.offsets[0] * elementBytes;
    std::memcpy(output + at, results + at, run * elementBytes);
  }
}

// Records on the engine's list (queueMutex held): the uploads, the passes, the output's copy
// to the readback buffer. From Reset to Close nothing allocates: an exception there would
// leave the engine's list recording, and every later call would fail.
Status RecordHostWork(D3D12Engine::State& s, const plan::Plan& plan, const HostWork& work) {
  ID3D12GraphicsCommandList* list = s.list.get();
  if (FAILED(s.allocator->Reset()) || FAILED(list->Reset(s.allocator.get(), nullptr))) {
    return Internal(plan, "resetting the command list failed");
  }
  const uint32_t outputRole = static_cast<uint32_t>(plan::TensorRole::Output);
  D3D12_RESOURCE_BARRIER barriers[plan::kTensorRoleCount];
  UINT barrierCount = 0;
  for (uint32_t r = 0; r < plan::kTensorRoleCount; ++r) {
    if (!work.buffers[r]) continue;
    if (work.uploaded[r]) {
      list->CopyBufferRegion(work.buffers[r].get(), 0, work.upload.get(), work.uploadOffsets[r],
                             plan::ViewSpanInBytes(plan.tensors[r]));
    }
    barriers[barrierCount++] = Transition(work.buffers[r].get(), D3D12_RESOURCE_STATE_COPY_DEST,
                                          r == outputRole ? D3D12_RESOURCE_STATE_UNORDERED_ACCESS
                                                          : D3D12_RESOURCE_STATE_NON_PIXEL_SHADER_RESOURCE);
  }
  if (barrierCount > 0) list->ResourceBarrier(barrierCount, barriers);
  RecordPasses(list, s.pipelines.rootSignature(), work.run);
  ID3D12Resource* output = work.buffers[outputRole].get();
  if (output != nullptr) {  // an empty output has nothing to read back
    const D3D12_RESOURCE_BARRIER toCopy =
        Transition(output, D3D12_RESOURCE_STATE_UNORDERED_ACCESS, D3D12_RESOURCE_STATE_COPY_SOURCE);
    list->ResourceBarrier(1, &toCopy);
    const uint64_t span = plan::ViewSpanInBytes(plan.tensor(plan::TensorRole::Output));
    list->CopyBufferRegion(work.readback.get(), 0, output, 0, span);
  }
  const HRESULT hr = list->Close();
  if (FAILED(hr)) return Internal(plan, "closing the command list failed (" + Hresult(hr) + ")");
  return Status::Ok();
}

// Submits the recorded list and waits for it. Run to the end or not at all: a call that
// cannot wait leaves its work to the engine, and the engine removed.
Status Submit(D3D12Engine::State& s, const plan::Plan& plan, const std::shared_ptr<HostWork>& work,
              const std::string& who) {
  ID3D12CommandList* lists[] = {s.list.get()};
  s.queue->ExecuteCommandLists(1, lists);
  const HRESULT hr = s.queue->Signal(s.fence.get(), ++s.fenceValue);
  const Status status = SUCCEEDED(hr) ? WaitForFence(s.device.get(), s.fence.get(), s.fenceValue, who)
                                      : Internal(plan, "signalling the fence failed (" + Hresult(hr) + ")");
  if (!status.ok()) {
    s.abandoned.push_back(work);  // room reserved before the submission
    s.removed = status;
  }
  return status;
}

Status ExecuteOnHostIn(D3D12Engine::State& s, const CompiledOperator& op, const TensorBindings& bindings,
                       IndexChecking checking) {
  if (!op.valid()) {
    return Status(StatusCode::InvalidArgument,
                  "D3D12Engine::ExecuteOnHost: the CompiledOperator is empty (CompileOperator did not succeed)");
  }
  const plan::Plan& plan = *op.plan();
  Status status = plan::CheckIndexChecking(plan, checking, "IndexChecking");
  if (!status.ok()) return status;
  plan::HostBuffers bound;
  status = plan::CheckHostBindings(plan, bindings, &bound);
  if (!status.ok()) return status;
  // Made before anything is submitted: from then on nothing may throw until the GPU is done.
  const std::string who = std::string(OperatorTypeName(plan.op)) + ": D3D12Engine::ExecuteOnHost";
  status = CheckDeviceNotRemoved(s.device.get(), who);
  if (!status.ok()) return status;

  // The limits first: a plan this path cannot run allocates and moves nothing.
  auto work = std::make_shared<HostWork>();
  GpuTensor tensors[plan::kTensorRoleCount];  // each a buffer of its own, from its start (Stage)
  status = Schedule(s, plan, checking == IndexChecking::Checked, bound.inPlace, tensors, &work->run);
  if (!status.ok()) return status;
  status = Stage(s.device.get(), plan, bound, work.get(), tensors);
  if (!status.ok()) return status;
  status = Prepare(s, tensors, bound.inPlace, &work->run);
  if (!status.ok()) return status;
  std::lock_guard<std::mutex> lock(s.queueMutex);
  if (!s.removed.ok()) return s.removed;
  s.abandoned.reserve(s.abandoned.size() + 1);
  status = RecordHostWork(s, plan, *work);
  if (status.ok()) status = Submit(s, plan, work, who);
  if (!status.ok()) return status;
  status = D3D12Recording(std::make_unique<D3D12Recording::State>(std::move(work->run))).Result();
  if (!status.ok()) return status;  // checked mode: the host output stays untouched
  if (!work->readback) return Status::Ok();  // an empty output
  uint8_t* results = nullptr;
  if (FAILED(work->readback->Map(0, nullptr, reinterpret_cast<void**>(&results)))) {
    return Internal(plan, "mapping the readback buffer failed");
  }
  WriteBack(plan.tensor(plan::TensorRole::Output), results, bound.output);
  work->readback->Unmap(0, nullptr);
  return Status::Ok();
}

}  // namespace
}  // namespace d3d12

Status D3D12Engine::ExecuteOnHost(const CompiledOperator& op, const TensorBindings& bindings,
                                  IndexChecking checking) {
  Status exiting = d3d12::CheckNotReleasedAtExit(*state_, "D3D12Engine::ExecuteOnHost");
  if (!exiting.ok()) return exiting;
  return d3d12::OutOfMemoryAsStatus("D3D12Engine::ExecuteOnHost",
                                    [&] { return d3d12::ExecuteOnHostIn(*state_, op, bindings, checking); });
}

}  // namespace gs
