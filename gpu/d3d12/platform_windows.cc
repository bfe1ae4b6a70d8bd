// Windows: the system's D3D12 (not built on Linux; the host code beside it is the same).
#include "d3d12/platform.h"

namespace gs::d3d12 {

ComPtr<ID3D12Device> CreateDefaultDevice(std::string* error) {
  ComPtr<ID3D12Device> device;
  const HRESULT hr = D3D12CreateDevice(nullptr, D3D_FEATURE_LEVEL_11_0,
                                       ComPtr<ID3D12Device>::Iid(), device.Receive());
  if (FAILED(hr)) {
    *error = "D3D12CreateDevice failed (HRESULT " + std::to_string(static_cast<long>(hr)) + ")";
    return {};
  }
  return device;
}

HRESULT SerializeRootSignature(const D3D12_ROOT_SIGNATURE_DESC& desc, ID3DBlob** blob,
                               ID3DBlob** errors) {
  return D3D12SerializeRootSignature(&desc, D3D_ROOT_SIGNATURE_VERSION_1_0, blob, errors);
}

}  // namespace gs::d3d12
