// float16 reductions converting in hardware (KernelTable::halfCombine, halfFoldRow): with F16C
// in the x86 sets built with it (avx2, avx512), with FCVTL/FCVTN in neon64; elsewhere
// FillHalfFolds leaves the generic folds. Included by row_kernels.h.
#pragma once

#include <cstdint>

#include "cpu/kernel_set.h"

#if defined(__F16C__)
#include <immintrin.h>
#define GS_HARDWARE_HALF 1
#elif defined(__aarch64__) && !defined(GS_SCALAR_ONLY)
#include <arm_neon.h>
#define GS_HARDWARE_HALF 1
#endif

#if defined(GS_HARDWARE_HALF)
#include "cpu/folds.h"
#endif

namespace gs::cpu::simd {
namespace {

#if defined(__F16C__)

// Exact to binary32, and back rounded to nearest even (the immediate says so, whatever MXCSR
// holds), infinities from 65520 up, subnormals kept: what float16.h does in software. A NaN
// never goes back: the folds make it the canonical one.
struct HardwareHalf {
  static float ToFloat(uint16_t h) { return _cvtsh_ss(h); }
  static uint16_t FromFloatNotNaN(float value) {
    // _mm_cvtps_ph rather than _cvtss_sh: clang's _cvtss_sh is a macro with a C99 compound
    // literal, which -Wpedantic flags in every clang build (sanitize, fuzz).
    return static_cast<uint16_t>(_mm_cvtsi128_si32(_mm_cvtps_ph(_mm_set_ss(value), _MM_FROUND_TO_NEAREST_INT)));
  }
};

// Eight 32-bit lane masks as eight 16-bit ones.
inline __m128i NarrowMask(__m256 mask) {
  const __m256i m = _mm256_castps_si256(mask);
  return _mm_packs_epi32(_mm256_castsi256_si128(m), _mm256_extractf128_si256(m, 1));
}

// CombineArray's arithmetic on 8 halves, picking as CombineFloat does.
template <Reduction R>
void CombineEight(uint8_t* accumulator, const uint8_t* update) {
  __m128i* at = reinterpret_cast<__m128i*>(accumulator);
  const __m128i accBits = _mm_loadu_si128(at);
  const __m128i updateBits = _mm_loadu_si128(reinterpret_cast<const __m128i*>(update));
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

#elif defined(GS_HARDWARE_HALF)

// FCVT between binary16 and binary32: exact one way, rounded by FPCR the other, which
// IeeeFloatScope sets to nearest even with IEEE halves (AHP clear) and no flushing, as
// float16.h converts. A NaN never goes back.
struct HardwareHalf {
  static float ToFloat(uint16_t h) {
    __fp16 half;
    std::memcpy(&half, &h, 2);
    return half;
  }
  static uint16_t FromFloatNotNaN(float value) {
    const __fp16 half = static_cast<__fp16>(value);
    uint16_t h;
    std::memcpy(&h, &half, 2);
    return h;
  }
};

// CombineArray's arithmetic on 8 halves (converted 4 lanes at a time each way), picking as
// CombineFloat does.
template <Reduction R>
void CombineEight(uint8_t* accumulator, const uint8_t* update) {
  uint16_t* at = reinterpret_cast<uint16_t*>(accumulator);
  const uint16x8_t accBits = vld1q_u16(at);
  const uint16x8_t updateBits = vld1q_u16(reinterpret_cast<const uint16_t*>(update));
  const float16x8_t accHalves = vreinterpretq_f16_u16(accBits), updateHalves = vreinterpretq_f16_u16(updateBits);
  const float32x4_t aLow = vcvt_f32_f16(vget_low_f16(accHalves)), aHigh = vcvt_high_f32_f16(accHalves);
  const float32x4_t bLow = vcvt_f32_f16(vget_low_f16(updateHalves)), bHigh = vcvt_high_f32_f16(updateHalves);
  auto isNaN = [](float32x4_t x) { return vmvnq_u32(vceqq_f32(x, x)); };
  auto narrow = [](uint32x4_t low, uint32x4_t high) { return vcombine_u16(vmovn_u32(low), vmovn_u32(high)); };
  uint16x8_t result;
  if constexpr (R == Reduction::Add || R == Reduction::Multiply) {
    const float32x4_t rLow = R == Reduction::Add ? vaddq_f32(aLow, bLow) : vmulq_f32(aLow, bLow);
    const float32x4_t rHigh = R == Reduction::Add ? vaddq_f32(aHigh, bHigh) : vmulq_f32(aHigh, bHigh);
    const uint16x8_t rounded = vreinterpretq_u16_f16(vcvt_high_f16_f32(vcvt_f16_f32(rLow), rHigh));
    result = vbslq_u16(narrow(isNaN(rLow), isNaN(rHigh)), vdupq_n_u16(0x7e00), rounded);
  } else {
    // The update where acc is no NaN and the update is one, or lies strictly beyond acc.
    auto take = [&](float32x4_t a, float32x4_t b) {
      const uint32x4_t beyond = R == Reduction::Min ? vcltq_f32(b, a) : vcgtq_f32(b, a);
      return vbicq_u32(vorrq_u32(isNaN(b), beyond), isNaN(a));
    };
    result = vbslq_u16(narrow(take(aLow, bLow), take(aHigh, bHigh)), updateBits, accBits);
  }
  vst1q_u16(at, result);
}

#endif

#if defined(GS_HARDWARE_HALF)

// 8 halves a step, the tail one value at a time.
template <Reduction R>
void CombineHalves(uint8_t* accumulator, const uint8_t* update, uint64_t count) {
  uint64_t i = 0;
  for (; i + 8 <= count; i += 8) CombineEight<R>(accumulator + 2 * i, update + 2 * i);
  CombineArray<DataType::Float16, R, Picks::OneValue, HardwareHalf>(accumulator + 2 * i, update + 2 * i, count - i);
}

template <Reduction R>
void FillHalfFolds(KernelTable* t) {
  const uint32_t r = static_cast<uint32_t>(R) - 1;
  t->halfCombine[r] = CombineHalves<R>;
  t->halfFoldRow[r][0] = FoldRow<DataType::Float16, R, int32_t, HardwareHalf>;
  t->halfFoldRow[r][1] = FoldRow<DataType::Float16, R, int64_t, HardwareHalf>;
  t->halfFoldRow[r][2] = FoldRow<DataType::Float16, R, uint32_t, HardwareHalf>;
  t->halfFoldRow[r][3] = FoldRow<DataType::Float16, R, uint64_t, HardwareHalf>;
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
