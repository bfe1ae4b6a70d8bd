// Test-only: make an ID3D12Device report itself removed (device_removal.cc says how).
#pragma once

namespace gs::test {

// From now on the device answers GetDeviceRemovedReason with DXGI_ERROR_DEVICE_REMOVED, after
// healthyAnswers normal answers. `device` is an ID3D12Device*.
void SimulateDeviceRemoval(void* device, int healthyAnswers = 0);
// Undoes SimulateDeviceRemoval.
void RestoreDevice(void* device);

}  // namespace gs::test
