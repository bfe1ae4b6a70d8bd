// Hides optional D3D12 features: the device's own vtable is swapped for a copy whose
// CheckFeatureSupport asks the real one and then clears what is hidden, so the engine meets
// the answers of a device without the feature exactly where it asks.
#include "test_com_c.h"

#include "feature_masking.h"

namespace gs::test {
namespace {

ID3D12DeviceVtbl g_maskedVtbl;
const ID3D12DeviceVtbl* g_originalVtbl = nullptr;
HiddenFeatures g_hidden;
ID3D12CommandQueueVtbl g_idleQueueVtbl;
const ID3D12CommandQueueVtbl* g_queueVtbl = nullptr;

// Queues made while g_hidden.dispatches is set accept command lists and run none of them;
// their fences are still signalled, so nothing waits forever.
void STDMETHODCALLTYPE IgnoredExecuteCommandLists(ID3D12CommandQueue*, UINT, ID3D12CommandList* const*) {}

HRESULT STDMETHODCALLTYPE MaskedCreateCommandQueue(ID3D12Device* device, const D3D12_COMMAND_QUEUE_DESC* desc,
                                                   REFIID riid, void** queue) {
  const HRESULT hr = g_originalVtbl->CreateCommandQueue(device, desc, riid, queue);
  if (FAILED(hr) || !g_hidden.dispatches) return hr;
  auto* q = static_cast<ID3D12CommandQueue*>(*queue);
  if (g_queueVtbl == nullptr) g_queueVtbl = q->lpVtbl;
  g_idleQueueVtbl = *g_queueVtbl;
  g_idleQueueVtbl.ExecuteCommandLists = IgnoredExecuteCommandLists;
  q->lpVtbl = &g_idleQueueVtbl;
  return hr;
}

HRESULT STDMETHODCALLTYPE MaskedCheckFeatureSupport(ID3D12Device* device, D3D12_FEATURE feature, void* data,
                                                    UINT size) {
  const HRESULT hr = g_originalVtbl->CheckFeatureSupport(device, feature, data, size);
  if (FAILED(hr)) return hr;
  if (feature == D3D12_FEATURE_D3D12_OPTIONS) {
    auto* options = static_cast<D3D12_FEATURE_DATA_D3D12_OPTIONS*>(data);
    if (g_hidden.bindingTier1At11_0) options->ResourceBindingTier = D3D12_RESOURCE_BINDING_TIER_1;
    if (g_hidden.typedUavLoads) options->TypedUAVLoadAdditionalFormats = FALSE;
  } else if (feature == D3D12_FEATURE_FEATURE_LEVELS && g_hidden.bindingTier1At11_0) {
    static_cast<D3D12_FEATURE_DATA_FEATURE_LEVELS*>(data)->MaxSupportedFeatureLevel = D3D_FEATURE_LEVEL_11_0;
  }
  return hr;
}

}  // namespace

void HideDeviceFeatures(void* device, HiddenFeatures hidden) {
  auto* d = static_cast<ID3D12Device*>(device);
  if (g_originalVtbl == nullptr) g_originalVtbl = d->lpVtbl;
  g_maskedVtbl = *g_originalVtbl;
  g_maskedVtbl.CheckFeatureSupport = MaskedCheckFeatureSupport;
  g_maskedVtbl.CreateCommandQueue = MaskedCreateCommandQueue;
  g_hidden = hidden;
  d->lpVtbl = &g_maskedVtbl;
}

void RestoreDeviceFeatures(void* device) {
  if (g_originalVtbl == nullptr) return;
  // const in Microsoft's headers, not in vkd3d's
  static_cast<ID3D12Device*>(device)->lpVtbl = const_cast<decltype(ID3D12Device::lpVtbl)>(g_originalVtbl);
  g_originalVtbl = nullptr;
}

}  // namespace gs::test
