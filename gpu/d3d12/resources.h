// Buffers and barriers as gs's D3D12 code makes them (the engine, and the tests and gs-bench
// that drive it on their own buffers).
#pragma once

#include <cstdint>

#include "d3d12/d3d12_api.h"

namespace gs::d3d12 {

// A committed buffer of at least `bytes` (4 at least, as views need a whole word); empty on failure.
inline ComPtr<ID3D12Resource> CreateBuffer(ID3D12Device* device, D3D12_HEAP_TYPE heapType, uint64_t bytes,
                                           D3D12_RESOURCE_STATES state,
                                           D3D12_RESOURCE_FLAGS flags = D3D12_RESOURCE_FLAG_NONE) {
  D3D12_HEAP_PROPERTIES heap = {};
  heap.Type = heapType;
  D3D12_RESOURCE_DESC desc = {};
  desc.Dimension = D3D12_RESOURCE_DIMENSION_BUFFER;
  desc.Width = bytes < 4 ? 4 : bytes;
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

inline D3D12_RESOURCE_BARRIER Transition(ID3D12Resource* buffer, D3D12_RESOURCE_STATES before,
                                         D3D12_RESOURCE_STATES after) {
  D3D12_RESOURCE_BARRIER barrier = {};
  barrier.Type = D3D12_RESOURCE_BARRIER_TYPE_TRANSITION;
  barrier.Transition.pResource = buffer;
  barrier.Transition.Subresource = D3D12_RESOURCE_BARRIER_ALL_SUBRESOURCES;
  barrier.Transition.StateBefore = before;
  barrier.Transition.StateAfter = after;
  return barrier;
}

}  // namespace gs::d3d12
