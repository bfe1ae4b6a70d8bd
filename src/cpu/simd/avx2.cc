// The avx2 kernel set (built with its own compiler flags, see src/CMakeLists.txt).
#include "cpu/simd/row_kernels.h"

namespace gs::cpu::simd {

const KernelTable& Avx2Kernels() {
  static const KernelTable table = MakeTable<xsimd::avx2, KernelSet::Avx2>();
  return table;
}

}  // namespace gs::cpu::simd
