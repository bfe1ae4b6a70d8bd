// Recording a plan's passes on D3D12 buffers: the caller's (D3D12Engine::Record), or the host
// path's own (host_execution.cc). The plan decides the passes and their constants
// (plan/gpu_dispatch.h); this file creates what they need and records them.
#include <cstring>
#include <memory>
#include <string>

#include "d3d12/engine_state.h"
#include "d3d12/resources.h"
#include "plan/bad_index.h"
#include "plan/call_checks.h"

namespace gs {
namespace d3d12 {
namespace {

// What the kernels' cbuffer holds (gpu/hlsl/common.hlsli), one copy per pass.
struct ConstantBlock {
  plan::KernelConstants kernel;
  plan::CopyConstants copy;
  plan::IndexValidation validation;
  plan::PassConstants pass;
};
constexpr uint64_t kConstantBlockStride = (sizeof(ConstantBlock) + 255) / 256 * 256;
constexpr uint64_t kPlaceholderBytes = 256;  // one element of any size, in any view format

D3D12_RESOURCE_BARRIER UavBarrier() {
  D3D12_RESOURCE_BARRIER barrier = {};
  barrier.Type = D3D12_RESOURCE_BARRIER_TYPE_UAV;
  barrier.UAV.pResource = nullptr;  // every UAV: the next pass reads what this one wrote
  return barrier;
}

// The plan's passes for this engine's view windows, and a pipeline for each.
Status SchedulePasses(D3D12Engine::State& engine, const plan::Plan& plan, bool checked, bool inPlace,
                      const GpuTensor* tensors, D3D12Recording::State* run) {
  const std::string name = OperatorTypeName(plan.op);
  plan::GpuOptions options;
  options.checked = checked;
  options.inPlace = inPlace;
  options.viewElementLimit = engine.viewElementLimit;
  for (uint32_t r = 0; r < plan::kTensorRoleCount; ++r) options.offsets[r] = tensors[r].offset;
  const std::string unsupported = plan::ScheduleGpuPasses(plan, options, &run->schedule);
  if (!unsupported.empty()) return Status(StatusCode::Unsupported, name + ": D3D12: " + unsupported);
  const plan::GpuSchedule& schedule = run->schedule;
  const std::string missing = MissingRunFeature(engine.features, plan, schedule);
  if (!missing.empty()) return Status(StatusCode::Unsupported, name + ": D3D12: " + missing);
  for (uint32_t i = 0; i < schedule.passCount; ++i) {
    std::string error;
    const plan::GpuPass& pass = schedule.passes[i];
    run->pipelines[i] = engine.pipelines.Get(pass.kernel, pass.constants.elementBytes, schedule.windowed, &error);
    if (run->pipelines[i] == nullptr) return Status(StatusCode::Internal, name + ": D3D12: " + error);
  }
  return Status::Ok();
}

// The constants (a block per pass, then the status words' start), the status and its readback,
// and a scatter's lists: the heads (or claims), and the per-update lists where the schedule walks
// them. False when one could not be made.
bool CreateRunBuffers(ID3D12Device* device, D3D12Recording::State* run) {
  const plan::GpuSchedule& schedule = run->schedule;
  const D3D12_RESOURCE_FLAGS uav = D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS;
  const D3D12_RESOURCE_STATES unordered = D3D12_RESOURCE_STATE_UNORDERED_ACCESS;
  run->statusInitOffset = kConstantBlockStride * schedule.passCount;
  run->constants = CreateBuffer(device, D3D12_HEAP_TYPE_UPLOAD, run->statusInitOffset + kStatusBytes,
                                D3D12_RESOURCE_STATE_GENERIC_READ);
  run->status = CreateBuffer(device, D3D12_HEAP_TYPE_DEFAULT, kStatusBytes, D3D12_RESOURCE_STATE_COPY_DEST, uav);
  run->statusReadback = CreateBuffer(device, D3D12_HEAP_TYPE_READBACK, kStatusBytes, D3D12_RESOURCE_STATE_COPY_DEST);
  bool made = run->constants && run->status && run->statusReadback;
  if (schedule.listHeadElements > 0) {  // none for a scatter by lines
    run->heads = CreateBuffer(device, D3D12_HEAP_TYPE_DEFAULT, schedule.listHeadElements * 4, unordered, uav);
    made = made && run->heads;
  }
  if (schedule.listNextElements > 0) {  // unused slots show the status (descriptors.cc)
    const uint64_t perUpdate = schedule.listNextElements * 4;
    run->links = CreateBuffer(device, D3D12_HEAP_TYPE_DEFAULT, perUpdate, unordered, uav);
    run->order = CreateBuffer(device, D3D12_HEAP_TYPE_DEFAULT, perUpdate, unordered, uav);
    run->sources = CreateBuffer(device, D3D12_HEAP_TYPE_DEFAULT, perUpdate, unordered, uav);
    made = made && run->links && run->order && run->sources;
  }
  return made;
}

// Each pass's block as the plan and its schedule decided it, then the status words' start.
bool WriteConstants(const plan::Plan& plan, const D3D12Recording::State& run) {
  uint8_t* mapped = nullptr;
  if (FAILED(run.constants->Map(0, nullptr, reinterpret_cast<void**>(&mapped)))) return false;
  for (uint32_t i = 0; i < run.schedule.passCount; ++i) {
    ConstantBlock block = {};
    block.kernel = run.schedule.walk;
    block.copy = run.schedule.copy;
    block.validation = plan.validation;
    block.pass = run.schedule.passes[i].constants;
    std::memcpy(mapped + i * kConstantBlockStride, &block, sizeof block);
  }
  uint32_t statusStart[GS_STATUS_WORDS] = {};
  statusStart[GS_STATUS_FIRST_BAD] = GS_NO_BAD_INDEX;
  std::memcpy(mapped + run.statusInitOffset, statusStart, sizeof statusStart);
  run.constants->Unmap(0, nullptr);
  return true;
}

// The caller's D3D12 buffers as the plan's bound tensors; the rules are the CPU engine's, and
// each binding must lie inside its resource (views past its end read and write out of bounds).
Status CheckGpuBindings(const plan::Plan& plan, const D3D12Bindings& b, GpuTensor* tensors, bool* inPlace) {
  const D3D12Buffer* all[] = {&b.InputTensor, &b.IndicesTensor, &b.UpdatesTensor, &b.OutputTensor};
  plan::BoundTensor bound[plan::kTensorRoleCount];
  for (uint32_t r = 0; r < plan::kTensorRoleCount; ++r) {
    bound[r] = {all[r]->Resource, all[r]->Offset, all[r]->SizeInBytes};
    if (all[r]->Resource != nullptr) bound[r].resourceSizeInBytes = DescOf(all[r]->Resource).Width;
  }
  Status status = plan::CheckBoundTensors(plan, plan::BindingSpace::D3D12Resources, bound, inPlace);
  if (!status.ok()) return status;
  for (uint32_t r = 0; r < plan::kTensorRoleCount; ++r) {
    // Each tensor's views cover its view's span, inside the binding (checked above).
    if (!plan.tensors[r].present) continue;
    tensors[r] = {all[r]->Resource, all[r]->Offset, plan::ViewSpanInBytes(plan.tensors[r])};
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
  status = Schedule(engine, plan, checking == IndexChecking::Checked, inPlace, tensors, run.get());
  if (status.ok()) status = Prepare(engine, tensors, inPlace, run.get());
  if (!status.ok()) return status;
  // Everything is allocated before the caller's list gets a command: nothing can fail after.
  const D3D12Recording::State& passes = *run;
  auto made = std::make_unique<D3D12Recording>(std::move(run));
  RecordPasses(list, engine.pipelines.rootSignature(), passes);
  *recording = std::move(made);
  return Status::Ok();
}

}  // namespace

Status Schedule(D3D12Engine::State& engine, const plan::Plan& plan, bool checked, bool inPlace,
                const GpuTensor* tensors, D3D12Recording::State* run) {
  run->plan = plan;
  run->checked = checked;
  return SchedulePasses(engine, plan, checked, inPlace, tensors, run);
}

Status Prepare(D3D12Engine::State& engine, const GpuTensor* tensors, bool inPlace, D3D12Recording::State* run) {
  const plan::Plan& plan = run->plan;
  const std::string name = OperatorTypeName(plan.op);
  ID3D12Device* device = engine.device.get();
  if (!CreateRunBuffers(device, run)) {
    return Status(StatusCode::OutOfMemory, name + ": D3D12: creating a buffer failed");
  }
  if (!WriteConstants(plan, *run)) return Status(StatusCode::Internal, name + ": D3D12: mapping the constants failed");
  // An empty tensor (0 bytes, maybe no resource) is viewed as a small buffer of the run's own,
  // which no kernel reads or writes: views need a resource and at least one element.
  GpuTensor bound[plan::kTensorRoleCount];
  for (uint32_t r = 0; r < plan::kTensorRoleCount; ++r) {
    bound[r] = tensors[r];
    if (!plan.tensors[r].present || tensors[r].bytes > 0) continue;
    if (!run->placeholder) {
      run->placeholder = CreateBuffer(device, D3D12_HEAP_TYPE_DEFAULT, kPlaceholderBytes, D3D12_RESOURCE_STATE_COMMON,
                                      D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS);
      if (!run->placeholder) return Status(StatusCode::OutOfMemory, name + ": D3D12: creating a buffer failed");
    }
    bound[r] = {run->placeholder.get(), 0, 0};
  }
  const std::string error = WriteDescriptors(device, bound, inPlace, run);
  if (!error.empty()) return Status(StatusCode::Internal, name + ": D3D12: " + error);
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
  const D3D12_RESOURCE_BARRIER uavBarrier = UavBarrier();
  for (uint32_t i = 0; i < run.schedule.passCount; ++i) {
    const plan::GpuPass& pass = run.schedule.passes[i];
    list->SetComputeRootDescriptorTable(kRootTable, pass.copyViews ? run.copyTable : run.table);
    list->SetPipelineState(run.pipelines[i]);
    list->SetComputeRootConstantBufferView(kRootConstants,
                                           run.constants->GetGPUVirtualAddress() + i * kConstantBlockStride);
    list->Dispatch(pass.groupsX, pass.groupsY, 1);
    list->ResourceBarrier(1, &uavBarrier);
  }
  const D3D12_RESOURCE_BARRIER toCopy = Transition(run.status.get(), D3D12_RESOURCE_STATE_UNORDERED_ACCESS,
                                                   D3D12_RESOURCE_STATE_COPY_SOURCE);
  list->ResourceBarrier(1, &toCopy);
  list->CopyBufferRegion(run.statusReadback.get(), 0, run.status.get(), 0, kStatusBytes);
}

}  // namespace d3d12

D3D12Recording::D3D12Recording(std::unique_ptr<State> state) : state_(std::move(state)) {}
D3D12Recording::~D3D12Recording() = default;

Status D3D12Recording::Result() const {
  return d3d12::OutOfMemoryAsStatus("D3D12Recording::Result", [&]() -> Status {
    const State& run = *state_;
    const std::string name = OperatorTypeName(run.plan.op);
    d3d12::ComPtr<ID3D12Device> device;
    if (SUCCEEDED(run.statusReadback->GetDevice(d3d12::ComPtr<ID3D12Device>::Iid(), device.Receive()))) {
      Status removed = d3d12::CheckDeviceNotRemoved(device.get(), name + ": D3D12Recording::Result");
      if (!removed.ok()) return removed;  // the status words were never written
    }
    uint32_t words[GS_STATUS_WORDS];
    uint8_t* mapped = nullptr;
    if (FAILED(run.statusReadback->Map(0, nullptr, reinterpret_cast<void**>(&mapped)))) {
      return Status(StatusCode::Internal, name + ": D3D12: mapping the status readback failed");
    }
    std::memcpy(words, mapped, sizeof words);
    run.statusReadback->Unmap(0, nullptr);
    const uint32_t first = words[GS_STATUS_FIRST_BAD];
    if (run.checked && first == GS_BAD_INDEX_MET) return plan::IndicesChangedStatus(run.plan);
    if (run.checked && first != GS_NO_BAD_INDEX) {
      const uint64_t value = words[GS_STATUS_VALUE_LOW] | (uint64_t{words[GS_STATUS_VALUE_HIGH]} << 32);
      return plan::BadIndexStatus(run.plan, first, value);
    }
    if (words[GS_STATUS_LIST_TOO_LONG] != 0) {
      return Status(StatusCode::Unsupported,
                    name + ": D3D12: more than " + std::to_string(plan::kGpuMaxUpdatesPerElement) +
                        " updates land on one output element, more than the D3D12 path folds on one "
                        "thread; nothing was written (ExecuteOnCpu runs it)");
    }
    return Status::Ok();
  });
}

Status D3D12Engine::Record(const CompiledOperator& op, ID3D12GraphicsCommandList* list,
                           const D3D12Bindings& buffers, IndexChecking checking,
                           std::unique_ptr<D3D12Recording>* recording) {
  Status exiting = d3d12::CheckNotReleasedAtExit(*state_, "D3D12Engine::Record");
  if (!exiting.ok()) return exiting;
  return d3d12::OutOfMemoryAsStatus("D3D12Engine::Record",
                                    [&] { return d3d12::RecordIn(*state_, op, list, buffers, checking, recording); });
}

}  // namespace gs
