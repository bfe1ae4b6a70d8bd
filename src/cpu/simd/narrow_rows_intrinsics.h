// Rows of 1- and 2-byte elements on the sets with a hardware gather: the 32-bit word at each
// element's byte offset is gathered and its lanes narrowed to the element size (AVX-512:
// vpmovdb, vpmovdw; AVX2: saturating packs), since the line kernel's scalar loop is bound by
// one element at a time whatever it is made of (perf/results/2026-11-26-notes-moved-from-code.md).
// xsimd 8.1 has no gather and no truncation.
#pragma once

#include <cstdint>
#include <type_traits>

#if defined(__AVX2__) || defined(__AVX512F__)
#include <immintrin.h>
#endif

#include <xsimd/xsimd.hpp>

#include "cpu/kernel_set.h"
#include "cpu/simd/gather_intrinsics.h"
#include "cpu/simd/next_row_hints.h"
#include "cpu/simd/stream_intrinsics.h"
#include "cpu/simd/vector_rows.h"

namespace gs::cpu::simd {
namespace {

// Gathers whole 64-byte output blocks of a row (out[j] = data[j * dataStep + p * indexedStride],
// zero out of bounds) and sets *done to the elements gathered; the caller does the rest.
// Every word read lies in [data, data + extentBytes), the bytes the row may read: a word that
// would cross its end is read 1-3 bytes earlier and shifted. The caller checked that every
// byte offset fits in 31 bits and that extentBytes >= 4. Returns whether every index of the
// blocks was in bounds. kOneRow: the caller knows dataStep is 0 and indexedStride 1 (a
// last-axis row); its words are gathered 8 lanes at a time, as GatherLanes32 does for one row.
// Defined only where kAvx512Positions holds. GatherRowNarrowAvx2 keeps the same contract for
// the avx2 set, 8 elements a gather (defined where __AVX2__ is).
template <class Arch, size_t N, typename IndexT, bool kStream, bool kTrack, bool kOneRow>
bool GatherRowNarrowAvx512(const uint8_t* data, uint64_t dataStep, uint64_t indexedStride, uint64_t bound,
                           uint64_t extentBytes, const uint8_t* indices, uint8_t* out, uint64_t n,
                           NextRowData next, uint64_t* done);
template <class Arch, size_t N, typename IndexT, bool kStream, bool kTrack, bool kOneRow>
bool GatherRowNarrowAvx2(const uint8_t* data, uint64_t dataStep, uint64_t indexedStride, uint64_t bound,
                         uint64_t extentBytes, const uint8_t* indices, uint8_t* out, uint64_t n,
                         NextRowData next, uint64_t* done);

#if defined(__AVX512F__)
// The 8 index values at idx resolved against the bound (negative signed ones count from the
// end) as 32-bit lanes, *ok marking those in bounds (the others hold garbage).
template <typename IndexT>
inline __m256i Positions8Avx512(const IndexT* idx, __m256i bound32, __m512i bound64, __mmask8* ok) {
  if constexpr (sizeof(IndexT) == 4) {
    __m256i p = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(idx));
    if constexpr (std::is_signed_v<IndexT>) {
      p = _mm256_mask_add_epi32(p, _mm256_cmplt_epi32_mask(p, _mm256_setzero_si256()), p, bound32);
    }
    *ok = _mm256_cmplt_epu32_mask(p, bound32);
    return p;
  } else {
    return _mm512_cvtepi64_epi32(ResolveLanes64Avx512<IndexT>(_mm512_loadu_si512(idx), bound64, ok));
  }
}

template <class Arch, size_t N, typename IndexT, bool kStream, bool kTrack, bool kOneRow>
bool GatherRowNarrowAvx512(const uint8_t* data, uint64_t dataStep, uint64_t indexedStride, uint64_t bound,
                           uint64_t extentBytes, const uint8_t* indices, uint8_t* out, uint64_t n,
                           NextRowData next, uint64_t* done) {
  static_assert(N == 1 || N == 2);
  constexpr uint64_t kBlock = 64 / N;  // elements a 64-byte block
  const IndexT* idx = reinterpret_cast<const IndexT*>(indices);
  const xsimd::batch<int32_t, Arch> bound32(static_cast<int32_t>(bound));
  const xsimd::batch<int64_t, Arch> bound64(static_cast<int64_t>(bound));
  const __m512i strideBytes = _mm512_set1_epi32(static_cast<int32_t>(indexedStride * N));
  const __m512i lastWord = _mm512_set1_epi32(static_cast<int32_t>(extentBytes - 4));
  const __m512i laneBytes = _mm512_mullo_epi32(
      _mm512_set_epi32(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0), _mm512_set1_epi32(N));
  NextRowHints hints(next, n / kBlock);
  IndexHints indexHints(indices, n * sizeof(IndexT), kBlock * sizeof(IndexT), next);
  __mmask16 allOk = 0xffff;
  // The 16 elements from j on, one per 32-bit lane (the low N bytes); *ok marks those in bounds
  // (the others may hold anything). Every lane's word lies inside the row's bytes, an
  // out-of-bounds lane's too (the min), so kOneRow's gathers need no mask.
  const auto gather16 = [&](uint64_t j, __mmask16* ok) {
    if constexpr (kOneRow) {
      __m256i halves[2];
      __mmask8 halfOk[2];
      for (uint64_t h = 0; h < 2; ++h) {
        const __m256i at = _mm256_slli_epi32(
            Positions8Avx512<IndexT>(idx + j + 8 * h, _mm512_castsi512_si256(bound32), bound64, &halfOk[h]), N / 2);
        const __m256i word = _mm256_min_epu32(at, _mm512_castsi512_si256(lastWord));
        const __m256i words = _mm256_i32gather_epi32(reinterpret_cast<const int*>(data), word, 1);
        halves[h] = _mm256_srlv_epi32(words, _mm256_slli_epi32(_mm256_sub_epi32(at, word), 3));
      }
      *ok = static_cast<__mmask16>(halfOk[0] | (halfOk[1] << 8));
      return _mm512_inserti64x4(_mm512_castsi256_si512(halves[0]), halves[1], 1);
    } else {
      xsimd::batch_bool<int32_t, Arch> inBounds;
      const __m512i p = Positions16Avx512<Arch, IndexT>(idx + j, bound32, bound64, &inBounds);
      *ok = inBounds;
      __m512i at = indexedStride == 1 ? _mm512_slli_epi32(p, N / 2) : _mm512_mullo_epi32(p, strideBytes);
      if (dataStep != 0) at = _mm512_add_epi32(at, _mm512_add_epi32(laneBytes, _mm512_set1_epi32(static_cast<int32_t>(j * N))));
      const __m512i word = _mm512_min_epu32(at, lastWord);
      const __m512i values = _mm512_mask_i32gather_epi32(_mm512_setzero_si512(), *ok, word, data, 1);
      return _mm512_srlv_epi32(values, _mm512_slli_epi32(_mm512_sub_epi32(at, word), 3));
    }
  };
  // The 16 elements from j on truncated to N bytes each, zero where out of bounds.
  const auto narrow16 = [&](uint64_t j) {
    __mmask16 ok;
    const __m512i values = gather16(j, &ok);
    if constexpr (kTrack) allOk &= ok;
    if constexpr (N == 1) {
      return _mm512_castsi128_si512(_mm512_maskz_cvtepi32_epi8(ok, values));
    } else {
      return _mm512_castsi256_si512(_mm512_maskz_cvtepi32_epi16(ok, values));
    }
  };
  uint64_t j = 0;
  for (; j + kBlock <= n; j += kBlock) {
    hints.Block();
    indexHints.Block();
    __m512i block;
    if constexpr (N == 1) {
      block = narrow16(j);
      block = _mm512_inserti32x4(block, _mm512_castsi512_si128(narrow16(j + 16)), 1);
      block = _mm512_inserti32x4(block, _mm512_castsi512_si128(narrow16(j + 32)), 2);
      block = _mm512_inserti32x4(block, _mm512_castsi512_si128(narrow16(j + 48)), 3);
    } else {
      block = _mm512_inserti64x4(narrow16(j), _mm512_castsi512_si256(narrow16(j + 16)), 1);
    }
    StoreVector<Arch, kStream>(out + j * N, xsimd::batch<int32_t, Arch>(block));
  }
  *done = j;
  return allOk == 0xffff;
}
#endif

#if defined(__AVX2__)
template <class Arch, size_t N, typename IndexT, bool kStream, bool kTrack, bool kOneRow>
bool GatherRowNarrowAvx2(const uint8_t* data, uint64_t dataStep, uint64_t indexedStride, uint64_t bound,
                         uint64_t extentBytes, const uint8_t* indices, uint8_t* out, uint64_t n,
                         NextRowData next, uint64_t* done) {
  static_assert(N == 1 || N == 2);
  using V = Lanes32<Arch>;
  constexpr uint64_t kBlock = 64 / N;  // elements a 64-byte block
  const IndexT* idx = reinterpret_cast<const IndexT*>(indices);
  const LaneBounds<Arch> bounds(V(static_cast<int32_t>(bound)), Lanes64<Arch>(static_cast<int64_t>(bound)));
  const __m256i strideBytes = _mm256_set1_epi32(static_cast<int32_t>(indexedStride * N));
  const __m256i lastWord = _mm256_set1_epi32(static_cast<int32_t>(extentBytes - 4));
  const __m256i laneBytes = _mm256_setr_epi32(0, N, 2 * N, 3 * N, 4 * N, 5 * N, 6 * N, 7 * N);
  const __m256i elementBits = _mm256_set1_epi32(N == 1 ? 0xff : 0xffff);
  NextRowHints hints(next, n / kBlock);
  IndexHints indexHints(indices, n * sizeof(IndexT), kBlock * sizeof(IndexT), next);
  xsimd::batch_bool<int32_t, Arch> allOk(true);
  // The 8 elements from j on, one per 32-bit lane, zero where out of bounds. Every lane's word
  // lies inside the row's bytes, an out-of-bounds lane's too (the min), so the gather needs no
  // mask.
  const auto gather8 = [&](uint64_t j) {
    const Positions<Arch> p = LoadPositions<Arch, IndexT>(idx + j, bounds);
    if constexpr (kTrack) allOk = allOk & p.ok;
    __m256i at;
    if constexpr (kOneRow) {
      at = _mm256_slli_epi32(p.at, N / 2);
    } else {
      at = indexedStride == 1 ? _mm256_slli_epi32(p.at, N / 2) : _mm256_mullo_epi32(p.at, strideBytes);
      if (dataStep != 0) {
        at = _mm256_add_epi32(at, _mm256_add_epi32(laneBytes, _mm256_set1_epi32(static_cast<int32_t>(j * N))));
      }
    }
    const __m256i word = _mm256_min_epu32(at, lastWord);
    const __m256i words = _mm256_i32gather_epi32(reinterpret_cast<const int*>(data), word, 1);
    const __m256i values = _mm256_srlv_epi32(words, _mm256_slli_epi32(_mm256_sub_epi32(at, word), 3));
    return _mm256_and_si256(values, _mm256_and_si256(p.ok, elementBits));
  };
  // The 32 output bytes from element j on. The packs saturate, exact here (each lane holds one
  // element), and interleave 128-bit halves, which the permute puts back in order.
  const auto half = [&](uint64_t j) {
    if constexpr (N == 1) {
      const __m256i ab = _mm256_packus_epi32(gather8(j), gather8(j + 8));
      const __m256i cd = _mm256_packus_epi32(gather8(j + 16), gather8(j + 24));
      return _mm256_permutevar8x32_epi32(_mm256_packus_epi16(ab, cd), _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7));
    } else {
      return _mm256_permute4x64_epi64(_mm256_packus_epi32(gather8(j), gather8(j + 8)), 0xd8);
    }
  };
  uint64_t j = 0;
  for (; j + kBlock <= n; j += kBlock) {
    hints.Block();
    indexHints.Block();
    StoreVector<Arch, kStream>(out + j * N, V(half(j)));
    StoreVector<Arch, kStream>(out + j * N + 32, V(half(j + kBlock / 2)));
  }
  *done = j;
  return xsimd::all(allOk);
}
#endif

}  // namespace
}  // namespace gs::cpu::simd
