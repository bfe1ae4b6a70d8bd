// The kernel families, templated on an xsimd architecture (void: the scalar set). Each
// simd/<set>.cc includes this once, built with that set's compiler flags, and exports a table.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#if defined(__SSE2__)
#include <immintrin.h>
#endif
#ifndef GS_SCALAR_ONLY
#include <xsimd/xsimd.hpp>
#endif

#include "cpu/elements.h"
#include "cpu/simd/stream_intrinsics.h"
#include "cpu/kernel_set.h"

namespace gs::cpu::simd {
// Internal linkage: every set's TU has its own copies, built with its own flags (a shared
// inline instantiation could hand AVX-512 code to a CPU without it).
namespace {

// Output in 64-byte blocks, each gathered into registers and stored at once: a fixed-length
// inner loop with no branch (out-of-bounds elements load element 0, always in the view, and
// are replaced by zero), then one vector store, non-temporal when kStream. `source(j, &offset)`
// sets the element that output j reads and says whether its index is in bounds. Measured on
// rows of 4096 float32 with int64 indices against one store per element: 1.4-1.9x faster
// (perf/README.md). kTrack (checked mode): returns whether every index was in bounds;
// otherwise true, and the count is not kept (it costs 1-byte rows a fifth of their speed).
template <class Arch, size_t N, bool kStream, bool kTrack, class Source>
bool GatherBlocks(const uint8_t* data, uint8_t* out, uint64_t n, Source source) {
  using W = Word<N>;
  constexpr uint64_t kBlock = 64 / N;
  // Out-of-bounds elements are counted in a register of the loop that loads them (a flag
  // written through a reference could alias the byte stores and be reloaded every element).
  const auto element = [&](uint64_t j, uint64_t* bad) -> W {
    uint64_t offset;
    const bool ok = source(j, &offset);
    if constexpr (kTrack) *bad += !ok;
    W value;
    std::memcpy(&value, data + (ok ? offset : 0) * N, N);
    return ok ? value : W{0};
  };
  uint64_t bad = 0;
  uint64_t j = 0;
  // Non-temporal stores need 64-byte aligned blocks: elements one by one up to the first.
  const bool stream = kStream && reinterpret_cast<uintptr_t>(out) % N == 0;
  if (stream) {
    const uint64_t misaligned = reinterpret_cast<uintptr_t>(out) % 64;
    const uint64_t head = std::min<uint64_t>(n, misaligned == 0 ? 0 : (64 - misaligned) / N);
    for (; j < head; ++j) {
      const W value = element(j, &bad);
      std::memcpy(out + j * N, &value, N);
    }
  }
  for (; j + kBlock <= n; j += kBlock) {
    // Small elements are packed into 8-byte words first: 8 stores a block, not 64 / N, for
    // the vector load of StoreBlock to wait on. Element l of a word sits at byte l * N.
    alignas(64) uint64_t block[8];
    constexpr uint64_t kPerWord = 8 / N;
    constexpr bool kLittleEndian = __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__;
    uint64_t blockBad = 0;
    for (uint64_t w = 0; w < 8; ++w) {
      uint64_t word = 0;
      for (uint64_t l = 0; l < kPerWord; ++l) {
        const uint64_t shift = (kLittleEndian ? l : kPerWord - 1 - l) * 8 * N;
        word |= static_cast<uint64_t>(element(j + w * kPerWord + l, &blockBad)) << shift;
      }
      block[w] = word;
    }
    bad += blockBad;
    if (stream) {
      StoreBlock<Arch, true>(out + j * N, reinterpret_cast<const uint8_t*>(block));
    } else {
      StoreBlock<Arch, false>(out + j * N, reinterpret_cast<const uint8_t*>(block));
    }
  }
  for (; j < n; ++j) {
    const W value = element(j, &bad);
    std::memcpy(out + j * N, &value, N);
  }
  return bad == 0;
}

#if defined(__AVX512F__)
// The offsets j * dataStep + p * indexedStride of 16 output elements [j, j + 16) as 32-bit
// lanes, and in `ok` the lanes whose index is in bounds (the others' offsets are garbage).
// The caller checked that every in-bounds offset fits in 31 bits and dataStep is 0 or 1.
template <typename IndexT>
inline __m512i Offsets16(const IndexT* idx, uint64_t j, uint64_t bound, uint64_t dataStep,
                         uint64_t indexedStride, __mmask16* ok) {
  __m512i p;
  if constexpr (sizeof(IndexT) == 8) {
    const __m512i vb = _mm512_set1_epi64(static_cast<int64_t>(bound));
    __m512i a = _mm512_loadu_si512(idx + j), b = _mm512_loadu_si512(idx + j + 8);
    if constexpr (std::is_signed_v<IndexT>) {
      a = _mm512_mask_add_epi64(a, _mm512_movepi64_mask(a), a, vb);
      b = _mm512_mask_add_epi64(b, _mm512_movepi64_mask(b), b, vb);
    }
    *ok = static_cast<__mmask16>(_mm512_cmplt_epu64_mask(a, vb) |
                                 (static_cast<uint32_t>(_mm512_cmplt_epu64_mask(b, vb)) << 8));
    p = _mm512_inserti64x4(_mm512_castsi256_si512(_mm512_cvtepi64_epi32(a)),
                           _mm512_cvtepi64_epi32(b), 1);
  } else {
    const __m512i vb = _mm512_set1_epi32(static_cast<int32_t>(bound));
    p = _mm512_loadu_si512(idx + j);
    if constexpr (std::is_signed_v<IndexT>) p = _mm512_mask_add_epi32(p, _mm512_movepi32_mask(p), p, vb);
    *ok = _mm512_cmplt_epu32_mask(p, vb);
  }
  if (indexedStride != 1) p = _mm512_mullo_epi32(p, _mm512_set1_epi32(static_cast<int32_t>(indexedStride)));
  if (dataStep != 0) {
    const __m512i lane = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    p = _mm512_add_epi32(p, _mm512_add_epi32(lane, _mm512_set1_epi32(static_cast<int32_t>(j))));
  }
  return p;
}

// 16 elements of a row of 4-byte elements: one masked vector gather (zero where out of
// bounds) and one store, non-temporal when kStream and aligned.
template <typename IndexT, bool kStream>
inline bool GatherVector4(const uint8_t* data, uint64_t dataStep, uint64_t indexedStride,
                          uint64_t bound, const IndexT* idx, uint64_t j, uint8_t* out) {
  __mmask16 ok;
  const __m512i offsets = Offsets16(idx, j, bound, dataStep, indexedStride, &ok);
  const __m512i values = _mm512_mask_i32gather_epi32(_mm512_setzero_si512(), ok, offsets, data, 4);
  if (kStream && reinterpret_cast<uintptr_t>(out + j * 4) % 64 == 0) {
    _mm512_stream_si512(reinterpret_cast<__m512i*>(out + j * 4), values);
  } else {
    _mm512_storeu_si512(out + j * 4, values);
  }
  return ok == 0xffff;
}
inline constexpr uint64_t kVectorLanes4 = 16;
#elif defined(__AVX2__)
// The AVX2 forms of the above: 8 lanes, masks as all-ones lanes. Indices are compared as
// signed, which is exact here: bound <= 2^30, and unsigned values of 2^31 / 2^63 or more read
// as negative (out of bounds, as they are).
template <typename IndexT>
inline __m256i Offsets8(const IndexT* idx, uint64_t j, uint64_t bound, uint64_t dataStep,
                        uint64_t indexedStride, __m256i* ok) {
  const __m256i zero = _mm256_setzero_si256();
  __m256i p;
  if constexpr (sizeof(IndexT) == 8) {
    const __m256i vb = _mm256_set1_epi64x(static_cast<int64_t>(bound));
    __m256i a = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(idx + j));
    __m256i b = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(idx + j + 4));
    if constexpr (std::is_signed_v<IndexT>) {
      a = _mm256_add_epi64(a, _mm256_and_si256(_mm256_cmpgt_epi64(zero, a), vb));
      b = _mm256_add_epi64(b, _mm256_and_si256(_mm256_cmpgt_epi64(zero, b), vb));
    }
    const __m256i okA = _mm256_andnot_si256(_mm256_cmpgt_epi64(zero, a), _mm256_cmpgt_epi64(vb, a));
    const __m256i okB = _mm256_andnot_si256(_mm256_cmpgt_epi64(zero, b), _mm256_cmpgt_epi64(vb, b));
    // The low 32 bits of each 64-bit lane, a's four then b's four.
    const __m256i low = _mm256_setr_epi32(0, 2, 4, 6, 1, 3, 5, 7);
    const auto narrow = [&](__m256i x, __m256i y) {
      return _mm256_permute2x128_si256(_mm256_permutevar8x32_epi32(x, low),
                                       _mm256_permutevar8x32_epi32(y, low), 0x20);
    };
    p = narrow(a, b);
    *ok = narrow(okA, okB);
  } else {
    const __m256i vb = _mm256_set1_epi32(static_cast<int32_t>(bound));
    p = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(idx + j));
    if constexpr (std::is_signed_v<IndexT>) {
      p = _mm256_add_epi32(p, _mm256_and_si256(_mm256_cmpgt_epi32(zero, p), vb));
    }
    *ok = _mm256_andnot_si256(_mm256_cmpgt_epi32(zero, p), _mm256_cmpgt_epi32(vb, p));
  }
  if (indexedStride != 1) p = _mm256_mullo_epi32(p, _mm256_set1_epi32(static_cast<int32_t>(indexedStride)));
  if (dataStep != 0) {
    const __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    p = _mm256_add_epi32(p, _mm256_add_epi32(lane, _mm256_set1_epi32(static_cast<int32_t>(j))));
  }
  return p;
}

template <typename IndexT, bool kStream>
inline bool GatherVector4(const uint8_t* data, uint64_t dataStep, uint64_t indexedStride,
                          uint64_t bound, const IndexT* idx, uint64_t j, uint8_t* out) {
  __m256i ok;
  const __m256i offsets = Offsets8(idx, j, bound, dataStep, indexedStride, &ok);
  const __m256i values = _mm256_mask_i32gather_epi32(_mm256_setzero_si256(),
                                                     reinterpret_cast<const int*>(data), offsets, ok, 4);
  if (kStream && reinterpret_cast<uintptr_t>(out + j * 4) % 32 == 0) {
    _mm256_stream_si256(reinterpret_cast<__m256i*>(out + j * 4), values);
  } else {
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + j * 4), values);
  }
  return _mm256_movemask_epi8(ok) == -1;
}
inline constexpr uint64_t kVectorLanes4 = 8;
#endif

#if defined(__AVX512F__) || defined(__AVX2__)
// Rows of 4-byte elements where every offset fits in 31 bits and dataStep is 0 or 1 (last-axis
// rows, packed strips): a vector of indices resolved and bounds-checked at once, then one
// masked vector gather. On rows in L1/L2 this beat the block kernel by 1.2-1.6x (AVX-512;
// AVX2 forced on the same Xeon: 0.51-0.54 of copy with the block kernel). For 1- and 2-byte
// elements, which have no gather, loading one by one from the vector's offsets was slower
// than the block kernel.
template <typename IndexT, bool kStream>
bool GatherRow4Vector(const uint8_t* data, uint64_t dataStep, uint64_t indexedStride,
                      uint64_t bound, const uint8_t* indices, uint8_t* out, uint64_t n) {
  const IndexT* idx = reinterpret_cast<const IndexT*>(indices);
  bool allInBounds = true;
  uint64_t j = 0;
  for (; j + kVectorLanes4 <= n; j += kVectorLanes4) {
    allInBounds &= GatherVector4<IndexT, kStream>(data, dataStep, indexedStride, bound, idx, j, out);
  }
  for (; j < n; ++j) {
    bool ok;
    const uint64_t p = ResolveIndex<IndexT>(idx[j], bound, &ok);
    allInBounds &= ok;
    uint32_t value = 0;
    if (ok) std::memcpy(&value, data + (j * dataStep + p * indexedStride) * 4, 4);
    std::memcpy(out + j * 4, &value, 4);
  }
  return allInBounds;
}
#endif

// The two layouts the plan makes most, without multiplies: every output element of the row
// reads one data row (last axis: step 0, stride 1), and packed strips (step 1).
template <class Arch, size_t N, typename IndexT, bool kStream, bool kTrack>
bool GatherRow(const uint8_t* data, uint64_t dataStep, uint64_t indexedStride, uint64_t bound,
               const uint8_t* indices, uint8_t* out, uint64_t n) {
#if defined(__AVX512F__) || defined(__AVX2__)
  // Offsets below 2^31: lane offsets are 32-bit, and the gather's are signed.
  if constexpr (N == 4) {
    if (dataStep <= 1 && n < (uint64_t{1} << 30) && bound <= (uint64_t{1} << 30) &&
        indexedStride < (uint64_t{1} << 31) &&
        (bound - 1) * indexedStride + n * dataStep < (uint64_t{1} << 31)) {
      return GatherRow4Vector<IndexT, kStream>(data, dataStep, indexedStride, bound, indices, out, n);
    }
  }
#endif
  const IndexT* idx = reinterpret_cast<const IndexT*>(indices);
  // Output j reads offset(j, p) for its resolved index p.
  const auto from = [&](auto offset) {
    return [=](uint64_t j, uint64_t* to) {
      bool ok;
      *to = offset(j, ResolveIndex<IndexT>(idx[j], bound, &ok));
      return ok;
    };
  };
  if (dataStep == 0 && indexedStride == 1) {
    return GatherBlocks<Arch, N, kStream, kTrack>(data, out, n, from([](uint64_t, uint64_t p) { return p; }));
  }
  if (dataStep == 1) {
    return GatherBlocks<Arch, N, kStream, kTrack>(
        data, out, n, from([=](uint64_t j, uint64_t p) { return j + p * indexedStride; }));
  }
  return GatherBlocks<Arch, N, kStream, kTrack>(
      data, out, n, from([=](uint64_t j, uint64_t p) { return j * dataStep + p * indexedStride; }));
}

// Rows of tuples (GatherND element gathers): out[j] = data[sum over c of p_c * strides[c]],
// p_c the resolved component c of tuple j (indices[j * tupleSize + c]), zero when any is out
// of bounds; through GatherBlocks.
template <class Arch, size_t N, typename IndexT>
bool GatherTupleBlocks(const uint8_t* data, const uint64_t* bounds, const uint64_t* strides,
                       uint64_t tupleSize, const uint8_t* indices, uint8_t* out, uint64_t n) {
  const IndexT* idx = reinterpret_cast<const IndexT*>(indices);
  return GatherBlocks<Arch, N, false, true>(data, out, n, [&](uint64_t j, uint64_t* to) {
    uint64_t offset = 0;
    bool all = true;
    for (uint64_t c = 0; c < tupleSize; ++c) {
      bool ok;
      const uint64_t p = ResolveIndex<IndexT>(idx[j * tupleSize + c], bounds[c], &ok);
      all = all && ok;
      offset += p * strides[c];
    }
    *to = offset;
    return all;
  });
}

#if defined(__AVX512F__)
// Pairs (2-D coordinates) into 4-byte elements on AVX-512: 8 tuples deinterleaved, resolved and
// bounds-checked at once, then one masked gather with 32-bit offsets (the caller checked that
// every offset fits in 31 bits).
template <class Arch, typename IndexT>
bool GatherPairs4Avx512(const uint8_t* data, const uint64_t* bounds, const uint64_t* strides,
                        const uint8_t* indices, uint8_t* out, uint64_t n) {
  const IndexT* idx = reinterpret_cast<const IndexT*>(indices);
  const __m512i even = _mm512_setr_epi64(0, 2, 4, 6, 8, 10, 12, 14);
  const __m512i odd = _mm512_setr_epi64(1, 3, 5, 7, 9, 11, 13, 15);
  const __m512i bound0 = _mm512_set1_epi64(static_cast<int64_t>(bounds[0]));
  const __m512i bound1 = _mm512_set1_epi64(static_cast<int64_t>(bounds[1]));
  const __m512i stride0 = _mm512_set1_epi64(static_cast<int64_t>(strides[0]));
  const __m512i stride1 = _mm512_set1_epi64(static_cast<int64_t>(strides[1]));
  // 16 index values as 64-bit lanes (4-byte indices widened with their sign or not).
  const auto load8 = [&](const IndexT* from) -> __m512i {
    if constexpr (sizeof(IndexT) == 8) {
      return _mm512_loadu_si512(from);
    } else if constexpr (std::is_signed_v<IndexT>) {
      return _mm512_cvtepi32_epi64(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(from)));
    } else {
      return _mm512_cvtepu32_epi64(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(from)));
    }
  };
  const auto resolve = [](__m512i p, __m512i bound) {
    if constexpr (std::is_signed_v<IndexT>) p = _mm512_mask_add_epi64(p, _mm512_movepi64_mask(p), p, bound);
    return p;
  };
  bool allInBounds = true;
  uint64_t j = 0;
  for (; j + 8 <= n; j += 8) {
    const __m512i a = load8(idx + 2 * j), b = load8(idx + 2 * j + 8);
    const __m512i p0 = resolve(_mm512_permutex2var_epi64(a, even, b), bound0);
    const __m512i p1 = resolve(_mm512_permutex2var_epi64(a, odd, b), bound1);
    const __mmask8 ok = _mm512_cmplt_epu64_mask(p0, bound0) & _mm512_cmplt_epu64_mask(p1, bound1);
    allInBounds &= ok == 0xff;
    const __m512i offset = _mm512_add_epi64(_mm512_mullo_epi64(p0, stride0), _mm512_mullo_epi64(p1, stride1));
    const __m256i values =
        _mm256_mmask_i32gather_epi32(_mm256_setzero_si256(), ok, _mm512_cvtepi64_epi32(offset), data, 4);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + j * 4), values);
  }
  return GatherTupleBlocks<Arch, 4, IndexT>(data, bounds, strides, 2, indices + 2 * j * sizeof(IndexT),
                                            out + j * 4, n - j) &&
         allInBounds;
}
#endif

template <class Arch, size_t N, typename IndexT>
bool GatherTupleRow(const uint8_t* data, const uint64_t* bounds, const uint64_t* strides,
                    uint64_t tupleSize, const uint8_t* indices, uint8_t* out, uint64_t n) {
#if defined(__AVX512F__)
  if constexpr (N == 4) {
    // Offsets below 2^31: the gather's offsets are signed 32-bit.
    const bool fits = bounds[0] <= (uint64_t{1} << 31) && bounds[1] <= (uint64_t{1} << 31) &&
                      strides[0] < (uint64_t{1} << 31) && strides[1] < (uint64_t{1} << 31) &&
                      (bounds[0] - 1) * strides[0] + (bounds[1] - 1) * strides[1] < (uint64_t{1} << 31);
    if (tupleSize == 2 && fits) {
      return GatherPairs4Avx512<Arch, IndexT>(data, bounds, strides, indices, out, n);
    }
  }
#endif
  return GatherTupleBlocks<Arch, N, IndexT>(data, bounds, strides, tupleSize, indices, out, n);
}

template <size_t N, typename IndexT>
void ScatterRow(uint8_t* data, uint64_t dataStep, uint64_t indexedStride, uint64_t bound,
                const uint8_t* indices, const uint8_t* updates, uint64_t n) {
  using E = Bytes<N>;
  const IndexT* idx = reinterpret_cast<const IndexT*>(indices);
  const E* u = reinterpret_cast<const E*>(updates);
  E* d = reinterpret_cast<E*>(data);
  for (uint64_t j = 0; j < n; ++j) {
    bool ok;
    const uint64_t p = ResolveIndex<IndexT>(idx[j], bound, &ok);
    if (ok) std::memcpy(d + j * dataStep + p * indexedStride, u + j, N);
  }
}

template <typename IndexT>
uint64_t FirstBadScalar(const IndexT* idx, uint64_t begin, uint64_t n, const uint64_t* bounds,
                        uint64_t tupleSize, uint64_t firstComponent) {
  uint64_t component = (firstComponent + begin) % tupleSize;
  for (uint64_t j = begin; j < n; ++j) {
    bool ok;
    ResolveIndex<IndexT>(idx[j], bounds[component], &ok);
    if (!ok) return j;
    if (++component == tupleSize) component = 0;
  }
  return n;
}

// Vector bounds check: each lane compares against its component's [low, high). Unsigned
// indices are compared as signed with low = 0 (values above the signed maximum then read as
// negative: out of bounds, as they are). Falls back to scalar where bounds do not fit.
template <class Arch, typename IndexT>
uint64_t FirstBad(const uint8_t* indices, uint64_t n, const uint64_t* bounds, uint64_t tupleSize,
                  uint64_t firstComponent) {
  const IndexT* idx = reinterpret_cast<const IndexT*>(indices);
#ifndef GS_SCALAR_ONLY
  if constexpr (!std::is_void_v<Arch>) {
    using S = std::make_signed_t<IndexT>;
    using B = xsimd::batch<S, Arch>;
    constexpr uint64_t L = B::size;
    bool fits = L % tupleSize == 0;
    for (uint64_t c = 0; c < tupleSize; ++c) {
      fits = fits && bounds[c] <= static_cast<uint64_t>(std::numeric_limits<S>::max());
    }
    if (fits) {
      alignas(64) S low[L], high[L];
      for (uint64_t l = 0; l < L; ++l) {
        const S b = static_cast<S>(bounds[(firstComponent + l) % tupleSize]);
        high[l] = b;
        low[l] = std::is_signed_v<IndexT> ? static_cast<S>(-b) : S(0);
      }
      const B vlow = B::load_aligned(low), vhigh = B::load_aligned(high);
      const S* s = reinterpret_cast<const S*>(idx);
      auto bad = [&](uint64_t j) {
        const B v = B::load_unaligned(s + j);
        return (v < vlow) || (v >= vhigh);
      };
      uint64_t j = 0;
      for (; j + 4 * L <= n; j += 4 * L) {
        if (xsimd::any(bad(j) || bad(j + L) || bad(j + 2 * L) || bad(j + 3 * L))) break;
      }
      for (; j + L <= n; j += L) {
        if (xsimd::any(bad(j))) return FirstBadScalar(idx, j, n, bounds, tupleSize, firstComponent);
      }
      return FirstBadScalar(idx, j, n, bounds, tupleSize, firstComponent);
    }
  }
#endif
  return FirstBadScalar(idx, 0, n, bounds, tupleSize, firstComponent);
}

// [tracked][log2][IndexKind] of one element size, plain or streamed.
template <class Arch, size_t N, bool kStream>
void FillGatherRows(GatherRowFn (&rows)[2][4][4], uint32_t log2) {
  rows[0][log2][0] = GatherRow<Arch, N, int32_t, kStream, false>;
  rows[0][log2][1] = GatherRow<Arch, N, int64_t, kStream, false>;
  rows[0][log2][2] = GatherRow<Arch, N, uint32_t, kStream, false>;
  rows[0][log2][3] = GatherRow<Arch, N, uint64_t, kStream, false>;
  rows[1][log2][0] = GatherRow<Arch, N, int32_t, kStream, true>;
  rows[1][log2][1] = GatherRow<Arch, N, int64_t, kStream, true>;
  rows[1][log2][2] = GatherRow<Arch, N, uint32_t, kStream, true>;
  rows[1][log2][3] = GatherRow<Arch, N, uint64_t, kStream, true>;
}

template <class Arch, KernelSet kSet>
KernelTable MakeTable() {
  KernelTable t = {};
  t.set = kSet;
  auto fill = [&](auto size, uint32_t log2) {
    constexpr size_t N = decltype(size)::value;
    FillGatherRows<Arch, N, false>(t.gatherRow, log2);
    FillGatherRows<Arch, N, true>(t.gatherRowStreamed, log2);
    t.gatherTupleRow[log2][0] = GatherTupleRow<Arch, N, int32_t>;
    t.gatherTupleRow[log2][1] = GatherTupleRow<Arch, N, int64_t>;
    t.gatherTupleRow[log2][2] = GatherTupleRow<Arch, N, uint32_t>;
    t.gatherTupleRow[log2][3] = GatherTupleRow<Arch, N, uint64_t>;
    t.scatterRow[log2][0] = ScatterRow<N, int32_t>;
    t.scatterRow[log2][1] = ScatterRow<N, int64_t>;
    t.scatterRow[log2][2] = ScatterRow<N, uint32_t>;
    t.scatterRow[log2][3] = ScatterRow<N, uint64_t>;
  };
  fill(std::integral_constant<size_t, 1>{}, 0);
  fill(std::integral_constant<size_t, 2>{}, 1);
  fill(std::integral_constant<size_t, 4>{}, 2);
  fill(std::integral_constant<size_t, 8>{}, 3);
  t.firstBad[0] = FirstBad<Arch, int32_t>;
  t.firstBad[1] = FirstBad<Arch, int64_t>;
  t.firstBad[2] = FirstBad<Arch, uint32_t>;
  t.firstBad[3] = FirstBad<Arch, uint64_t>;
  t.streamCopy = StreamCopy<Arch>;
  t.streamFence = StreamFence<Arch>;
  return t;
}

}  // namespace
}  // namespace gs::cpu::simd
