// The kernel families, templated on an xsimd architecture (void: the scalar set). Each
// simd/<set>.cc includes this once, built with that set's compiler flags, and exports a table.
#pragma once

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

#include "cpu/kernel_set.h"

namespace gs::cpu::simd {
// Internal linkage: every set's TU has its own copies, built with its own flags (a shared
// inline instantiation could hand AVX-512 code to a CPU without it).
namespace {

template <size_t N>
struct Element {
  uint8_t b[N];
};

// p = the index resolved into [0, bound); `ok` false when it is out of bounds.
template <typename IndexT>
inline uint64_t Resolve(IndexT value, uint64_t bound, bool* ok) {
  uint64_t p;
  if constexpr (std::is_signed_v<IndexT>) {
    const int64_t v = value;
    p = static_cast<uint64_t>(v < 0 ? v + static_cast<int64_t>(bound) : v);  // wraps when < 0
  } else {
    p = static_cast<uint64_t>(value);
  }
  *ok = p < bound;
  return p;
}

// Plain loads. xsimd's vector gathers (vpgatherdd, AVX2 and AVX-512) were measured on rows in
// L2 against these loads and lost on this Xeon: 0.21-0.28 ms against 0.15-0.20 ms for 32 x 4096
// float32 elements with int32 indices (perf/README.md), so the row kernels do not use them.
template <size_t N, typename IndexT>
void GatherRow(const uint8_t* data, uint64_t dataStep, uint64_t indexedStride, uint64_t bound,
               const uint8_t* indices, uint8_t* out, uint64_t n) {
  using E = Element<N>;
  const E zero{};
  const IndexT* idx = reinterpret_cast<const IndexT*>(indices);
  const E* in = reinterpret_cast<const E*>(data);
  E* o = reinterpret_cast<E*>(out);
  for (uint64_t j = 0; j < n; ++j) {
    bool ok;
    const uint64_t p = Resolve<IndexT>(idx[j], bound, &ok);
    const E* from = ok ? in + j * dataStep + p * indexedStride : &zero;
    std::memcpy(o + j, from, N);
  }
}

template <size_t N, typename IndexT>
void ScatterRow(uint8_t* data, uint64_t dataStep, uint64_t indexedStride, uint64_t bound,
                const uint8_t* indices, const uint8_t* updates, uint64_t n) {
  using E = Element<N>;
  const IndexT* idx = reinterpret_cast<const IndexT*>(indices);
  const E* u = reinterpret_cast<const E*>(updates);
  E* d = reinterpret_cast<E*>(data);
  for (uint64_t j = 0; j < n; ++j) {
    bool ok;
    const uint64_t p = Resolve<IndexT>(idx[j], bound, &ok);
    if (ok) std::memcpy(d + j * dataStep + p * indexedStride, u + j, N);
  }
}

template <typename IndexT>
uint64_t FirstBadScalar(const IndexT* idx, uint64_t begin, uint64_t n, const uint64_t* bounds,
                        uint64_t tupleSize, uint64_t firstComponent) {
  uint64_t component = (firstComponent + begin) % tupleSize;
  for (uint64_t j = begin; j < n; ++j) {
    bool ok;
    Resolve<IndexT>(idx[j], bounds[component], &ok);
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

// Non-temporal copy: aligned vector stores that bypass the caches, memcpy for the edges.
template <class Arch>
void StreamCopy(uint8_t* destination, const uint8_t* source, uint64_t bytes) {
#if defined(__AVX512F__)
  constexpr uint64_t kVector = 64;
#elif defined(__AVX2__)
  constexpr uint64_t kVector = 32;
#elif defined(__SSE2__)
  constexpr uint64_t kVector = 16;
#else
  constexpr uint64_t kVector = 0;
#endif
  if constexpr (std::is_void_v<Arch> || kVector == 0) {
    std::memcpy(destination, source, bytes);
  } else {
    const uint64_t misalign = reinterpret_cast<uintptr_t>(destination) % kVector;
    const uint64_t head = misalign == 0 ? 0 : (kVector - misalign < bytes ? kVector - misalign : bytes);
    std::memcpy(destination, source, head);
    uint64_t i = head;
    for (; i + kVector <= bytes; i += kVector) {
#if defined(__AVX512F__)
      _mm512_stream_si512(reinterpret_cast<__m512i*>(destination + i),
                          _mm512_loadu_si512(reinterpret_cast<const void*>(source + i)));
#elif defined(__AVX2__)
      _mm256_stream_si256(reinterpret_cast<__m256i*>(destination + i),
                          _mm256_loadu_si256(reinterpret_cast<const __m256i*>(source + i)));
#elif defined(__SSE2__)
      _mm_stream_si128(reinterpret_cast<__m128i*>(destination + i),
                       _mm_loadu_si128(reinterpret_cast<const __m128i*>(source + i)));
#endif
    }
    std::memcpy(destination + i, source + i, bytes - i);
  }
}

template <class Arch>
void StreamFence() {
#if defined(__SSE2__)
  if constexpr (!std::is_void_v<Arch>) _mm_sfence();
#endif
}

template <class Arch, KernelSet kSet>
KernelTable MakeTable() {
  KernelTable t = {};
  t.set = kSet;
  auto fill = [&](auto size, uint32_t log2) {
    constexpr size_t N = decltype(size)::value;
    t.gatherRow[log2][0] = GatherRow<N, int32_t>;
    t.gatherRow[log2][1] = GatherRow<N, int64_t>;
    t.gatherRow[log2][2] = GatherRow<N, uint32_t>;
    t.gatherRow[log2][3] = GatherRow<N, uint64_t>;
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
