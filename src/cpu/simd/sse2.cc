// The sse2 kernel set (built with its own compiler flags, see src/CMakeLists.txt).
#include "cpu/simd/row_kernels.h"

namespace gs::cpu::simd {

const KernelTable& Sse2Kernels() {
  static const KernelTable table = MakeTable<xsimd::sse2, KernelSet::Sse2>();
  return table;
}

}  // namespace gs::cpu::simd
