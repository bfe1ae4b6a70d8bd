// The root signature every kernel shares and one compute pipeline per kernel and element
// size, created on first use and kept for the engine's life.
#pragma once

#include <mutex>
#include <string>

#include "d3d12/d3d12_api.h"
#include "d3d12/kernel_bytecode.h"

namespace gs::d3d12 {

// Root parameters (gpu/hlsl/common.hlsli declares the registers).
inline constexpr UINT kRootConstants = 0;  // root CBV b0: plan and pass constants
inline constexpr UINT kRootTable = 1;      // t0..t23 then u0..u24
// Tensors as plan::kGpuTensorWindows windows of their buffer, scatter lists as
// plan::kGpuListWindows (vkd3d gives each UAV two Vulkan bindings: lavapipe's 64 storage
// bindings per stage and 128 resources leave room for 25 UAVs and 24 SRVs).
inline constexpr UINT kSrvCount = 3 * plan::kGpuTensorWindows;  // Input, Indices, Updates
inline constexpr UINT kUavCount = plan::kGpuTensorWindows + 1 + 4 * plan::kGpuListWindows;  // Output, status, 4 lists
inline constexpr UINT kDescriptorCount = kSrvCount + kUavCount;

class Pipelines {
 public:
  // Empty string on success, else what failed.
  std::string Init(ID3D12Device* device);

  ID3D12RootSignature* rootSignature() const { return rootSignature_.get(); }

  // nullptr with *error set when the pipeline cannot be created.
  ID3D12PipelineState* Get(plan::GpuKernel kernel, uint32_t elementBytes, bool windowed, std::string* error);

  // Releases the pipelines and the root signature (the engine's release at exit).
  void Release();

 private:
  ID3D12Device* device_ = nullptr;
  ComPtr<ID3D12RootSignature> rootSignature_;
  std::mutex mutex_;
  ComPtr<ID3D12PipelineState> pipelines_[kKernelVariants];
};

}  // namespace gs::d3d12
