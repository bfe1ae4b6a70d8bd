// Hardware gathers of 32-bit lanes. xsimd 8.1 (Debian bookworm) declares AVX2 and AVX-512
// gathers, but their enable_if never matches, so batch::gather loads one lane at a time (half
// the speed of the line kernel); and it has no masked gather. The instruction sets' masked
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

#if defined(__AVX512F__)
// AVX2's 8-lane gather of 4-byte elements on an AVX-512 set, its mask a vector (vpmovm2d):
// data[offsets[l]] in each lane l where ok bit l is set, zero in the others (which read nothing).
inline __m256i GatherLanes8(const uint8_t* data, __m256i offsets, __mmask8 ok) {
  return _mm256_mask_i32gather_epi32(_mm256_setzero_si256(), reinterpret_cast<const int*>(data), offsets,
                                     _mm256_movm_epi32(ok), 4);
}
#endif

// The 4-byte elements data[offsets[l]] of each lane l where ok[l]; zero in the other lanes,
// which read nothing. kOneRow: the lanes read one row the core has in cache (last-axis rows);
// there, on Zen 4, two of AVX2's 8-lane gathers ran faster than one of AVX-512's 16, where
// gathers that miss the cache (packed strips, tuples) ran slower that way
// (perf/results/2026-11-27-zen4-gathers.md).
template <class Arch, bool kOneRow = false>
inline xsimd::batch<int32_t, Arch> GatherLanes32(const uint8_t* data, const xsimd::batch<int32_t, Arch>& offsets,
                                                 const xsimd::batch_bool<int32_t, Arch>& ok) {
  using V = xsimd::batch<int32_t, Arch>;
#if defined(__AVX512F__)
  if constexpr (std::is_base_of_v<xsimd::avx512f, Arch>) {
    const __m512i o = offsets;
    const __mmask16 mask = ok;
    if constexpr (kOneRow) {
      const __m256i low = GatherLanes8(data, _mm512_castsi512_si256(o), static_cast<__mmask8>(mask));
      const __m256i high = GatherLanes8(data, _mm512_extracti64x4_epi64(o, 1), static_cast<__mmask8>(mask >> 8));
      return _mm512_inserti64x4(_mm512_castsi256_si512(low), high, 1);
    } else {
      return _mm512_mask_i32gather_epi32(_mm512_setzero_si512(), mask, o, data, 4);
    }
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

#if defined(__AVX512F__)
// 64-bit index lanes made positions: a negative signed value counts from the end (its lane's
// bound added); *ok marks the lanes then in [0, bound).
template <typename IndexT>
inline __m512i ResolveLanes64Avx512(__m512i p, __m512i bound, __mmask8* ok) {
  if constexpr (std::is_signed_v<IndexT>) {
    p = _mm512_mask_add_epi64(p, _mm512_cmplt_epi64_mask(p, _mm512_setzero_si512()), p, bound);
  }
  *ok = _mm512_cmplt_epu64_mask(p, bound);
  return p;
}
#endif

// The 8 index values at idx resolved against their lanes' bounds (negative signed ones count
// from the end) as 32-bit lanes, *ok marking those in bounds (the others hold garbage), on
// AVX2; flippedBound32 is bound32 with each sign bit flipped. Every bound is below 2^31, so a
// 64-bit value is in bounds only if its high half extends its low half's sign, and then its
// low half alone is resolved and checked, as a 32-bit value is: half the operations of
// resolving 64-bit lanes and narrowing them, which xsimd 8.1 would take (1.2-1.3x on the i8
// and f16 rows, perf/results/2026-11-28-avx2-positions.md).
#if defined(__AVX2__)
template <class Arch, typename IndexT>
xsimd::batch<int32_t, Arch> Positions8Avx2(const IndexT* idx, const xsimd::batch<int32_t, Arch>& bound32,
                                           const xsimd::batch<int32_t, Arch>& flippedBound32,
                                           xsimd::batch_bool<int32_t, Arch>* ok) {
  __m256i p, sane = _mm256_set1_epi32(-1);
  if constexpr (sizeof(IndexT) == 4) {
    p = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(idx));
  } else {
    // Each value's low half to the vector's low 128 bits, its high half to the high 128 bits.
    const __m256i split = _mm256_setr_epi32(0, 2, 4, 6, 1, 3, 5, 7);
    const __m256i a = _mm256_permutevar8x32_epi32(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(idx)), split);
    const __m256i b = _mm256_permutevar8x32_epi32(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(idx + 4)), split);
    p = _mm256_permute2x128_si256(a, b, 0x20);
    const __m256i high = _mm256_permute2x128_si256(a, b, 0x31);
    sane = _mm256_cmpeq_epi32(high, std::is_signed_v<IndexT> ? _mm256_srai_epi32(p, 31) : _mm256_setzero_si256());
  }
  if constexpr (std::is_signed_v<IndexT>) {
    p = _mm256_add_epi32(p, _mm256_and_si256(_mm256_cmpgt_epi32(_mm256_setzero_si256(), p), bound32));
  }
  // p < bound unsigned (a value still negative is out of bounds): a signed compare with both
  // sign bits flipped.
  const __m256i in = _mm256_cmpgt_epi32(flippedBound32, _mm256_xor_si256(p, _mm256_set1_epi32(INT32_MIN)));
  *ok = xsimd::batch_bool<int32_t, Arch>(_mm256_and_si256(in, sane));
  return p;
}
#endif

template <class Arch>
inline constexpr bool kAvx512Positions =
#if defined(__AVX512F__)
    std::is_base_of_v<xsimd::avx512f, Arch>;
#else
    false;
#endif

// The 16 index values at idx resolved against the bound (negative signed ones count from the
// end), checked (*ok) and, when 64-bit, narrowed to 32-bit lanes (out-of-bounds lanes hold
// garbage); bound32 and bound64 are the bound in each lane width. xsimd 8.1 has neither
// AVX-512's unsigned compares into a mask nor its truncation (vpmovqd): its portable form
// took about twice the operations (perf/results/2026-11-26-notes-moved-from-code.md).
// Defined only where kAvx512Positions holds (elsewhere only named, in branches that are
// never instantiated).
template <class Arch, typename IndexT>
xsimd::batch<int32_t, Arch> Positions16Avx512(const IndexT* idx, const xsimd::batch<int32_t, Arch>& bound32,
                                              const xsimd::batch<int64_t, Arch>& bound64,
                                              xsimd::batch_bool<int32_t, Arch>* ok);

#if defined(__AVX512F__)
template <class Arch, typename IndexT>
xsimd::batch<int32_t, Arch> Positions16Avx512(const IndexT* idx, const xsimd::batch<int32_t, Arch>& bound32,
                                              const xsimd::batch<int64_t, Arch>& bound64,
                                              xsimd::batch_bool<int32_t, Arch>* ok) {
  if constexpr (sizeof(IndexT) == 4) {
    const __m512i b = bound32;
    __m512i p = _mm512_loadu_si512(idx);
    if constexpr (std::is_signed_v<IndexT>) {
      p = _mm512_mask_add_epi32(p, _mm512_cmplt_epi32_mask(p, _mm512_setzero_si512()), p, b);
    }
    *ok = xsimd::batch_bool<int32_t, Arch>(_mm512_cmplt_epu32_mask(p, b));
    return p;
  } else {
    __mmask8 lowOk, highOk;
    const __m512i low = ResolveLanes64Avx512<IndexT>(_mm512_loadu_si512(idx), bound64, &lowOk);
    const __m512i high = ResolveLanes64Avx512<IndexT>(_mm512_loadu_si512(idx + 8), bound64, &highOk);
    *ok = xsimd::batch_bool<int32_t, Arch>(static_cast<__mmask16>(lowOk | (static_cast<unsigned>(highOk) << 8)));
    return _mm512_inserti64x4(_mm512_castsi256_si512(_mm512_cvtepi64_epi32(low)), _mm512_cvtepi64_epi32(high), 1);
  }
}
#endif

}  // namespace
}  // namespace gs::cpu::simd
