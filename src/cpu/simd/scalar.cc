// The scalar kernel set (built with its own compiler flags, see src/CMakeLists.txt).
#define GS_SCALAR_ONLY
#include "cpu/simd/row_kernels.h"

namespace gs::cpu::simd {

const KernelTable& ScalarKernels() {
  static const KernelTable table = MakeTable<void, KernelSet::Scalar>();
  return table;
}

}  // namespace gs::cpu::simd
