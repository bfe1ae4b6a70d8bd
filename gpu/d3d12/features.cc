#include "d3d12/features.h"

namespace gs::d3d12 {

DeviceFeatures QueryDeviceFeatures(ID3D12Device* device) {
  DeviceFeatures features;
  D3D12_FEATURE_DATA_D3D12_OPTIONS options = {};
  const bool haveOptions =
      SUCCEEDED(device->CheckFeatureSupport(D3D12_FEATURE_D3D12_OPTIONS, &options, sizeof options));
  if (haveOptions && options.ResourceBindingTier == D3D12_RESOURCE_BINDING_TIER_1) {
    const D3D_FEATURE_LEVEL levels[] = {D3D_FEATURE_LEVEL_11_0, D3D_FEATURE_LEVEL_11_1};
    D3D12_FEATURE_DATA_FEATURE_LEVELS query = {};
    query.NumFeatureLevels = 2;
    query.pFeatureLevelsRequested = levels;
    features.tableOf25Uavs =
        SUCCEEDED(device->CheckFeatureSupport(D3D12_FEATURE_FEATURE_LEVELS, &query, sizeof query)) &&
        query.MaxSupportedFeatureLevel >= D3D_FEATURE_LEVEL_11_1;
  }
  // As a set, so the flag decides: D3D12_FORMAT_SUPPORT2_UAV_TYPED_LOAD is not filled in
  // by vkd3d 1.2 for these formats although it runs the loads.
  features.typedUavLoadsOfSmallFormats = haveOptions && options.TypedUAVLoadAdditionalFormats;
  return features;
}

std::string MissingEngineFeature(const DeviceFeatures& features) {
  if (!features.tableOf25Uavs) {
    return "the device has D3D12_RESOURCE_BINDING_TIER_1 on feature level 11_0, which allows 8 UAVs in a "
           "descriptor table; the kernels bind 25 (they need resource binding tier 2, or feature level 11_1)";
  }
  return {};
}

std::string MissingRunFeature(const DeviceFeatures& features, const plan::Plan& plan,
                              const plan::GpuSchedule& schedule) {
  if (plan.reduction == Reduction::None) return {};
  bool combines = false;
  for (uint32_t i = 0; i < schedule.passCount; ++i) {
    combines = combines || schedule.passes[i].kernel == plan::GpuKernel::ScatterCombine;
  }
  if (!combines || plan.elementSize > 2 || features.typedUavLoadsOfSmallFormats) return {};
  return std::string("a scatter's reduction reads its output through typed UAV loads of ") +
         (plan.elementSize == 1 ? "DXGI_FORMAT_R8_UINT" : "DXGI_FORMAT_R16_UINT") +
         ", which the device lacks (D3D12_FEATURE_D3D12_OPTIONS TypedUAVLoadAdditionalFormats); ExecuteOnCpu runs it";
}

}  // namespace gs::d3d12
