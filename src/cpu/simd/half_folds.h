// float16 reductions converting with F16C (KernelTable::halfCombine, halfFoldRow), in the sets
// built with it (avx2, avx512); elsewhere FillHalfFolds leaves the generic folds. Included by
// row_kernels.h.
#pragma once

#include <cstdint>

#include "cpu/kernel_set.h"

#if defined(__F16C__)
#include <immintrin.h>

#include "cpu/folds.h"
#endif

namespace gs::cpu::simd {
namespace {

#if defined(__F16C__)

// Exact to binary32, and back rounded to nearest even (the immediate says so, whatever MXCSR
// holds), infinities from 65520 up, subnormals kept: what float16.h does in software. A NaN
// never goes back: the folds make it the canonical one.
struct F16cHalf {
  static float ToFloat(uint16_t h) { return _cvtsh_ss(h); }
  static uint16_t FromFloatNotNaN(float value) {
    return static_cast<uint16_t>(_cvtss_sh(value, _MM_FROUND_TO_NEAREST_INT));
  }
};

// Eight 32-bit lane masks as eight 16-bit ones.
inline __m128i NarrowMask(__m256 mask) {
  const __m256i m = _mm256_castps_si256(mask);
  return _mm_packs_epi32(_mm256_castsi256_si128(m), _mm256_extractf128_si256(m, 1));
}

// CombineArray's arithmetic 8 halves a step, picking as CombineFloat does; the tail one value at
// a time.
template <Reduction R>
void CombineHalves(uint8_t* accumulator, const uint8_t* update, uint64_t count) {
  uint64_t i = 0;
  for (; i + 8 <= count; i += 8) {
    __m128i* at = reinterpret_cast<__m128i*>(accumulator + 2 * i);
    const __m128i accBits = _mm_loadu_si128(at);
    const __m128i updateBits = _mm_loadu_si128(reinterpret_cast<const __m128i*>(update + 2 * i));
    const __m256 a = _mm256_cvtph_ps(accBits), b = _mm256_cvtph_ps(updateBits);
    __m128i result;
    if constexpr (R == Reduction::Add || R == Reduction::Multiply) {
      const __m256 r = R == Reduction::Add ? _mm256_add_ps(a, b) : _mm256_mul_ps(a, b);
      result = _mm_blendv_epi8(_mm256_cvtps_ph(r, _MM_FROUND_TO_NEAREST_INT), _mm_set1_epi16(0x7e00),
                               NarrowMask(_mm256_cmp_ps(r, r, _CMP_UNORD_Q)));
    } else {
      // The update where acc is no NaN and the update is one, or lies strictly beyond acc.
      const __m256 beyond = R == Reduction::Min ? _mm256_cmp_ps(b, a, _CMP_LT_OQ) : _mm256_cmp_ps(b, a, _CMP_GT_OQ);
      const __m256 take = _mm256_andnot_ps(_mm256_cmp_ps(a, a, _CMP_UNORD_Q),
                                           _mm256_or_ps(_mm256_cmp_ps(b, b, _CMP_UNORD_Q), beyond));
      result = _mm_blendv_epi8(accBits, updateBits, NarrowMask(take));
    }
    _mm_storeu_si128(at, result);
  }
  CombineArray<DataType::Float16, R, Picks::OneValue, F16cHalf>(accumulator + 2 * i, update + 2 * i, count - i);
}

template <Reduction R>
void FillHalfFolds(KernelTable* t) {
  const uint32_t r = static_cast<uint32_t>(R) - 1;
  t->halfCombine[r] = CombineHalves<R>;
  t->halfFoldRow[r][0] = FoldRow<DataType::Float16, R, int32_t, F16cHalf>;
  t->halfFoldRow[r][1] = FoldRow<DataType::Float16, R, int64_t, F16cHalf>;
  t->halfFoldRow[r][2] = FoldRow<DataType::Float16, R, uint32_t, F16cHalf>;
  t->halfFoldRow[r][3] = FoldRow<DataType::Float16, R, uint64_t, F16cHalf>;
}

inline void FillHalfFolds(KernelTable* t) {
  FillHalfFolds<Reduction::Add>(t);
  FillHalfFolds<Reduction::Multiply>(t);
  FillHalfFolds<Reduction::Min>(t);
  FillHalfFolds<Reduction::Max>(t);
}

#else

inline void FillHalfFolds(KernelTable*) {}

#endif

}  // namespace
}  // namespace gs::cpu::simd
