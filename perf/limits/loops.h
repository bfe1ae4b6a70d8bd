// gs-limits' loops: each does a suite case's memory accesses and nothing of gs. Included once,
// by limits.cc, which builds the cases' buffers and names the loops.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

#if defined(__x86_64__)
// GCC 12 flags the _mm512_undefined_* placeholders inside its own intrinsics (cvtepi64_epi32,
// i32gather) as maybe uninitialized; set before <immintrin.h>, as src/cpu/simd/avx512.cc does.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#endif
#include <immintrin.h>
#define GS_LIMITS_X86 1
#define GS_AVX512 __attribute__((target("avx512f,avx512bw,avx512vl,avx512dq")))
#endif
// The walks below are inlined into each loop, the AVX-512 ones included, so that a walk's
// per-block or per-row step (a functor) inlines into it with the loop's own target.
#define GS_ALWAYS_INLINE __attribute__((always_inline)) inline

namespace gs_limits {
namespace {

constexpr size_t kLine = 64;  // a cache line; also the 64 output bytes a prefetch goes with

// ---- 1. Last-axis GatherElements: out[r][j] = in[r][idx[r][j]], rows of `cols` elements ----

template <class E, class I>
struct LastAxis {
  const E* in;
  const I* idx;
  E* out;
  size_t rows, cols;
};

// The case's bytes in the same order, nothing random: the ceiling its traffic allows.
// Locals, not a's members: a 1-byte store may alias them, which would stop vectorization.
template <class E, class I>
void Traffic(const LastAxis<E, I>& a, size_t begin, size_t end) {
  const E* __restrict in = a.in;
  const I* __restrict idx = a.idx;
  E* __restrict out = a.out;
  for (size_t i = begin * a.cols, n = end * a.cols; i < n; ++i)
    out[i] = static_cast<E>(in[i] ^ static_cast<E>(idx[i]));
}

#ifdef GS_LIMITS_X86
// The same loop built for AVX-512: the default target's SSE2 narrows int64 to one byte slowly
// enough to cap the i8 case on one thread.
template <class E, class I>
GS_AVX512 void TrafficAvx512(const LastAxis<E, I>& a, size_t begin, size_t end) {
  const E* __restrict in = a.in;
  const I* __restrict idx = a.idx;
  E* __restrict out = a.out;
  for (size_t i = begin * a.cols, n = end * a.cols; i < n; ++i)
    out[i] = static_cast<E>(in[i] ^ static_cast<E>(idx[i]));
}
#endif

template <class E, class I>
GS_ALWAYS_INLINE void ScalarElements(const E* row, const I* x, E* o, size_t j, size_t n,
                                     size_t cols) {
  for (size_t k = j; k < j + n; ++k) {
    const uint64_t i = static_cast<uint64_t>(x[k]);  // a negative index is huge here
    if (i >= cols) std::abort();
    o[k] = row[i];
  }
}

// Rows [begin, end), 64 output bytes (a block) at a time. kNextRow: before each block one line
// of the next row's input, so that the next row arrives spread over this one, not in a burst.
template <class E, class I, bool kNextRow, class Block>
GS_ALWAYS_INLINE void WalkLastAxis(const LastAxis<E, I>& a, size_t begin, size_t end, Block block) {
  constexpr size_t kBlock = kLine / sizeof(E);
  for (size_t r = begin; r < end; ++r) {
    const E* row = a.in + r * a.cols;
    const char* next = reinterpret_cast<const char*>(row + a.cols);
    const bool prefetch = kNextRow && r + 1 < a.rows;
    for (size_t j = 0; j < a.cols; j += kBlock) {
      if (prefetch) __builtin_prefetch(next + j * sizeof(E), 0, 3);
      block(row, a.idx + r * a.cols, a.out + r * a.cols, j, std::min(kBlock, a.cols - j));
    }
  }
}

// The plain checked loop (PyTorch's gather loop).
template <class E, class I, bool kNextRow>
void ScalarRows(const LastAxis<E, I>& a, size_t begin, size_t end) {
  WalkLastAxis<E, I, kNextRow>(a, begin, end,
                               [&a](const E* row, const I* x, E* o, size_t j, size_t n) {
                                 ScalarElements(row, x, o, j, n, a.cols);
                               });
}

#ifdef GS_LIMITS_X86
// 16 indices as 32-bit lanes; aborts on one outside [0, cols), as the scalar loop does.
template <class I>
GS_AVX512 GS_ALWAYS_INLINE __m512i Load16(const I* x, size_t cols) {
  if constexpr (sizeof(I) == 8) {
    const __m512i lo = _mm512_loadu_si512(x), hi = _mm512_loadu_si512(x + 8);
    const __m512i bound = _mm512_set1_epi64(static_cast<long long>(cols));
    if (_mm512_cmpge_epu64_mask(lo, bound) | _mm512_cmpge_epu64_mask(hi, bound)) std::abort();
    return _mm512_inserti64x4(_mm512_castsi256_si512(_mm512_cvtepi64_epi32(lo)),
                              _mm512_cvtepi64_epi32(hi), 1);
  } else {
    const __m512i v = _mm512_loadu_si512(x);
    if (_mm512_cmpge_epu32_mask(v, _mm512_set1_epi32(static_cast<int>(cols)))) std::abort();
    return v;
  }
}

// 16 lanes gathered at kScale bytes an index: one AVX-512 gather, or (kLanes8) two of AVX2's
// 8 lanes, the form gs's avx512 set takes for last-axis rows (Zen 4 gathers faster that way:
// perf/results/2026-11-27-zen4-gathers.md).
template <bool kLanes8, int kScale>
GS_AVX512 GS_ALWAYS_INLINE __m512i Gather16(const void* base, __m512i i) {
  if constexpr (kLanes8) {
    const int* b = static_cast<const int*>(base);
    const __m256i low = _mm256_i32gather_epi32(b, _mm512_castsi512_si256(i), kScale);
    const __m256i high = _mm256_i32gather_epi32(b, _mm512_extracti64x4_epi64(i, 1), kScale);
    return _mm512_inserti64x4(_mm512_castsi256_si512(low), high, 1);
  } else {
    return _mm512_i32gather_epi32(i, base, kScale);
  }
}

// One block of 64 output bytes by 16-lane gathers. 4-byte elements: the elements gathered,
// streamed when the output is 64-byte aligned. 1 and 2 bytes: the 32-bit words at byte offset
// idx * sizeof(E) (the input has 64 spare bytes at its end), narrowed to E and stored.
template <class E, class I, bool kLanes8>
struct GatherBlock {
  size_t cols;
  bool stream;
  GS_AVX512 void operator()(const E* row, const I* x, E* o, size_t j, size_t n) const {
    if (n * sizeof(E) != kLine) return ScalarElements(row, x, o, j, n, cols);  // a short last block
    for (size_t k = j; k < j + n; k += 16) {
      const __m512i i = Load16(x + k, cols);
      if constexpr (sizeof(E) == 4) {
        const __m512i v = Gather16<kLanes8, 4>(row, i);
        if (stream) {
          _mm512_stream_si512(reinterpret_cast<__m512i*>(o + k), v);
        } else {
          _mm512_storeu_si512(o + k, v);
        }
      } else {
        const __m512i v = Gather16<kLanes8, 1>(row, _mm512_slli_epi32(i, sizeof(E) / 2));
        if constexpr (sizeof(E) == 2) {
          _mm256_storeu_si256(reinterpret_cast<__m256i*>(o + k), _mm512_cvtepi32_epi16(v));
        } else {
          _mm_storeu_si128(reinterpret_cast<__m128i*>(o + k), _mm512_cvtepi32_epi8(v));
        }
      }
    }
  }
};

template <class E, class I, bool kNextRow, bool kLanes8 = false>
GS_AVX512 void VectorRows(const LastAxis<E, I>& a, size_t begin, size_t end) {
  const bool stream = sizeof(E) == 4 && reinterpret_cast<uintptr_t>(a.out) % kLine == 0 &&
                      a.cols * sizeof(E) % kLine == 0;
  WalkLastAxis<E, I, kNextRow>(a, begin, end, GatherBlock<E, I, kLanes8>{a.cols, stream});
  _mm_sfence();  // the streamed lines are visible before the slice counts as done
}

// The vector loop over the same 8 rows again and again (each slice its own, from its first
// row), stored plainly: their indices, input and output stay in L2, so the rate is that of the
// loop's instructions, the gathers' above all.
template <class E, class I, bool kLanes8>
GS_AVX512 void VectorRowsInCache(const LastAxis<E, I>& a, size_t begin, size_t end) {
  constexpr size_t kHotRows = 8;
  const size_t first = std::min(begin, a.rows - kHotRows);
  for (size_t r = begin; r < end; ++r) {
    const size_t hot = first + (r - begin) % kHotRows;
    WalkLastAxis<E, I, false>(a, hot, hot + 1, GatherBlock<E, I, kLanes8>{a.cols, false});
  }
}
#endif

// ---- 2. Axis-0 GatherElements / ScatterElements: their kernel's walk, without the gather ----

struct Strips {
  const int64_t* idx;
  float* out;
  size_t rows, cols;
};
constexpr size_t kStrip = 64;  // columns: 512 index bytes and 256 output bytes a row

// (int32_t) first: the default target (SSE2) converts that 4 at a time; only bytes matter.
void Convert(const int64_t* x, float* o, size_t n) {
  for (size_t k = 0; k < n; ++k) o[k] = static_cast<float>(static_cast<int32_t>(x[k]));
}

// Strips [begin, end) of 64 columns; down a strip, each row's 64 indices read and 64 floats
// written (rows 32 KiB and 16 KiB apart). kAhead: both prefetched kAhead rows ahead.
template <size_t kAhead>
void StripPattern(const Strips& s, size_t begin, size_t end) {
  for (size_t strip = begin; strip < end; ++strip) {
    const size_t c0 = strip * kStrip, w = std::min(kStrip, s.cols - c0);
    for (size_t r = 0; r < s.rows; ++r) {
      if (kAhead > 0 && r + kAhead < s.rows) {
        const char* x = reinterpret_cast<const char*>(s.idx + (r + kAhead) * s.cols + c0);
        const char* o = reinterpret_cast<const char*>(s.out + (r + kAhead) * s.cols + c0);
        for (size_t b = 0; b < w * sizeof(int64_t); b += kLine) __builtin_prefetch(x + b, 0, 3);
        for (size_t b = 0; b < w * sizeof(float); b += kLine) __builtin_prefetch(o + b, 1, 3);
      }
      Convert(s.idx + r * s.cols + c0, s.out + r * s.cols + c0, w);
    }
  }
}

// The strip pattern plus the gathers themselves, from a packed strip the size gs packs (the
// strip's 64 columns of all 4096 rows, 1 MiB: half an L2 on a 2 MiB-L2 core, all of this
// EPYC's); each output element reads column k of the row its index names, a random line of
// the scratch. The packing itself is left out, so this is an upper bound for the method.
void StripGather(const Strips& s, size_t begin, size_t end) {
  thread_local std::vector<float> scratch;
  scratch.resize(s.rows * kStrip, 1.0f);
  for (size_t strip = begin; strip < end; ++strip) {
    const size_t c0 = strip * kStrip, w = std::min(kStrip, s.cols - c0);
    for (size_t r = 0; r < s.rows; ++r) {
      const int64_t* x = s.idx + r * s.cols + c0;
      float* o = s.out + r * s.cols + c0;
      for (size_t k = 0; k < w; ++k) {
        const uint64_t p = static_cast<uint64_t>(x[k]);
        if (p >= s.rows) std::abort();
        o[k] = scratch[p * kStrip + k];
      }
    }
  }
}

// The same bytes row-major, sequentially (units are rows).
void RowMajorTraffic(const Strips& s, size_t begin, size_t end) {
  Convert(s.idx + begin * s.cols, s.out + begin * s.cols, (end - begin) * s.cols);
}

// ---- 3, 4. Row gathers and the row scatter: whole rows between a table and a dense side ----

template <class I>
struct Rows {
  char* table;
  const I* idx;
  char* dense;                              // a gather's output, a scatter's updates
  size_t table_rows, per_batch, row_bytes;  // per batch: table rows, dense rows
};

// sequential_rows' copy: 64 bytes a step (16-byte moves at the default target), at copy speed.
// Not glibc's memcpy: given 1 or 2 KiB blocks whose destination - source is within 512 bytes
// of a multiple of 4 KiB (consecutive 1 KiB rows), glibc 2.36's AVX-512 memcpy takes its
// backward loop (a 4K-aliasing check) and runs at half speed on this machine.
struct LineCopy {
  void operator()(char* d, const char* s, size_t n) const {
    size_t b = 0;
    for (; b + kLine <= n; b += kLine) __builtin_memcpy(d + b, s + b, kLine);
    if (b < n) std::memcpy(d + b, s + b, n - b);
  }
};

// random_rows' copy: what a plain implementation calls. Its wide vectors keep more rows in
// flight than LineCopy's 16-byte moves, which matters when every row misses.
struct Memcpy {
  void operator()(char* d, const char* s, size_t n) const { std::memcpy(d, s, n); }
};

// Dense rows [begin, end): batch g's row j goes with table row g * table_rows + t, t = idx[j]
// (kRandom) or the next table row (wrapping); a gather copies table to dense, a scatter dense
// to table. kAhead: every line of the table row kAhead rows ahead prefetched, into L1 or, when
// kIntoL2, into L2 only (prefetcht1: with L1 hints the loop stalls once the core's L1 miss
// buffers are full).
template <bool kScatter, bool kRandom, size_t kAhead, class I, class Copy, bool kIntoL2 = false>
GS_ALWAYS_INLINE void WalkRows(const Rows<I>& s, size_t begin, size_t end, Copy copy) {
  const size_t n = s.table_rows, q = s.per_batch, bytes = s.row_bytes;
  for (size_t g = begin / q; g * q < end; ++g) {
    char* table = s.table + g * n * bytes;
    auto row = [&](size_t j) {
      const uint64_t t = static_cast<uint64_t>(s.idx[j]);
      if (t >= n) std::abort();
      return table + t * bytes;
    };
    const size_t j0 = std::max(begin, g * q), j1 = std::min(end, g * q + q);
    size_t next = (j0 - g * q) % n;
    for (size_t j = j0; j < j1; ++j) {
      if (kAhead > 0 && j + kAhead < j1) {
        const char* p = row(j + kAhead);
        for (size_t b = 0; b < bytes; b += kLine) __builtin_prefetch(p + b, 0, kIntoL2 ? 2 : 3);
      }
      char* t = table + next * bytes;
      if (kRandom) {
        t = row(j);
      } else if (++next == n) {
        next = 0;
      }
      char* d = s.dense + j * bytes;
      if (kScatter) {
        copy(t, d, bytes);
      } else {
        copy(d, t, bytes);
      }
    }
  }
}

template <bool kScatter, bool kRandom, class Copy, class I>
void CopyRows(const Rows<I>& s, size_t begin, size_t end) {
  WalkRows<kScatter, kRandom, 0>(s, begin, end, Copy{});
}

#ifdef GS_LIMITS_X86
// Non-temporal: rows are multiples of 64 bytes in 64-byte-aligned buffers. A line a store with
// AVX-512, else four of SSE2's (every x86-64 has them), so that machines without AVX-512 (gs's
// avx2 set) are measured too.
template <bool kAvx512>
struct StreamRow;

template <>
struct StreamRow<true> {
  GS_AVX512 void operator()(char* d, const char* s, size_t n) const {
    size_t b = 0;
    for (; b + kLine <= n; b += kLine) {
      _mm512_stream_si512(reinterpret_cast<__m512i*>(d + b), _mm512_loadu_si512(s + b));
    }
    if (b < n) std::memcpy(d + b, s + b, n - b);
  }
};

template <>
struct StreamRow<false> {
  void operator()(char* d, const char* s, size_t n) const {
    size_t b = 0;
    for (; b + kLine <= n; b += kLine) {
      for (size_t v = 0; v < kLine; v += 16) {
        _mm_stream_si128(reinterpret_cast<__m128i*>(d + b + v),
                         _mm_loadu_si128(reinterpret_cast<const __m128i*>(s + b + v)));
      }
    }
    if (b < n) std::memcpy(d + b, s + b, n - b);
  }
};

template <bool kScatter, bool kRandom, size_t kAhead, class I, bool kIntoL2 = false>
GS_AVX512 void StreamRowsAvx512(const Rows<I>& s, size_t begin, size_t end) {
  WalkRows<kScatter, kRandom, kAhead, I, StreamRow<true>, kIntoL2>(s, begin, end, StreamRow<true>{});
  _mm_sfence();
}

template <bool kScatter, bool kRandom, size_t kAhead, class I, bool kIntoL2 = false>
void StreamRowsSse2(const Rows<I>& s, size_t begin, size_t end) {
  WalkRows<kScatter, kRandom, kAhead, I, StreamRow<false>, kIntoL2>(s, begin, end, StreamRow<false>{});
  _mm_sfence();
}

// The AVX-512 form where the machine has it (the figures before 2026-11-28 were taken so).
template <bool kScatter, bool kRandom, size_t kAhead, class I, bool kIntoL2 = false>
void StreamRows(const Rows<I>& s, size_t begin, size_t end) {
  static const bool avx512 = HasAvx512();
  if (avx512) {
    StreamRowsAvx512<kScatter, kRandom, kAhead, I, kIntoL2>(s, begin, end);
  } else {
    StreamRowsSse2<kScatter, kRandom, kAhead, I, kIntoL2>(s, begin, end);
  }
}
#endif

// ---- 5. GatherND of single elements: out[j] = in[r][c], (r, c) = idx[j] ----

struct Elements {
  const float* in;
  const int64_t* idx;
  float* out;
  size_t rows, cols;
};

GS_ALWAYS_INLINE size_t Offset(const Elements& s, size_t j) {
  const uint64_t r = static_cast<uint64_t>(s.idx[2 * j]),
                 c = static_cast<uint64_t>(s.idx[2 * j + 1]);
  if (r >= s.rows || c >= s.cols) std::abort();
  return r * s.cols + c;
}

// kPrefetch: a chunk's 128 offsets computed and prefetched before any of its loads.
template <bool kPrefetch>
void RandomElements(const Elements& s, size_t begin, size_t end) {
  if constexpr (!kPrefetch) {
    for (size_t j = begin; j < end; ++j) s.out[j] = s.in[Offset(s, j)];
  } else {
    constexpr size_t kChunk = 128;
    size_t off[kChunk];
    for (size_t j0 = begin; j0 < end; j0 += kChunk) {
      const size_t n = std::min(kChunk, end - j0);
      for (size_t k = 0; k < n; ++k) {
        off[k] = Offset(s, j0 + k);
        __builtin_prefetch(s.in + off[k], 0, 3);
      }
      for (size_t k = 0; k < n; ++k) s.out[j0 + k] = s.in[off[k]];
    }
  }
}

}  // namespace
}  // namespace gs_limits
