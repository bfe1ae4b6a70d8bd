#include "d3d12/pipelines.h"

#include "d3d12/platform.h"

namespace gs::d3d12 {

std::string Pipelines::Init(ID3D12Device* device) {
  device_ = device;
  D3D12_DESCRIPTOR_RANGE ranges[2] = {};
  ranges[0].RangeType = D3D12_DESCRIPTOR_RANGE_TYPE_SRV;
  ranges[0].NumDescriptors = kSrvCount;
  ranges[0].OffsetInDescriptorsFromTableStart = 0;
  ranges[1].RangeType = D3D12_DESCRIPTOR_RANGE_TYPE_UAV;
  ranges[1].NumDescriptors = kUavCount;
  ranges[1].OffsetInDescriptorsFromTableStart = kSrvCount;

  D3D12_ROOT_PARAMETER parameters[2] = {};
  parameters[kRootConstants].ParameterType = D3D12_ROOT_PARAMETER_TYPE_CBV;
  parameters[kRootConstants].Descriptor.ShaderRegister = 0;
  parameters[kRootConstants].ShaderVisibility = D3D12_SHADER_VISIBILITY_ALL;
  parameters[kRootTable].ParameterType = D3D12_ROOT_PARAMETER_TYPE_DESCRIPTOR_TABLE;
  parameters[kRootTable].DescriptorTable.NumDescriptorRanges = 2;
  parameters[kRootTable].DescriptorTable.pDescriptorRanges = ranges;
  parameters[kRootTable].ShaderVisibility = D3D12_SHADER_VISIBILITY_ALL;

  D3D12_ROOT_SIGNATURE_DESC desc = {};
  desc.NumParameters = 2;
  desc.pParameters = parameters;

  ComPtr<ID3DBlob> blob, errors;
  HRESULT hr = SerializeRootSignature(desc, reinterpret_cast<ID3DBlob**>(blob.Receive()),
                                      reinterpret_cast<ID3DBlob**>(errors.Receive()));
  if (FAILED(hr)) return "serialising the root signature failed";
  hr = device->CreateRootSignature(0, blob->GetBufferPointer(), blob->GetBufferSize(),
                                   ComPtr<ID3D12RootSignature>::Iid(), rootSignature_.Receive());
  if (FAILED(hr)) return "CreateRootSignature failed";
  return {};
}

ID3D12PipelineState* Pipelines::Get(plan::GpuKernel kernel, uint32_t elementBytes, bool windowed,
                                    std::string* error) {
  const KernelBytecode& code = BytecodeFor(kernel, elementBytes, windowed);
  const size_t slot = static_cast<size_t>(&code - kKernelBytecode);
  std::lock_guard<std::mutex> lock(mutex_);
  if (!pipelines_[slot]) {
    D3D12_COMPUTE_PIPELINE_STATE_DESC desc = {};
    desc.pRootSignature = rootSignature_.get();
    desc.CS.pShaderBytecode = code.data;
    desc.CS.BytecodeLength = code.size;
    const HRESULT hr = device_->CreateComputePipelineState(
        &desc, ComPtr<ID3D12PipelineState>::Iid(), pipelines_[slot].Receive());
    if (FAILED(hr)) {
      *error = std::string("CreateComputePipelineState failed for kernel ") +
               plan::kGpuKernelFiles[static_cast<uint32_t>(kernel)] + ".hlsl (" +
               std::to_string(elementBytes) + "-byte elements" + (windowed ? ", view windows)" : ")");
      return nullptr;
    }
  }
  return pipelines_[slot].get();
}

void Pipelines::Release() {
  std::lock_guard<std::mutex> lock(mutex_);
  for (auto& pipeline : pipelines_) pipeline = {};
  rootSignature_ = {};
  device_ = nullptr;
}

}  // namespace gs::d3d12
