// The compiled kernels, embedded at build time (gpu/CMakeLists.txt): SPIR-V from glslc on
// Linux. One entry per kernel, element size, and without or with view windows.
#pragma once

#include <cstddef>
#include <cstdint>

#include "plan/gpu_dispatch.h"

namespace gs::d3d12 {

struct KernelBytecode {
  const void* data;
  size_t size;
};

inline constexpr uint32_t kElementSizeVariants = 4;  // 1, 2, 4, 8 bytes
inline constexpr uint32_t kWindowVariants = 2;       // one view per tensor, or the windows
inline constexpr uint32_t kKernelVariants = plan::kGpuKernelCount * kElementSizeVariants * kWindowVariants;
extern const KernelBytecode kKernelBytecode[kKernelVariants];

inline const KernelBytecode& BytecodeFor(plan::GpuKernel kernel, uint32_t elementBytes, bool windowed) {
  const uint32_t size = elementBytes == 1 ? 0 : elementBytes == 2 ? 1 : elementBytes == 4 ? 2 : 3;
  return kKernelBytecode[(static_cast<uint32_t>(kernel) * kElementSizeVariants + size) * kWindowVariants +
                         (windowed ? 1 : 0)];
}

}  // namespace gs::d3d12
