// The caller's side of a recorded operator (the way an ML runtime uses DirectML): its own queue,
// list, fence and buffers, for the tests that record into the caller's list.
#pragma once

#include <gtest/gtest.h>

#include <cstring>
#include <thread>
#include <vector>

#include "d3d12/d3d12_api.h"
#include "d3d12/resources.h"

namespace gs_gpu_test {

using gs::d3d12::ComPtr;
using gs::d3d12::Transition;

// A buffer for the test; a failure to make it fails the test.
inline ComPtr<ID3D12Resource> Buffer(ID3D12Device* device, D3D12_HEAP_TYPE type, uint64_t bytes,
                              D3D12_RESOURCE_STATES state, D3D12_RESOURCE_FLAGS flags) {
  ComPtr<ID3D12Resource> buffer = gs::d3d12::CreateBuffer(device, type, bytes, state, flags);
  EXPECT_TRUE(buffer.get() != nullptr);
  return buffer;
}

// The caller's side of a recorded operator, as an ML runtime has it: its own queue, list and
// fence, one input buffer and one output buffer of `outputBufferBytes` filled from `staging`
// (the inputs' bytes first, then the output's), in the states Record expects. record(list,
// inputs, outputs) adds the operator (false: it did not); the list then runs, and *output
// receives the output buffer's bytes.
template <typename Record>
void RunInCallersList(ID3D12Device* device, const std::vector<uint8_t>& staging, std::vector<uint8_t>* output,
                      Record&& record, uint64_t outputBufferBytes = 256) {
  const uint64_t inputBytes = staging.size() - outputBufferBytes;
  ComPtr<ID3D12CommandQueue> queue;
  ComPtr<ID3D12CommandAllocator> allocator;
  ComPtr<ID3D12GraphicsCommandList> list;
  ComPtr<ID3D12Fence> fence;
  D3D12_COMMAND_QUEUE_DESC queueDesc = {};
  queueDesc.Type = D3D12_COMMAND_LIST_TYPE_DIRECT;
  ASSERT_TRUE(SUCCEEDED(device->CreateCommandQueue(&queueDesc, ComPtr<ID3D12CommandQueue>::Iid(), queue.Receive())));
  ASSERT_TRUE(SUCCEEDED(device->CreateCommandAllocator(D3D12_COMMAND_LIST_TYPE_DIRECT, ComPtr<ID3D12CommandAllocator>::Iid(), allocator.Receive())));
  ASSERT_TRUE(SUCCEEDED(device->CreateCommandList(0, D3D12_COMMAND_LIST_TYPE_DIRECT, allocator.get(), nullptr,
                                                  ComPtr<ID3D12GraphicsCommandList>::Iid(), list.Receive())));
  ASSERT_TRUE(SUCCEEDED(device->CreateFence(0, D3D12_FENCE_FLAG_NONE, ComPtr<ID3D12Fence>::Iid(), fence.Receive())));

  const D3D12_RESOURCE_FLAGS uav = D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS;
  ComPtr<ID3D12Resource> upload = Buffer(device, D3D12_HEAP_TYPE_UPLOAD, staging.size(), D3D12_RESOURCE_STATE_GENERIC_READ, D3D12_RESOURCE_FLAG_NONE);
  ComPtr<ID3D12Resource> inputs = Buffer(device, D3D12_HEAP_TYPE_DEFAULT, inputBytes, D3D12_RESOURCE_STATE_COPY_DEST, D3D12_RESOURCE_FLAG_NONE);
  ComPtr<ID3D12Resource> outputs = Buffer(device, D3D12_HEAP_TYPE_DEFAULT, outputBufferBytes, D3D12_RESOURCE_STATE_COPY_DEST, uav);
  ComPtr<ID3D12Resource> readback = Buffer(device, D3D12_HEAP_TYPE_READBACK, outputBufferBytes, D3D12_RESOURCE_STATE_COPY_DEST, D3D12_RESOURCE_FLAG_NONE);
  void* mapped = nullptr;
  upload->Map(0, nullptr, &mapped);
  std::memcpy(mapped, staging.data(), staging.size());
  upload->Unmap(0, nullptr);

  list->CopyBufferRegion(inputs.get(), 0, upload.get(), 0, inputBytes);
  list->CopyBufferRegion(outputs.get(), 0, upload.get(), inputBytes, outputBufferBytes);
  const D3D12_RESOURCE_BARRIER ready[] = {
      Transition(inputs.get(), D3D12_RESOURCE_STATE_COPY_DEST, D3D12_RESOURCE_STATE_NON_PIXEL_SHADER_RESOURCE),
      Transition(outputs.get(), D3D12_RESOURCE_STATE_COPY_DEST, D3D12_RESOURCE_STATE_UNORDERED_ACCESS)};
  list->ResourceBarrier(2, ready);
  if (!record(list.get(), inputs.get(), outputs.get())) return;
  const D3D12_RESOURCE_BARRIER done = Transition(outputs.get(), D3D12_RESOURCE_STATE_UNORDERED_ACCESS, D3D12_RESOURCE_STATE_COPY_SOURCE);
  list->ResourceBarrier(1, &done);
  list->CopyBufferRegion(readback.get(), 0, outputs.get(), 0, outputBufferBytes);
  ASSERT_TRUE(SUCCEEDED(list->Close()));
  ID3D12CommandList* lists[] = {list.get()};
  queue->ExecuteCommandLists(1, lists);
  queue->Signal(fence.get(), 1);
  while (fence->GetCompletedValue() < 1) std::this_thread::yield();

  readback->Map(0, nullptr, &mapped);
  output->assign(outputBufferBytes, 0);
  std::memcpy(output->data(), mapped, outputBufferBytes);
  readback->Unmap(0, nullptr);
}

}  // namespace gs_gpu_test
