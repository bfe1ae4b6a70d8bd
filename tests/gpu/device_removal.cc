// Simulates a removed D3D12 device for tests: the device's own vtable is swapped for a copy
// whose GetDeviceRemovedReason answers DXGI_ERROR_DEVICE_REMOVED after a number of healthy
// answers, so the engine meets removal exactly where real hardware would report it.
// Compiled with the C interface (test_com_c.h); no other code of this test binary sees that
// view of the type.
#include "test_com_c.h"

#include "device_removal.h"

namespace gs::test {
namespace {

ID3D12DeviceVtbl g_removedVtbl;
const ID3D12DeviceVtbl* g_originalVtbl = nullptr;
int g_healthyAnswersLeft = 0;

HRESULT STDMETHODCALLTYPE RemovedReason(ID3D12Device* device) {
  if (g_healthyAnswersLeft > 0) {
    --g_healthyAnswersLeft;
    return g_originalVtbl->GetDeviceRemovedReason(device);
  }
  return DXGI_ERROR_DEVICE_REMOVED;
}

}  // namespace

void SimulateDeviceRemoval(void* device, int healthyAnswers) {
  auto* d = static_cast<ID3D12Device*>(device);
  if (g_originalVtbl == nullptr) g_originalVtbl = d->lpVtbl;
  g_removedVtbl = *g_originalVtbl;
  g_removedVtbl.GetDeviceRemovedReason = RemovedReason;
  g_healthyAnswersLeft = healthyAnswers;
  d->lpVtbl = &g_removedVtbl;
}

void RestoreDevice(void* device) {
  if (g_originalVtbl == nullptr) return;
  // const in Microsoft's headers, not in vkd3d's
  static_cast<ID3D12Device*>(device)->lpVtbl = const_cast<decltype(ID3D12Device::lpVtbl)>(g_originalVtbl);
  g_originalVtbl = nullptr;
}

}  // namespace gs::test
