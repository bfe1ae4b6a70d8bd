// D3D12Engine: upload, record the plan's passes, run, read back.
#include <cstring>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "cpu/bindings.h"  // the binding contract (sizes, alignment, overlap, in place) is shared
#include "d3d12/bad_index.h"
#include "d3d12/d3d12_api.h"
#include "d3d12/pipelines.h"
#include "d3d12/platform.h"
#include "gs/d3d12.h"
#include "hlsl/gpu_constants.h"
#include "plan/gpu_dispatch.h"
#include "plan/plan.h"

namespace gs {

using d3d12::ComPtr;

struct D3D12Engine::State {
  ComPtr<ID3D12Device> device;
  d3d12::Pipelines pipelines;
  std::mutex queueMutex;  // the synchronous calls share one queue, list and fence
  ComPtr<ID3D12CommandQueue> queue;
  ComPtr<ID3D12CommandAllocator> allocator;
  ComPtr<ID3D12GraphicsCommandList> list;
  ComPtr<ID3D12Fence> fence;
  uint64_t fenceValue = 0;
};

namespace {

// What the kernels' cbuffer holds (gpu/hlsl/common.hlsli), one copy per pass.
struct ConstantBlock {
  plan::KernelConstants kernel;
  plan::CopyConstants copy;
  plan::IndexValidation validation;
  gpu::PassConstants pass;
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

ComPtr<ID3D12Resource> CreateBuffer(ID3D12Device* device, D3D12_HEAP_TYPE heapType,
                                    uint64_t bytes, D3D12_RESOURCE_STATES state,
                                    D3D12_RESOURCE_FLAGS flags = D3D12_RESOURCE_FLAG_NONE) {
  D3D12_HEAP_PROPERTIES heap = {};
  heap.Type = heapType;
  D3D12_RESOURCE_DESC desc = {};
  desc.Dimension = D3D12_RESOURCE_DIMENSION_BUFFER;
  desc.Width = std::max<uint64_t>(bytes, 4);
  desc.Height = 1;
  desc.DepthOrArraySize = 1;
  desc.MipLevels = 1;
  desc.Format = DXGI_FORMAT_UNKNOWN;
  desc.SampleDesc.Count = 1;
  desc.Layout = D3D12_TEXTURE_LAYOUT_ROW_MAJOR;
  desc.Flags = flags;
  ComPtr<ID3D12Resource> buffer;
  if (FAILED(device->CreateCommittedResource(&heap, D3D12_HEAP_FLAG_NONE, &desc, state, nullptr,
                                             ComPtr<ID3D12Resource>::Iid(), buffer.Receive()))) {
    return {};
  }
  return buffer;
}

DXGI_FORMAT ElementFormat(uint32_t elementBytes) {
  switch (elementBytes) {
    case 1: return DXGI_FORMAT_R8_UINT;
    case 2: return DXGI_FORMAT_R16_UINT;
    case 4: return DXGI_FORMAT_R32_UINT;
    default: return DXGI_FORMAT_R32G32_UINT;
  }
}

// A typed view of a whole buffer (vkd3d binds typed views only; see design/gpu-path.md).
struct View {
  ID3D12Resource* buffer;
  DXGI_FORMAT format;
  uint32_t elementBytes;
  uint64_t bytes;
};

void WriteSrv(ID3D12Device* device, const View& view, D3D12_CPU_DESCRIPTOR_HANDLE slot) {
  D3D12_SHADER_RESOURCE_VIEW_DESC desc = {};
  desc.Format = view.format;
  desc.ViewDimension = D3D12_SRV_DIMENSION_BUFFER;
  desc.Shader4ComponentMapping = D3D12_DEFAULT_SHADER_4_COMPONENT_MAPPING;
  desc.Buffer.NumElements = static_cast<UINT>(std::max<uint64_t>(1, view.bytes / view.elementBytes));
  device->CreateShaderResourceView(view.buffer, &desc, slot);
}

void WriteUav(ID3D12Device* device, const View& view, D3D12_CPU_DESCRIPTOR_HANDLE slot) {
  D3D12_UNORDERED_ACCESS_VIEW_DESC desc = {};
  desc.Format = view.format;
  desc.ViewDimension = D3D12_UAV_DIMENSION_BUFFER;
  desc.Buffer.NumElements = static_cast<UINT>(std::max<uint64_t>(1, view.bytes / view.elementBytes));
  device->CreateUnorderedAccessView(view.buffer, nullptr, &desc, slot);
}

D3D12_RESOURCE_BARRIER Transition(ID3D12Resource* buffer, D3D12_RESOURCE_STATES before,
                                  D3D12_RESOURCE_STATES after) {
  D3D12_RESOURCE_BARRIER barrier = {};
  barrier.Type = D3D12_RESOURCE_BARRIER_TYPE_TRANSITION;
  barrier.Transition.pResource = buffer;
  barrier.Transition.Subresource = D3D12_RESOURCE_BARRIER_ALL_SUBRESOURCES;
  barrier.Transition.StateBefore = before;
  barrier.Transition.StateAfter = after;
  return barrier;
}

D3D12_RESOURCE_BARRIER UavBarrier() {
  D3D12_RESOURCE_BARRIER barrier = {};
  barrier.Type = D3D12_RESOURCE_BARRIER_TYPE_UAV;
  barrier.UAV.pResource = nullptr;  // every UAV: the next pass reads what this one wrote
  return barrier;
}

gpu::PassConstants MakePassConstants(const plan::Plan& plan, const plan::GpuPass& pass,
                                     bool checked) {
  gpu::PassConstants c = {};
  c.threadCount = pass.threads;
  c.rowWidth = pass.rowWidth;
  c.checked = checked ? 1 : 0;
  c.reduction = static_cast<uint32_t>(plan.reduction);
  c.index64 = plan.indexSize == 8 ? 1 : 0;
  c.indexSigned = plan.indexSigned ? 1 : 0;
  switch (plan.dataType) {
    case DataType::Float64:
    case DataType::Float32:
    case DataType::Float16: c.dataKind = GS_KIND_FLOAT; break;
    case DataType::Int64:
    case DataType::Int32:
    case DataType::Int16:
    case DataType::Int8: c.dataKind = GS_KIND_SIGNED; break;
    default: c.dataKind = GS_KIND_UNSIGNED; break;
  }
  c.elementBytes = plan.elementSize;
  return c;
}

// Waits for the queue by polling the fence (no OS event needed on either platform).
void WaitForFence(ID3D12Fence* fence, uint64_t value) {
  while (fence->GetCompletedValue() < value) std::this_thread::yield();
}

}  // namespace

D3D12Engine::D3D12Engine(std::unique_ptr<State> state) : state_(std::move(state)) {}
D3D12Engine::~D3D12Engine() = default;

ID3D12Device* D3D12Engine::device() const { return state_->device.get(); }

Status D3D12Engine::Create(ID3D12Device* device, std::unique_ptr<D3D12Engine>* engine) {
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
}

Status D3D12Engine::ExecuteOnHost(const CompiledOperator& op, const TensorBindings& bindings,
                                  IndexChecking checking) {
  if (!op.valid()) {
    return Status(StatusCode::InvalidArgument,
                  "D3D12Engine::ExecuteOnHost: the CompiledOperator is empty (CompileOperator did not succeed)");
  }
  const plan::Plan& plan = *op.plan();
  const std::string name = OperatorTypeName(plan.op);
  if (checking != IndexChecking::Checked && checking != IndexChecking::Unchecked) {
    return Status(StatusCode::InvalidArgument, name + ": IndexChecking is not a known mode");
  }
  cpu::BoundBuffers bound;
  Status status = cpu::CheckBindings(plan, bindings, &bound);
  if (!status.ok()) return status;

  plan::GpuOptions options;
  options.checked = checking == IndexChecking::Checked;
  options.inPlace = bound.inPlace;
  plan::GpuSchedule schedule;
  const std::string unsupported = plan::ScheduleGpuPasses(plan, options, &schedule);
  if (!unsupported.empty()) return Status(StatusCode::Unsupported, name + ": D3D12: " + unsupported);

  State& s = *state_;
  ID3D12Device* device = s.device.get();
  const uint32_t es = plan.elementSize;
  auto fail = [&](const std::string& what) {
    return Status(StatusCode::Internal, name + ": D3D12: " + what);
  };

  std::vector<ID3D12PipelineState*> pipelines(schedule.passCount);
  for (uint32_t i = 0; i < schedule.passCount; ++i) {
    std::string error;
    pipelines[i] = s.pipelines.Get(schedule.passes[i].kernel, es, &error);
    if (pipelines[i] == nullptr) return fail(error);
  }

  // Host bytes to upload: the inputs, and the output's current bytes (a strided output keeps
  // the bytes between its elements; in place it is also the input).
  const plan::TensorView& inputView = plan.tensor(plan::TensorRole::Input);
  const plan::TensorView& indicesView = plan.tensor(plan::TensorRole::Indices);
  const plan::TensorView& updatesView = plan.tensor(plan::TensorRole::Updates);
  const plan::TensorView& outputView = plan.tensor(plan::TensorRole::Output);
  struct Upload {
    const uint8_t* data;
    uint64_t bytes;
    uint64_t offset;
  };
  const bool needsInput = !bound.inPlace;
  Upload uploads[4] = {
      {needsInput ? bound.input : nullptr, needsInput ? inputView.totalSizeInBytes : 0, 0},
      {bound.indices, indicesView.totalSizeInBytes, 0},
      {updatesView.present ? bound.updates : nullptr, updatesView.present ? updatesView.totalSizeInBytes : 0, 0},
      {bound.output, outputView.totalSizeInBytes, 0},
  };
  uint64_t uploadBytes = kConstantBlockStride * schedule.passCount;
  for (Upload& u : uploads) {
    u.offset = uploadBytes;
    uploadBytes = AlignUp(uploadBytes + u.bytes, kPlacementAlignment);
  }
  const uint64_t statusInitOffset = uploadBytes;
  uploadBytes += 4;

  ComPtr<ID3D12Resource> upload =
      CreateBuffer(device, D3D12_HEAP_TYPE_UPLOAD, uploadBytes, D3D12_RESOURCE_STATE_GENERIC_READ);
  const uint64_t outputBytes = AlignUp(outputView.totalSizeInBytes, 4);
  const uint64_t readbackStatusOffset = AlignUp(outputBytes, 4);
  ComPtr<ID3D12Resource> readback = CreateBuffer(device, D3D12_HEAP_TYPE_READBACK,
                                                 readbackStatusOffset + 4, D3D12_RESOURCE_STATE_COPY_DEST);
  const D3D12_RESOURCE_FLAGS uav = D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS;
  ComPtr<ID3D12Resource> gpuBuffers[4];
  for (int i = 0; i < 4; ++i) {
    if (uploads[i].data == nullptr) continue;
    gpuBuffers[i] = CreateBuffer(device, D3D12_HEAP_TYPE_DEFAULT, AlignUp(uploads[i].bytes, 4),
                                 D3D12_RESOURCE_STATE_COPY_DEST, i == 3 ? uav : D3D12_RESOURCE_FLAG_NONE);
    if (!gpuBuffers[i]) return Status(StatusCode::OutOfMemory, name + ": D3D12: creating a buffer failed");
  }
  ComPtr<ID3D12Resource> statusBuffer =
      CreateBuffer(device, D3D12_HEAP_TYPE_DEFAULT, 4, D3D12_RESOURCE_STATE_COPY_DEST, uav);
  ComPtr<ID3D12Resource> heads, links, order, sources;
  if (plan.isScatter) {
    heads = CreateBuffer(device, D3D12_HEAP_TYPE_DEFAULT, schedule.listHeadElements * 4,
                         D3D12_RESOURCE_STATE_UNORDERED_ACCESS, uav);
    links = CreateBuffer(device, D3D12_HEAP_TYPE_DEFAULT, schedule.listNextElements * 4,
                         D3D12_RESOURCE_STATE_UNORDERED_ACCESS, uav);
    order = CreateBuffer(device, D3D12_HEAP_TYPE_DEFAULT, schedule.listNextElements * 4,
                         D3D12_RESOURCE_STATE_UNORDERED_ACCESS, uav);
    sources = CreateBuffer(device, D3D12_HEAP_TYPE_DEFAULT, schedule.listNextElements * 4,
                           D3D12_RESOURCE_STATE_UNORDERED_ACCESS, uav);
    if (!heads || !links || !order || !sources) return Status(StatusCode::OutOfMemory, name + ": D3D12: creating a buffer failed");
  }
  if (!upload || !readback || !statusBuffer) {
    return Status(StatusCode::OutOfMemory, name + ": D3D12: creating a buffer failed");
  }

  // Fill the upload buffer: constants per pass, tensors, the status word's "none".
  uint8_t* mapped = nullptr;
  if (FAILED(upload->Map(0, nullptr, reinterpret_cast<void**>(&mapped)))) return fail("mapping the upload buffer failed");
  for (uint32_t i = 0; i < schedule.passCount; ++i) {
    ConstantBlock block = {};
    block.kernel = plan.kernel;
    block.copy = plan.copy;
    block.validation = plan.validation;
    block.pass = MakePassConstants(plan, schedule.passes[i], options.checked);
    std::memcpy(mapped + i * kConstantBlockStride, &block, sizeof block);
  }
  for (const Upload& u : uploads) {
    if (u.data != nullptr) std::memcpy(mapped + u.offset, u.data, u.bytes);
  }
  const uint32_t none = GS_NO_BAD_INDEX;
  std::memcpy(mapped + statusInitOffset, &none, 4);
  upload->Unmap(0, nullptr);

  // Descriptors: t0 Input, t1 Indices, t2 Updates, u0 Output, u1 status, u2..u5 the lists.
  // Slots a plan does not use get a valid view of a buffer it has, in the declared format.
  ComPtr<ID3D12DescriptorHeap> heap;
  D3D12_DESCRIPTOR_HEAP_DESC heapDesc = {};
  heapDesc.Type = D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV;
  heapDesc.NumDescriptors = d3d12::kDescriptorCount;
  heapDesc.Flags = D3D12_DESCRIPTOR_HEAP_FLAG_SHADER_VISIBLE;
  if (FAILED(device->CreateDescriptorHeap(&heapDesc, ComPtr<ID3D12DescriptorHeap>::Iid(), heap.Receive()))) {
    return fail("CreateDescriptorHeap failed");
  }
  const UINT increment = device->GetDescriptorHandleIncrementSize(D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV);
  D3D12_CPU_DESCRIPTOR_HANDLE slot = heap->GetCPUDescriptorHandleForHeapStart();
  auto next = [&]() {
    D3D12_CPU_DESCRIPTOR_HANDLE current = slot;
    slot.ptr += increment;
    return current;
  };
  const DXGI_FORMAT elementFormat = ElementFormat(es);
  const View outputGpu{gpuBuffers[3].get(), elementFormat, es, outputView.totalSizeInBytes};
  const View inputGpu = gpuBuffers[0] ? View{gpuBuffers[0].get(), elementFormat, es, inputView.totalSizeInBytes}
                        : gpuBuffers[2] ? View{gpuBuffers[2].get(), elementFormat, es, updatesView.totalSizeInBytes}
                                        : outputGpu;
  const View updatesGpu = gpuBuffers[2] ? View{gpuBuffers[2].get(), elementFormat, es, updatesView.totalSizeInBytes}
                                        : inputGpu;
  const View statusGpu{statusBuffer.get(), DXGI_FORMAT_R32_UINT, 4, 4};
  WriteSrv(device, inputGpu, next());
  WriteSrv(device, {gpuBuffers[1].get(), DXGI_FORMAT_R32_UINT, 4, indicesView.totalSizeInBytes}, next());
  WriteSrv(device, updatesGpu, next());
  WriteUav(device, outputGpu, next());
  WriteUav(device, statusGpu, next());
  WriteUav(device, heads ? View{heads.get(), DXGI_FORMAT_R32_UINT, 4, schedule.listHeadElements * 4} : statusGpu, next());
  WriteUav(device, links ? View{links.get(), DXGI_FORMAT_R32_UINT, 4, schedule.listNextElements * 4} : statusGpu, next());
  WriteUav(device, order ? View{order.get(), DXGI_FORMAT_R32_UINT, 4, schedule.listNextElements * 4} : statusGpu, next());
  WriteUav(device, sources ? View{sources.get(), DXGI_FORMAT_R32_UINT, 4, schedule.listNextElements * 4} : statusGpu, next());

  std::lock_guard<std::mutex> lock(s.queueMutex);
  ID3D12GraphicsCommandList* list = s.list.get();
  if (FAILED(s.allocator->Reset()) || FAILED(list->Reset(s.allocator.get(), nullptr))) {
    return fail("resetting the command list failed");
  }
  std::vector<D3D12_RESOURCE_BARRIER> barriers;
  for (int i = 0; i < 4; ++i) {
    if (!gpuBuffers[i]) continue;
    list->CopyBufferRegion(gpuBuffers[i].get(), 0, upload.get(), uploads[i].offset, uploads[i].bytes);
    barriers.push_back(Transition(gpuBuffers[i].get(), D3D12_RESOURCE_STATE_COPY_DEST,
                                  i == 3 ? D3D12_RESOURCE_STATE_UNORDERED_ACCESS
                                         : D3D12_RESOURCE_STATE_NON_PIXEL_SHADER_RESOURCE));
  }
  list->CopyBufferRegion(statusBuffer.get(), 0, upload.get(), statusInitOffset, 4);
  barriers.push_back(Transition(statusBuffer.get(), D3D12_RESOURCE_STATE_COPY_DEST,
                                D3D12_RESOURCE_STATE_UNORDERED_ACCESS));
  list->ResourceBarrier(static_cast<UINT>(barriers.size()), barriers.data());

  ID3D12DescriptorHeap* heaps[] = {heap.get()};
  list->SetDescriptorHeaps(1, heaps);
  list->SetComputeRootSignature(s.pipelines.rootSignature());
  list->SetComputeRootDescriptorTable(d3d12::kRootTable, heap->GetGPUDescriptorHandleForHeapStart());
  const D3D12_RESOURCE_BARRIER uavBarrier = UavBarrier();
  for (uint32_t i = 0; i < schedule.passCount; ++i) {
    const plan::GpuPass& pass = schedule.passes[i];
    list->SetPipelineState(pipelines[i]);
    list->SetComputeRootConstantBufferView(d3d12::kRootConstants,
                                           upload->GetGPUVirtualAddress() + i * kConstantBlockStride);
    list->Dispatch(pass.groupsX, pass.groupsY, 1);
    list->ResourceBarrier(1, &uavBarrier);
  }

  D3D12_RESOURCE_BARRIER toCopy[] = {
      Transition(gpuBuffers[3].get(), D3D12_RESOURCE_STATE_UNORDERED_ACCESS, D3D12_RESOURCE_STATE_COPY_SOURCE),
      Transition(statusBuffer.get(), D3D12_RESOURCE_STATE_UNORDERED_ACCESS, D3D12_RESOURCE_STATE_COPY_SOURCE),
  };
  list->ResourceBarrier(2, toCopy);
  list->CopyBufferRegion(readback.get(), 0, gpuBuffers[3].get(), 0, outputView.totalSizeInBytes);
  list->CopyBufferRegion(readback.get(), readbackStatusOffset, statusBuffer.get(), 0, 4);
  HRESULT hr = list->Close();
  if (FAILED(hr)) return fail("closing the command list failed (" + Hresult(hr) + ")");
  ID3D12CommandList* lists[] = {list};
  s.queue->ExecuteCommandLists(1, lists);
  hr = s.queue->Signal(s.fence.get(), ++s.fenceValue);
  if (FAILED(hr)) return fail("signalling the fence failed (" + Hresult(hr) + ")");
  WaitForFence(s.fence.get(), s.fenceValue);

  uint8_t* results = nullptr;
  if (FAILED(readback->Map(0, nullptr, reinterpret_cast<void**>(&results)))) return fail("mapping the readback buffer failed");
  uint32_t firstBad;
  std::memcpy(&firstBad, results + readbackStatusOffset, 4);
  if (options.checked && firstBad != GS_NO_BAD_INDEX) {
    readback->Unmap(0, nullptr);
    return d3d12::BadIndexStatus(plan, firstBad, bound.indices);
  }
  std::memcpy(bound.output, results, outputView.totalSizeInBytes);
  readback->Unmap(0, nullptr);
  return Status::Ok();
}

}  // namespace gs
