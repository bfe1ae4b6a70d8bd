// GatherND pairs into 4-byte elements on AVX-512, 8 pairs a step. The xsimd kernel
// (GatherPairs4Vector) takes 16 pairs a step through 32-bit lanes, slower on AVX-512 than this
// one (perf/results/2026-11-26-notes-moved-from-code.md). xsimd 8.1 lacks what this step is made of: the two-source permute that deinterleaves pairs
// (vpermt2q), the 64-to-32-bit truncation (vpmovqd) and a gather of 8 lanes on a 16-lane
// architecture. kAvx512Pairs<Arch> says whether this kernel exists for Arch; everywhere else
// the xsimd kernel is the portable path.
#pragma once

#include <cstdint>
#include <type_traits>

#if defined(__AVX512F__) && defined(__AVX512DQ__)
#include <immintrin.h>
#endif

#include <xsimd/xsimd.hpp>

#include "cpu/simd/gather_intrinsics.h"

namespace gs::cpu::simd {
namespace {

template <class Arch>
inline constexpr bool kAvx512Pairs =
#if defined(__AVX512F__) && defined(__AVX512DQ__)
    std::is_base_of_v<xsimd::avx512dq, Arch>;
#else
    false;
#endif

// Gathers pairs [0, *done) of `indices` (8 a step; the caller does the rest) into `out`, zero
// where either component is out of bounds; returns whether all of them were in bounds. The
// caller checked that every offset fits in 31 bits. Defined only where kAvx512Pairs holds
// (elsewhere only named, in branches that are never instantiated).
template <class Arch, typename IndexT>
bool GatherPairs4Avx512(const uint8_t* data, const uint64_t* bounds, const uint64_t* strides,
                        const uint8_t* indices, uint8_t* out, uint64_t n, uint64_t* done);

#if defined(__AVX512F__) && defined(__AVX512DQ__)
template <class Arch, typename IndexT>
bool GatherPairs4Avx512(const uint8_t* data, const uint64_t* bounds, const uint64_t* strides,
                        const uint8_t* indices, uint8_t* out, uint64_t n, uint64_t* done) {
  const IndexT* idx = reinterpret_cast<const IndexT*>(indices);
  const __m512i even = _mm512_setr_epi64(0, 2, 4, 6, 8, 10, 12, 14);
  const __m512i odd = _mm512_setr_epi64(1, 3, 5, 7, 9, 11, 13, 15);
  const __m512i bound0 = _mm512_set1_epi64(static_cast<int64_t>(bounds[0]));
  const __m512i bound1 = _mm512_set1_epi64(static_cast<int64_t>(bounds[1]));
  const __m512i stride0 = _mm512_set1_epi64(static_cast<int64_t>(strides[0]));
  const __m512i stride1 = _mm512_set1_epi64(static_cast<int64_t>(strides[1]));
  // 8 index values as 64-bit lanes (4-byte indices widened with their sign or not).
  const auto load8 = [](const IndexT* from) -> __m512i {
    if constexpr (sizeof(IndexT) == 8) {
      return _mm512_loadu_si512(from);
    } else if constexpr (std::is_signed_v<IndexT>) {
      return _mm512_cvtepi32_epi64(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(from)));
    } else {
      return _mm512_cvtepu32_epi64(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(from)));
    }
  };
  bool allInBounds = true;
  uint64_t j = 0;
  for (; j + 8 <= n; j += 8) {
    const __m512i a = load8(idx + 2 * j), b = load8(idx + 2 * j + 8);
    __mmask8 ok0, ok1;
    const __m512i p0 = ResolveLanes64Avx512<IndexT>(_mm512_permutex2var_epi64(a, even, b), bound0, &ok0);
    const __m512i p1 = ResolveLanes64Avx512<IndexT>(_mm512_permutex2var_epi64(a, odd, b), bound1, &ok1);
    const __mmask8 ok = ok0 & ok1;
    allInBounds &= ok == 0xff;
    const __m512i offset = _mm512_add_epi64(_mm512_mullo_epi64(p0, stride0), _mm512_mullo_epi64(p1, stride1));
    const __m256i values =
        _mm256_mmask_i32gather_epi32(_mm256_setzero_si256(), ok, _mm512_cvtepi64_epi32(offset), data, 4);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + j * 4), values);
  }
  *done = j;
  return allInBounds;
}
#endif

}  // namespace
}  // namespace gs::cpu::simd
