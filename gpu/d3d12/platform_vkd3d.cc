// Linux: the device through vkd3d (design/gpu-path.md). vkd3d_create_instance and
// vkd3d_create_device rather than vkd3d-utils' D3D12CreateDevice, which asks for surface and
// swapchain extensions that a headless machine may lack.
#include <cstdint>

#include "d3d12/platform.h"

// vkd3d.h needs these Vulkan types only as opaque handles; Debian's vkd3d does not pull in the
// Vulkan headers, so they are declared here as vulkan_core.h declares them on 64-bit Linux.
#define VKD3D_NO_VULKAN_H
typedef struct VkInstance_T* VkInstance;
typedef struct VkPhysicalDevice_T* VkPhysicalDevice;
typedef struct VkDevice_T* VkDevice;
typedef struct VkQueue_T* VkQueue;
typedef struct VkImage_T* VkImage;
typedef enum VkFormat { VK_FORMAT_UNDEFINED = 0, VK_FORMAT_MAX_ENUM = 0x7fffffff } VkFormat;
typedef void (*PFN_vkVoidFunction)(void);
typedef PFN_vkVoidFunction (*PFN_vkGetInstanceProcAddr)(VkInstance instance, const char* name);
#include <vkd3d.h>

namespace gs::d3d12 {
namespace {

// vkd3d signals fence events through this; the host waits by polling the fence instead.
HRESULT SignalEvent(HANDLE) { return S_OK; }

}  // namespace

ComPtr<ID3D12Device> CreateDefaultDevice(std::string* error) {
  vkd3d_instance_create_info instanceInfo = {};
  instanceInfo.type = VKD3D_STRUCTURE_TYPE_INSTANCE_CREATE_INFO;
  instanceInfo.pfn_signal_event = SignalEvent;
  instanceInfo.wchar_size = sizeof(WCHAR);

  vkd3d_device_create_info deviceInfo = {};
  deviceInfo.type = VKD3D_STRUCTURE_TYPE_DEVICE_CREATE_INFO;
  deviceInfo.minimum_feature_level = D3D_FEATURE_LEVEL_11_0;
  deviceInfo.instance_create_info = &instanceInfo;

  ComPtr<ID3D12Device> device;
  const HRESULT hr = vkd3d_create_device(&deviceInfo, ComPtr<ID3D12Device>::Iid(), device.Receive());
  if (FAILED(hr)) {
    *error = "vkd3d_create_device failed (HRESULT " + std::to_string(static_cast<int32_t>(hr)) +
             "): no Vulkan device? Install mesa-vulkan-drivers for lavapipe, or set "
             "VK_DRIVER_FILES to a driver's ICD json";
    return {};
  }
  return device;
}

HRESULT SerializeRootSignature(const D3D12_ROOT_SIGNATURE_DESC& desc, ID3DBlob** blob,
                               ID3DBlob** errors) {
  return vkd3d_serialize_root_signature(&desc, D3D_ROOT_SIGNATURE_VERSION_1_0, blob, errors);
}

}  // namespace gs::d3d12
