// The compiled kernels, embedded at build time (gpu/CMakeLists.txt): SPIR-V from glslc on
// Linux. One entry per kernel and element size.
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
extern const KernelBytecode kKernelBytecode[plan::kGpuKernelCount * kElementSizeVariants];

inline const KernelBytecode& BytecodeFor(plan::GpuKernel kernel, uint32_t elementBytes) {
  const uint32_t variant = elementBytes == 1 ? 0 : elementBytes == 2 ? 1 : elementBytes == 4 ? 2 : 3;
  return kKernelBytecode[static_cast<uint32_t>(kernel) * kElementSizeVariants + variant];
}

}  // namespace gs::d3d12
