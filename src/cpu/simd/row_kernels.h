// The kernel families, templated on an xsimd architecture (void: the scalar set). Each
// simd/<set>.cc includes this once, built with that set's compiler flags, and exports a table.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#ifndef GS_SCALAR_ONLY
#include <xsimd/xsimd.hpp>

#include "cpu/simd/narrow_rows_intrinsics.h"
#include "cpu/simd/pairs_intrinsics.h"
#include "cpu/simd/vector_rows.h"
#endif

#include "cpu/elements.h"
#include "cpu/simd/block_walk.h"
#include "cpu/simd/half_folds.h"
#include "cpu/simd/next_row_hints.h"
#include "cpu/simd/stream_intrinsics.h"
#include "cpu/kernel_set.h"

namespace gs::cpu::simd {
// Internal linkage: every set's TU has its own copies, built with its own flags (a shared
// inline instantiation could hand AVX-512 code to a CPU without it).
namespace {

// Output in 64-byte lines, each gathered into registers and stored at once: a fixed-length
// inner loop (out-of-bounds elements are zero), then one vector store, non-temporal when
// kStream, rather than one store per element. `source(j, &offset)` sets the element that
// output j reads and says whether its index is in bounds; it reads indexBytes of indices an
// element from `indices` (hinted ahead as next says). kTrack (checked mode): returns
// whether every index was in bounds; otherwise true. Figures: perf/results/2026-11-26-notes-moved-from-code.md.
template <class Arch, size_t N, bool kStream, bool kTrack, class Source>
bool GatherLines(const uint8_t* data, uint8_t* out, uint64_t n, Source source, NextRowData next = {},
                 const uint8_t* indices = nullptr, uint64_t indexBytes = 0) {
  using W = Word<N>;
  constexpr uint64_t kBlock = 64 / N;
  NextRowHints hints(next, n / kBlock);
  IndexHints indexHints(indices, n * indexBytes, kBlock * indexBytes, next);
  // Out-of-bounds elements are counted in a register of the loop that loads them (a flag
  // written through a reference could alias the byte stores and be reloaded every element),
  // on the rare path that skips their load: then the count costs the common path nothing.
  // Unchecked, loading element 0 (always in the view) for an out-of-bounds one is faster
  // than that branch, so the two modes differ.
  const auto element = [&](uint64_t j, uint64_t* bad) -> W {
    uint64_t offset;
    W value;
    if constexpr (kTrack) {
      if (__builtin_expect(!source(j, &offset), 0)) {
        ++*bad;
        return W{0};
      }
      std::memcpy(&value, data + offset * N, N);
      return value;
    } else {
      const bool ok = source(j, &offset);
      std::memcpy(&value, data + (ok ? offset : 0) * N, N);
      return ok ? value : W{0};
    }
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
    hints.Block();
    indexHints.Block();
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

// Whether the Fit31 form of a row (GatherRow) or of a row of tuples (GatherTupleRow) has code
// of its own for this set and element size. Only then is it instantiated: elsewhere its table
// entries take the Any form's, the same code, rather than compile it twice (perf/results/
// 2026-11-29-ci-time.md). A new Fit31 path widens these first.
template <class Arch, size_t N>
constexpr bool Fit31RowDiffers() {
#ifndef GS_SCALAR_ONLY
  return N <= 4 && kHasHardwareGather<Arch>;
#else
  return false;
#endif
}

template <class Arch, size_t N>
constexpr bool Fit31TupleRowDiffers() {
  return N == 4 && Fit31RowDiffers<Arch, N>();
}

// A row in either form (RowOffsets): Fit31 runs 32-bit lanes where the set has hardware
// gathers, for the geometry RowOffsetsFit31 admits (the plan checked it once for every row of
// the call). Then the two layouts the plan makes most, without multiplies: every output
// element of the row reads one data row (last axis: step 0, stride 1), and packed strips
// (step 1).
template <class Arch, size_t N, typename IndexT, bool kStream, bool kTrack, bool kFit31>
bool GatherRow(const uint8_t* data, uint64_t dataStep, uint64_t indexedStride, uint64_t bound,
               const uint8_t* indices, uint8_t* out, uint64_t n, NextRowData next) {
  static_assert(!kFit31 || Fit31RowDiffers<Arch, N>());
#ifndef GS_SCALAR_ONLY
  if constexpr (kFit31 && N == 4) {
    // Last-axis rows, the layout the plan makes most, without the layout's tests per vector.
    if (dataStep == 0 && indexedStride == 1) {
      return GatherRow4Vector<Arch, IndexT, kStream, kTrack, true>(data, 0, 1, bound, indices, out, n, next);
    }
    return GatherRow4Vector<Arch, IndexT, kStream, kTrack, false>(data, dataStep, indexedStride, bound, indices, out,
                                                                  n, next);
  }
  if constexpr (kFit31 && N <= 2) {
    if (n >= 64 / N) {  // at least one block
      const uint64_t extentBytes = ((n - 1) * dataStep + (bound - 1) * indexedStride + 1) * N;
      uint64_t done;
      const auto blocks = [&](auto oneRow) {
        constexpr bool kOneRow = decltype(oneRow)::value;
        if constexpr (kAvx512Positions<Arch>) {
          return GatherRowNarrowAvx512<Arch, N, IndexT, kStream, kTrack, kOneRow>(
              data, dataStep, indexedStride, bound, extentBytes, indices, out, n, next, &done);
        } else {
          return GatherRowNarrowAvx2<Arch, N, IndexT, kStream, kTrack, kOneRow>(
              data, dataStep, indexedStride, bound, extentBytes, indices, out, n, next, &done);
        }
      };
      const bool blocksOk =
          dataStep == 0 && indexedStride == 1 ? blocks(std::true_type{}) : blocks(std::false_type{});
      // The tail, shorter than a block, through the line kernel's element loop.
      return GatherRow<Arch, N, IndexT, kStream, kTrack, false>(data + done * dataStep * N, dataStep, indexedStride,
                                                                bound, indices + done * sizeof(IndexT), out + done * N,
                                                                n - done, {}) &&
             blocksOk;
    }
  }
#endif
  const IndexT* idx = reinterpret_cast<const IndexT*>(indices);
  // Output j reads offset(j, p) for its resolved index p (of idx[j]).
  const auto from = [&](auto offset) {
    return [=](uint64_t j, uint64_t* to) {
      bool ok;
      *to = offset(j, ResolveIndex<IndexT>(idx[j], bound, &ok));
      return ok;
    };
  };
  if (dataStep == 0 && indexedStride == 1) {
    return GatherLines<Arch, N, kStream, kTrack>(data, out, n, from([](uint64_t, uint64_t p) { return p; }), next, indices,
                                                 sizeof(IndexT));
  }
  if (dataStep == 1) {
    return GatherLines<Arch, N, kStream, kTrack>(
        data, out, n, from([=](uint64_t j, uint64_t p) { return j + p * indexedStride; }), next);
  }
  return GatherLines<Arch, N, kStream, kTrack>(
      data, out, n, from([=](uint64_t j, uint64_t p) { return j * dataStep + p * indexedStride; }), next);
}

// Rows of tuples (GatherND element gathers): out[j] = data[sum over c of p_c * strides[c]],
// p_c the resolved component c of tuple j (indices[j * tupleSize + c]), zero when any is out
// of bounds; through GatherLines, `hinted` offsets made and hinted at a time. Random reads
// from a table larger than L2 wait on one miss at a time when each offset is loaded as soon as
// it is made; a chunk's misses overlap (perf/results/2026-11-27-pairs-chunk-hints.md).
template <class Arch, size_t N, typename IndexT>
bool GatherTupleLines(const uint8_t* data, const uint64_t* bounds, const uint64_t* strides,
                       uint64_t tupleSize, const uint8_t* indices, uint8_t* out, uint64_t n, uint64_t hinted) {
  const uint64_t chunkLength = std::clamp<uint64_t>(hinted, 1, kMaxHintedOffsets);
  constexpr uint64_t kBad = ~uint64_t{0};
  uint64_t chunk[kMaxHintedOffsets];
  const IndexT* idx = reinterpret_cast<const IndexT*>(indices);
  bool allInBounds = true;
  for (uint64_t j = 0; j < n; j += chunkLength) {
    const uint64_t m = std::min(chunkLength, n - j);
    for (uint64_t k = 0; k < m; ++k) {
      const IndexT* tuple = idx + (j + k) * tupleSize;
      uint64_t offset = 0;
      bool all = true;
      for (uint64_t c = 0; c < tupleSize; ++c) {
        bool ok;
        const uint64_t p = ResolveIndex<IndexT>(tuple[c], bounds[c], &ok);
        all &= ok;
        offset += p * strides[c];
      }
      chunk[k] = all ? offset : kBad;
      __builtin_prefetch(data + (all ? offset : 0) * N);
    }
    allInBounds &= GatherLines<Arch, N, false, true>(data, out + j * N, m, [&](uint64_t k, uint64_t* to) {
      *to = chunk[k];
      return chunk[k] != kBad;
    });
  }
  return allInBounds;
}

// Fit31: pairs (TupleOffsetsFit31 held for the plan) through 32-bit lanes where the set has
// hardware gathers.
template <class Arch, size_t N, typename IndexT, bool kFit31>
bool GatherTupleRow(const uint8_t* data, const uint64_t* bounds, const uint64_t* strides,
                    uint64_t tupleSize, const uint8_t* indices, uint8_t* out, uint64_t n, uint64_t hinted) {
  static_assert(!kFit31 || Fit31TupleRowDiffers<Arch, N>());
#ifndef GS_SCALAR_ONLY
  if constexpr (kFit31) {
    uint64_t done;
    bool vectorOk;
    if constexpr (kAvx512Pairs<Arch>) {
      vectorOk = GatherPairs4Avx512<Arch, IndexT>(data, bounds, strides, indices, out, n, &done);
    } else {
      vectorOk = GatherPairs4Vector<Arch, IndexT>(data, bounds, strides, indices, out, n, hinted, &done);
    }
    return GatherTupleLines<Arch, 4, IndexT>(data, bounds, strides, 2, indices + 2 * done * sizeof(IndexT),
                                              out + done * 4, n - done, hinted) &&
           vectorOk;
  }
#endif
  return GatherTupleLines<Arch, N, IndexT>(data, bounds, strides, tupleSize, indices, out, n, hinted);
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

// Indices resolved and narrowed to 16 bits, kNarrowedOutOfBounds where out of bounds. The sets
// with hardware gathers resolve a vector at a time into 32-bit lanes as their rows do
// (LoadPositions), then narrow once; the rest, and the tail, a plain loop.
template <class Arch, typename IndexT>
bool NarrowIndices(const uint8_t* indices, uint64_t n, uint64_t bound, uint16_t* out) {
  uint64_t j = 0;
  bool vectorOk = true;
#if !defined(GS_SCALAR_ONLY) && defined(__AVX2__)
  if constexpr (kHasHardwareGather<Arch>) {
    using V = Lanes32<Arch>;
    constexpr uint64_t L = V::size;
    const IndexT* idx = reinterpret_cast<const IndexT*>(indices);
    const LaneBounds<Arch> bounds(V(static_cast<int32_t>(bound)), Lanes64<Arch>(static_cast<int64_t>(bound)));
    const V outOfBounds(kNarrowedOutOfBounds);
    xsimd::batch_bool<int32_t, Arch> allOk(true);
    const auto lanes = [&](uint64_t at) {
      const Positions<Arch> p = LoadPositions<Arch, IndexT>(idx + at, bounds);
      allOk = allOk && p.ok;
      return xsimd::select(p.ok, p.at, outOfBounds);
    };
    // 16 narrowed indices a store: one vector on AVX-512 (vpmovdw), two on AVX2 (a saturating
    // pack, which interleaves the two vectors' 64-bit pieces; a permute puts them in order).
    for (; j + 16 <= n; j += 16) {
      __m256i narrowed;
      if constexpr (kAvx512Positions<Arch>) {
#if defined(__AVX512F__)
        narrowed = _mm512_cvtepi32_epi16(lanes(j));
#endif
      } else {
        narrowed = _mm256_permute4x64_epi64(_mm256_packus_epi32(lanes(j), lanes(j + L)), 0xd8);
      }
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + j), narrowed);
    }
    vectorOk = xsimd::all(allOk);
  }
#endif
  uint64_t bad = 0;
  for (; j < n; ++j) {
    IndexT value;
    std::memcpy(&value, indices + j * sizeof(IndexT), sizeof(IndexT));
    bool ok;
    const uint64_t p = ResolveIndex<IndexT>(value, bound, &ok);
    out[j] = ok ? static_cast<uint16_t>(p) : kNarrowedOutOfBounds;
    bad += !ok;
  }
  return vectorOk && bad == 0;
}

// [tracked][log2][IndexKind] of one element size and form, plain or streamed.
template <class Arch, size_t N, bool kStream, bool kFit31>
void FillGatherRows(GatherRowFn (&rows)[2][4][4], uint32_t log2) {
  constexpr bool kF = kFit31 && Fit31RowDiffers<Arch, N>();
  rows[0][log2][0] = GatherRow<Arch, N, int32_t, kStream, false, kF>;
  rows[0][log2][1] = GatherRow<Arch, N, int64_t, kStream, false, kF>;
  rows[0][log2][2] = GatherRow<Arch, N, uint32_t, kStream, false, kF>;
  rows[0][log2][3] = GatherRow<Arch, N, uint64_t, kStream, false, kF>;
  rows[1][log2][0] = GatherRow<Arch, N, int32_t, kStream, true, kF>;
  rows[1][log2][1] = GatherRow<Arch, N, int64_t, kStream, true, kF>;
  rows[1][log2][2] = GatherRow<Arch, N, uint32_t, kStream, true, kF>;
  rows[1][log2][3] = GatherRow<Arch, N, uint64_t, kStream, true, kF>;
}

template <class Arch, size_t N, bool kFit31>
void FillGatherTupleRows(GatherTupleRowFn (&rows)[4][4], uint32_t log2) {
  constexpr bool kF = kFit31 && Fit31TupleRowDiffers<Arch, N>();
  rows[log2][0] = GatherTupleRow<Arch, N, int32_t, kF>;
  rows[log2][1] = GatherTupleRow<Arch, N, int64_t, kF>;
  rows[log2][2] = GatherTupleRow<Arch, N, uint32_t, kF>;
  rows[log2][3] = GatherTupleRow<Arch, N, uint64_t, kF>;
}

template <class Arch, KernelSet kSet>
KernelTable MakeTable() {
  KernelTable t = {};
  t.set = kSet;
  auto fill = [&](auto size, uint32_t log2) {
    constexpr size_t N = decltype(size)::value;
    constexpr uint32_t kAny = static_cast<uint32_t>(RowOffsets::Any);
    constexpr uint32_t kFit31 = static_cast<uint32_t>(RowOffsets::Fit31);
    FillGatherRows<Arch, N, false, false>(t.gatherRow[kAny], log2);
    FillGatherRows<Arch, N, false, true>(t.gatherRow[kFit31], log2);
    FillGatherRows<Arch, N, true, false>(t.gatherRowStreamed[kAny], log2);
    FillGatherRows<Arch, N, true, true>(t.gatherRowStreamed[kFit31], log2);
    FillGatherTupleRows<Arch, N, false>(t.gatherTupleRow[kAny], log2);
    FillGatherTupleRows<Arch, N, true>(t.gatherTupleRow[kFit31], log2);
    t.scatterRow[log2][0] = ScatterRow<N, int32_t>;
    t.scatterRow[log2][1] = ScatterRow<N, int64_t>;
    t.scatterRow[log2][2] = ScatterRow<N, uint32_t>;
    t.scatterRow[log2][3] = ScatterRow<N, uint64_t>;
    t.scatterRowNarrowed[log2] = ScatterRow<N, uint16_t>;
  };
  fill(std::integral_constant<size_t, 1>{}, 0);
  fill(std::integral_constant<size_t, 2>{}, 1);
  fill(std::integral_constant<size_t, 4>{}, 2);
  fill(std::integral_constant<size_t, 8>{}, 3);
  FillGatherBlocks<Arch, false>(t.gatherBlocks[0]);
  FillGatherBlocks<Arch, true>(t.gatherBlocks[1]);
  t.firstBad[0] = FirstBad<Arch, int32_t>;
  t.firstBad[1] = FirstBad<Arch, int64_t>;
  t.firstBad[2] = FirstBad<Arch, uint32_t>;
  t.firstBad[3] = FirstBad<Arch, uint64_t>;
  t.narrowIndices[0] = NarrowIndices<Arch, int32_t>;
  t.narrowIndices[1] = NarrowIndices<Arch, int64_t>;
  t.narrowIndices[2] = NarrowIndices<Arch, uint32_t>;
  t.narrowIndices[3] = NarrowIndices<Arch, uint64_t>;
  t.streamCopy = StreamCopy<Arch>;
  t.streamFence = StreamFence<Arch>;
  FillHalfFolds(&t);
  return t;
}

}  // namespace
}  // namespace gs::cpu::simd
