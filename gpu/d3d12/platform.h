// The two steps the D3D12 API leaves to the platform: making a device without the caller's
// one, and serialising a root signature (d3d12.dll on Windows, vkd3d on Linux).
#pragma once

#include <string>

#include "d3d12/d3d12_api.h"

namespace gs::d3d12 {

// On failure returns an empty pointer and says why in *error.
ComPtr<ID3D12Device> CreateDefaultDevice(std::string* error);

HRESULT SerializeRootSignature(const D3D12_ROOT_SIGNATURE_DESC& desc, ID3DBlob** blob,
                               ID3DBlob** errors);

}  // namespace gs::d3d12
