// Non-temporal stores, for outputs larger than the last-level cache: xsimd has no streaming
// store, so each instruction set's intrinsic is used here, with plain stores (memcpy) as the
// portable path (ARM64 among others).
// Included by row_kernels.h inside its per-set anonymous namespace.
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

#if defined(__SSE2__)
#include <immintrin.h>
#endif

namespace gs::cpu::simd {
namespace {

// Stores one 64-byte block; non-temporal when kStream (destination 64-byte aligned then).
template <class Arch, bool kStream>
inline void StoreBlock(uint8_t* destination, const uint8_t* block) {
  if constexpr (kStream && !std::is_void_v<Arch>) {
#if defined(__AVX512F__)
    _mm512_stream_si512(reinterpret_cast<__m512i*>(destination), _mm512_load_si512(block));
#elif defined(__AVX2__)
    for (int i = 0; i < 64; i += 32) {
      _mm256_stream_si256(reinterpret_cast<__m256i*>(destination + i),
                          _mm256_load_si256(reinterpret_cast<const __m256i*>(block + i)));
    }
#elif defined(__SSE2__)
    for (int i = 0; i < 64; i += 16) {
      _mm_stream_si128(reinterpret_cast<__m128i*>(destination + i),
                       _mm_load_si128(reinterpret_cast<const __m128i*>(block + i)));
    }
#else
    std::memcpy(destination, block, 64);
#endif
  } else {
    std::memcpy(destination, block, 64);
  }
}

inline constexpr uint64_t kPage = 4096;
inline constexpr uint64_t kPagesAtOnce = 4;

// Non-temporal copy: aligned vector stores that bypass the caches, memcpy for the edges.
template <class Arch>
void StreamCopy(uint8_t* destination, const uint8_t* source, uint64_t bytes) {
#if defined(__SSE2__)
  if constexpr (!std::is_void_v<Arch>) {
#if defined(__AVX512F__)
    constexpr uint64_t kVector = 64;
#elif defined(__AVX2__)
    constexpr uint64_t kVector = 32;
#else
    constexpr uint64_t kVector = 16;
#endif
    const auto stream = [&](uint64_t i) {
#if defined(__AVX512F__)
      _mm512_stream_si512(reinterpret_cast<__m512i*>(destination + i),
                          _mm512_loadu_si512(reinterpret_cast<const void*>(source + i)));
#elif defined(__AVX2__)
      _mm256_stream_si256(reinterpret_cast<__m256i*>(destination + i),
                          _mm256_loadu_si256(reinterpret_cast<const __m256i*>(source + i)));
#else
      _mm_stream_si128(reinterpret_cast<__m128i*>(destination + i),
                       _mm_loadu_si128(reinterpret_cast<const __m128i*>(source + i)));
#endif
    };
    const uint64_t misalign = reinterpret_cast<uintptr_t>(destination) % kVector;
    const uint64_t head = misalign == 0 ? 0 : (kVector - misalign < bytes ? kVector - misalign : bytes);
    if (head != 0) std::memcpy(destination, source, head);
    uint64_t i = head;
    // A line a step: a step per vector left the narrower sets' block walks (rows of 1 KiB)
    // with four times the loop's overhead. Long copies take four pages at a time, a line of
    // each in turn: four sequential streams kept more of the source in flight than one
    // (perf/results/2026-12-02-sources-read-once.md).
    const auto line = [&](uint64_t at) {
      for (uint64_t v = 0; v < 64; v += kVector) stream(at + v);
    };
    for (; i + kPagesAtOnce * kPage <= bytes; i += kPagesAtOnce * kPage) {
      for (uint64_t o = 0; o < kPage; o += 64) {
        for (uint64_t p = 0; p < kPagesAtOnce; ++p) line(i + p * kPage + o);
      }
    }
    for (; i + 64 <= bytes; i += 64) line(i);
    for (; i + kVector <= bytes; i += kVector) stream(i);
    if (i != bytes) std::memcpy(destination + i, source + i, bytes - i);
    return;
  }
#endif
  std::memcpy(destination, source, bytes);
}

// Stores one vector; non-temporal when kStream and the destination is aligned to its size.
template <class Arch, bool kStream, class Vector>
inline void StoreVector(uint8_t* destination, const Vector& v) {
  constexpr uintptr_t kBytes = sizeof(typename Vector::value_type) * Vector::size;
  if constexpr (kStream) {
    if (reinterpret_cast<uintptr_t>(destination) % kBytes == 0) {
#if defined(__AVX512F__)
      if constexpr (kBytes == 64) return _mm512_stream_si512(reinterpret_cast<__m512i*>(destination), v);
#endif
#if defined(__AVX2__)
      if constexpr (kBytes == 32) return _mm256_stream_si256(reinterpret_cast<__m256i*>(destination), v);
#endif
    }
  }
  v.store_unaligned(reinterpret_cast<typename Vector::value_type*>(destination));
}

template <class Arch>
void StreamFence() {
#if defined(__SSE2__)
  if constexpr (!std::is_void_v<Arch>) _mm_sfence();
#endif
}

}  // namespace
}  // namespace gs::cpu::simd
