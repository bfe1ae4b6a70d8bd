// One D3D12 engine for a test binary, on lavapipe unless the caller chose a Vulkan driver.
#pragma once

#include <cstdlib>
#include <memory>
#include <string>

#include "gs/d3d12.h"

namespace gs_gpu_test {

// Without a GPU (CI), lavapipe; VK_DRIVER_FILES or VK_ICD_FILENAMES set by the caller wins.
// (On Windows the system's D3D12 chooses; under Wine, cmake/windows/wine-run names lavapipe.)
inline void ChooseLavapipeUnlessSet() {
#if defined(GS_LAVAPIPE_ICD) && !defined(_WIN32)
  if (std::getenv("VK_DRIVER_FILES") == nullptr && std::getenv("VK_ICD_FILENAMES") == nullptr) {
    setenv("VK_DRIVER_FILES", GS_LAVAPIPE_ICD, 1);
    setenv("VK_ICD_FILENAMES", GS_LAVAPIPE_ICD, 1);  // the name older Vulkan loaders read
  }
#endif
}

// The engine, or nullptr with *why set. Made once; the tests share it (it is thread-safe).
inline gs::D3D12Engine* SharedEngine(std::string* why) {
  static std::string reason;
  static std::unique_ptr<gs::D3D12Engine> engine = [] {
    ChooseLavapipeUnlessSet();
    std::unique_ptr<gs::D3D12Engine> made;
    const gs::Status status = gs::D3D12Engine::Create(nullptr, &made);
    if (!status.ok()) reason = status.message();
    return made;
  }();
  *why = reason;
  return engine.get();
}

}  // namespace gs_gpu_test
