// The neon64 kernel set of ARM64 (Advanced SIMD is part of every ARMv8-A CPU, so it needs no
// flags of its own and is always supported there).
#include "cpu/simd/row_kernels.h"

namespace gs::cpu::simd {

const KernelTable& Neon64Kernels() {
  static const KernelTable table = MakeTable<xsimd::neon64, KernelSet::Neon64>();
  return table;
}

}  // namespace gs::cpu::simd
