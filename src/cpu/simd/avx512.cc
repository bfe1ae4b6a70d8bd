// The avx512 kernel set (built with its own compiler flags, see src/CMakeLists.txt).
#include "cpu/simd/row_kernels.h"

namespace gs::cpu::simd {

const KernelTable& Avx512Kernels() {
  static const KernelTable table = MakeTable<xsimd::avx512bw, KernelSet::Avx512>();
  return table;
}

}  // namespace gs::cpu::simd
