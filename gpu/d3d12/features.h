// What the kernels need of a device beyond D3D12's core at feature level 11_0, asked once when
// the engine starts (CheckFeatureSupport): a device without it is refused, or the runs that
// need it are, with StatusCode::Unsupported naming the feature as D3D12 names it.
#pragma once

#include <cstdint>
#include <string>

#include "d3d12/d3d12_api.h"
#include "plan/gpu_dispatch.h"
#include "plan/plan.h"

namespace gs::d3d12 {

struct DeviceFeatures {
  // 25 UAVs in one descriptor table (gpu/hlsl/common.hlsli): resource binding tier 2, or tier 1
  // on feature level 11_1 (tier 1 on 11_0 allows 8).
  bool tableOf25Uavs = true;
  // Typed UAV loads of R8_UINT and R16_UINT, the output's format for 1- and 2-byte elements:
  // optional, as a set (TypedUAVLoadAdditionalFormats); R32_UINT, which 4- and 8-byte outputs
  // are viewed as, is core. Only a scatter's reduction reads its output.
  bool typedUavLoadsOfSmallFormats = true;
};

DeviceFeatures QueryDeviceFeatures(ID3D12Device* device);

// Empty when the engine can run on the device; else what the device lacks.
std::string MissingEngineFeature(const DeviceFeatures& features);

// Empty when the scheduled run can; else what the device lacks for it.
std::string MissingRunFeature(const DeviceFeatures& features, const plan::Plan& plan,
                              const plan::GpuSchedule& schedule);

}  // namespace gs::d3d12
