// The avx512 kernel set (built with its own compiler flags, see src/CMakeLists.txt).
// GCC 12 reports the _mm512_undefined_* placeholders inside its own AVX-512 intrinsics
// (cvtepi64_epi32, permutexvar and friends) as (maybe-)uninitialized; the state must be set
// before <immintrin.h> is read for the warning to see it.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#endif
#include "cpu/simd/row_kernels.h"

namespace gs::cpu::simd {

const KernelTable& Avx512Kernels() {
  static const KernelTable table = MakeTable<xsimd::avx512bw, KernelSet::Avx512>();
  return table;
}

}  // namespace gs::cpu::simd
