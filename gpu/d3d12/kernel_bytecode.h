// The compiled kernels, embedded at build time (gpu/CMakeLists.txt): DXBC (shader model 5.0)
// from gpu/dxbc, the one bytecode every D3D12 runtime takes (vkd3d, Windows, WSL2). One entry per
// kernel (plan/gpu_kernels.def), element size, and without or with view windows, each carrying
// its key: the generated table checks at compile time that every entry sits where
// KernelVariant looks for it.
#pragma once

#include <cstddef>
#include <cstdint>

#include "plan/gpu_dispatch.h"

namespace gs::d3d12 {

struct KernelBytecode {
  plan::GpuKernel kernel;
  uint32_t elementBytes;
  bool windowed;
  const void* data;
  size_t size;
};

inline constexpr uint32_t kElementSizeVariants = 4;  // 1, 2, 4, 8 bytes
inline constexpr uint32_t kWindowVariants = 2;       // one view per tensor, or the windows
inline constexpr uint32_t kKernelVariants = plan::kGpuKernelCount * kElementSizeVariants * kWindowVariants;

// Kernel-major, then element sizes 1, 2, 4, 8, then without and with view windows.
constexpr uint32_t KernelVariant(plan::GpuKernel kernel, uint32_t elementBytes, bool windowed) {
  const uint32_t size = elementBytes == 1 ? 0 : elementBytes == 2 ? 1 : elementBytes == 4 ? 2 : 3;
  return (static_cast<uint32_t>(kernel) * kElementSizeVariants + size) * kWindowVariants + (windowed ? 1 : 0);
}

// True when every entry of a table sits at its own key's KernelVariant.
constexpr bool EveryKernelInPlace(const KernelBytecode (&table)[kKernelVariants]) {
  for (uint32_t i = 0; i < kKernelVariants; ++i) {
    if (KernelVariant(table[i].kernel, table[i].elementBytes, table[i].windowed) != i) return false;
  }
  return true;
}

extern const KernelBytecode kKernelBytecode[kKernelVariants];

inline const KernelBytecode& BytecodeFor(plan::GpuKernel kernel, uint32_t elementBytes, bool windowed) {
  return kKernelBytecode[KernelVariant(kernel, elementBytes, windowed)];
}

}  // namespace gs::d3d12
