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
inline constexpr UINT kRootTable = 1;      // t0..t2 then u0..u3
inline constexpr UINT kSrvCount = 3;       // Input, Indices, Updates
inline constexpr UINT kUavCount = 6;       // Output, status, list heads, links, order, sources
inline constexpr UINT kDescriptorCount = kSrvCount + kUavCount;

class Pipelines {
 public:
  // Empty string on success, else what failed.
  std::string Init(ID3D12Device* device);

  ID3D12RootSignature* rootSignature() const { return rootSignature_.get(); }

  // nullptr with *error set when the pipeline cannot be created.
  ID3D12PipelineState* Get(plan::GpuKernel kernel, uint32_t elementBytes, std::string* error);

 private:
  ID3D12Device* device_ = nullptr;
  ComPtr<ID3D12RootSignature> rootSignature_;
  std::mutex mutex_;
  ComPtr<ID3D12PipelineState> pipelines_[plan::kGpuKernelCount * kElementSizeVariants];
};

}  // namespace gs::d3d12
