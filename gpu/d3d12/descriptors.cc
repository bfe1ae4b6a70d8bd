// The descriptor heap of one run: typed views of every tensor and scratch list, each as the
// windows the kernels declare (gpu/hlsl/common.hlsli), in register order.
#include <algorithm>
#include <functional>

#include "d3d12/engine_state.h"

namespace gs::d3d12 {
namespace {

DXGI_FORMAT ElementFormat(uint32_t elementBytes) {
  switch (elementBytes) {
    case 1: return DXGI_FORMAT_R8_UINT;
    case 2: return DXGI_FORMAT_R16_UINT;
    case 4: return DXGI_FORMAT_R32_UINT;
    case 8: return DXGI_FORMAT_R32G32_UINT;
    default: return DXGI_FORMAT_R32G32B32A32_UINT;  // 16-byte words (gathers, scatters, copies)
  }
}

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

// The tensor as the kernels' `windows` views: window w holds elements [w * window,
// (w + 1) * window); windows past the tensor's end show window 0, which no kernel then selects
// (the plan fits every tensor in the windows).
void WriteWindows(ID3D12Device* device, const GpuTensor& t, DXGI_FORMAT format, uint32_t elementBytes,
                  bool unordered, uint64_t window, uint32_t windows,
                  const std::function<D3D12_CPU_DESCRIPTOR_HANDLE()>& next) {
  const uint64_t elements = t.bytes / elementBytes;
  for (uint32_t w = 0; w < windows; ++w) {
    const uint64_t start = uint64_t{w} * window < elements ? uint64_t{w} * window : 0;
    WriteView(device, t, format, elementBytes, unordered, start, std::min(window, elements - start), next());
  }
}

// One table of the root signature's views in register order: Input, Indices, Updates (or
// Indices in 16-byte words), Output windows, the status, the lists' windows. Input and Output
// in words of `tensorBytes` (the schedule's, or the copy's for its own table), Updates in the
// schedule's. Slots a plan does not use get a valid view of a buffer it has, in the declared
// format.
void WriteTable(ID3D12Device* device, const GpuTensor* tensors, bool inPlace, const D3D12Recording::State& run,
                uint32_t tensorBytes, const std::function<D3D12_CPU_DESCRIPTOR_HANDLE()>& next) {
  const plan::GpuSchedule& schedule = run.schedule;
  const uint32_t es = schedule.elementBytes;  // the plan's elements, or wider words
  const uint64_t window = schedule.viewWindow;
  const GpuTensor& input = tensors[static_cast<int>(plan::TensorRole::Input)];
  const GpuTensor& indices = tensors[static_cast<int>(plan::TensorRole::Indices)];
  const GpuTensor& updates = tensors[static_cast<int>(plan::TensorRole::Updates)];
  const GpuTensor& output = tensors[static_cast<int>(plan::TensorRole::Output)];
  // In place, Input is the output (a UAV): t0 then shows Updates, which no pass reads there.
  const GpuTensor& inputSlot = inPlace ? updates : input;
  const GpuTensor& updatesSlot = updates.resource != nullptr ? updates : input;
  const GpuTensor status{run.status.get(), 0, kStatusBytes};
  auto list = [&](const ComPtr<ID3D12Resource>& buffer, uint64_t elements) {
    return buffer ? GpuTensor{buffer.get(), 0, elements * 4} : status;
  };
  const DXGI_FORMAT word = DXGI_FORMAT_R32_UINT;
  const uint32_t tensorWindows = plan::kGpuTensorWindows, listWindows = plan::kGpuListWindows;
  WriteWindows(device, inputSlot, ElementFormat(tensorBytes), tensorBytes, false, window, tensorWindows, next);
  WriteWindows(device, indices, word, 4, false, window, tensorWindows, next);
  if (schedule.indexQuads) {  // Indices again, in 16-byte words (gpu/hlsl/common.hlsli, indexQuads)
    WriteWindows(device, indices, ElementFormat(16), 16, false, window, tensorWindows, next);
  } else {
    WriteWindows(device, updatesSlot, ElementFormat(es), es, false, window, tensorWindows, next);
  }
  // Output in the same words, or in the 16- or 4-byte words a gather packs its narrower
  // elements in (GatherPackedWordBytes).
  const uint32_t os = tensorBytes == es ? schedule.outputBytes : tensorBytes;
  if (os == 8) {  // two R32_UINT words per element (gpu/hlsl/common.hlsli)
    WriteWindows(device, output, word, 4, true, 2 * window, tensorWindows, next);
  } else {
    WriteWindows(device, output, ElementFormat(os), os, true, window, tensorWindows, next);
  }
  WriteView(device, status, word, 4, true, 0, kStatusBytes / 4, next());
  WriteWindows(device, list(run.heads, schedule.listHeadElements), word, 4, true, window, listWindows, next);
  WriteWindows(device, list(run.links, schedule.listNextElements), word, 4, true, window, listWindows, next);
  WriteWindows(device, list(run.order, schedule.listNextElements), word, 4, true, window, listWindows, next);
  WriteWindows(device, list(run.sources, schedule.listNextElements), word, 4, true, window, listWindows, next);
}

}  // namespace

std::string WriteDescriptors(ID3D12Device* device, const GpuTensor* tensors, bool inPlace, D3D12Recording::State* run) {
  const plan::GpuSchedule& schedule = run->schedule;
  bool copyTable = false;
  for (uint32_t i = 0; i < schedule.passCount; ++i) copyTable = copyTable || schedule.passes[i].copyViews;
  D3D12_DESCRIPTOR_HEAP_DESC heapDesc = {};
  heapDesc.Type = D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV;
  heapDesc.NumDescriptors = kDescriptorCount * (copyTable ? 2 : 1);
  heapDesc.Flags = D3D12_DESCRIPTOR_HEAP_FLAG_SHADER_VISIBLE;
  if (FAILED(device->CreateDescriptorHeap(&heapDesc, ComPtr<ID3D12DescriptorHeap>::Iid(), run->heap.Receive()))) {
    return "CreateDescriptorHeap failed";
  }
  const UINT increment = device->GetDescriptorHandleIncrementSize(D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV);
  D3D12_CPU_DESCRIPTOR_HANDLE slot = CpuStartOf(run->heap.get());
  auto next = [&]() {
    D3D12_CPU_DESCRIPTOR_HANDLE current = slot;
    slot.ptr += increment;
    return current;
  };
  WriteTable(device, tensors, inPlace, *run, schedule.elementBytes, next);
  run->table = GpuStartOf(run->heap.get());
  run->copyTable = run->table;
  if (copyTable) {  // the second table, right after the first
    WriteTable(device, tensors, inPlace, *run, schedule.copyBytes, next);
    run->copyTable.ptr += uint64_t{kDescriptorCount} * increment;
  }
  return {};
}

}  // namespace gs::d3d12
