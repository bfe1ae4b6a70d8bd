// Hardware gathers of 32-bit lanes. xsimd 8.1 (Debian bookworm) declares AVX2 and AVX-512
// gathers, but their enable_if never matches, so batch::gather loads one lane at a time (half
// the speed of the block kernel); and it has no masked gather. The instruction sets' masked
// gathers are used here, with xsimd's gather as the portable path.
#pragma once

#include <cstdint>
#include <type_traits>

#if defined(__AVX2__) || defined(__AVX512F__)
#include <immintrin.h>
#endif

#include <xsimd/xsimd.hpp>

namespace gs::cpu::simd {
namespace {

// The 4-byte elements data[offsets[l]] of each lane l where ok[l]; zero in the other lanes,
// which read nothing.
template <class Arch>
inline xsimd::batch<int32_t, Arch> GatherLanes32(const uint8_t* data, const xsimd::batch<int32_t, Arch>& offsets,
                                                 const xsimd::batch_bool<int32_t, Arch>& ok) {
  using V = xsimd::batch<int32_t, Arch>;
#if defined(__AVX512F__)
  if constexpr (std::is_base_of_v<xsimd::avx512f, Arch>) {
    return _mm512_mask_i32gather_epi32(_mm512_setzero_si512(), ok, offsets, data, 4);
  }
#endif
#if defined(__AVX2__)
  if constexpr (std::is_base_of_v<xsimd::avx2, Arch>) {
    return _mm256_mask_i32gather_epi32(_mm256_setzero_si256(), reinterpret_cast<const int*>(data), offsets, ok, 4);
  }
#endif
  const V values = V::gather(reinterpret_cast<const int32_t*>(data), xsimd::select(ok, offsets, V(0)));
  return xsimd::select(ok, values, V(0));
}

}  // namespace
}  // namespace gs::cpu::simd
