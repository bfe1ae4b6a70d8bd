// Test-only: make a D3D12 device deny optional features through CheckFeatureSupport, as a
// device without them would (feature_masking.cc says how).
#pragma once

namespace gs::test {

struct HiddenFeatures {
  bool bindingTier1At11_0 = false;  // ResourceBindingTier 1, feature level 11_0 at most
  bool typedUavLoads = false;       // TypedUAVLoadAdditionalFormats
  bool dispatches = false;          // queues made from now on run no command list (a broken runtime)
};

// From now on `device` (an ID3D12Device*) answers CheckFeatureSupport without these.
void HideDeviceFeatures(void* device, HiddenFeatures hidden);
// Undoes HideDeviceFeatures.
void RestoreDeviceFeatures(void* device);

}  // namespace gs::test
