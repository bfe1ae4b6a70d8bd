// Rows of 4-byte elements gathered a vector at a time, on instruction sets with a hardware
// gather (AVX2, AVX-512): a vector of indices resolved and bounds-checked at once, then one
// gather of 32-bit lanes (gather_intrinsics.h). Written once on xsimd; included by
// row_kernels.h inside each set's anonymous namespace. Lanes out of bounds are zero.
#pragma once

#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include <xsimd/xsimd.hpp>

#include "cpu/elements.h"
#include "cpu/simd/gather_intrinsics.h"
#include "cpu/simd/next_row_hints.h"
#include "cpu/simd/stream_intrinsics.h"

namespace gs::cpu::simd {
namespace {

// On sets without a hardware gather, lanes loaded one by one are slower than the line
// kernel (GatherLines), so only these sets use the vector rows.
// (xsimd's AVX-512 architectures do not derive from avx2.)
template <class Arch>
inline constexpr bool kHasHardwareGather =
    std::is_base_of_v<xsimd::avx2, Arch> || std::is_base_of_v<xsimd::avx512f, Arch>;

// The set of half the vector width, for a tail of at least half a vector (AVX-512's 16 lanes
// would leave up to 15 elements a row, and rows of 8 to 15 elements whole, to the scalar
// loop: short rows were slower than on AVX2, perf/results/2026-11-26-notes-moved-from-code.md); void where none is used.
template <class Arch>
using HalfWidthSet = std::conditional_t<std::is_base_of_v<xsimd::avx512f, Arch>, xsimd::avx2, void>;

template <class Arch>
using Lanes32 = xsimd::batch<int32_t, Arch>;
template <class Arch>
using Lanes64 = xsimd::batch<int64_t, Arch>;

// Mask generators for xsimd's compile-time swizzles and selects.
struct LowHalvesOfPairs {  // 32-bit lane i takes lane 2 * (i mod n/2): the low halves of 64-bit lanes
  static constexpr uint32_t get(unsigned i, unsigned n) { return 2 * (i % (n / 2)); }
};
struct FirstHalf {
  static constexpr bool get(unsigned i, unsigned n) { return i < n / 2; }
};
struct SwapPairs {  // lane i takes lane i ^ 1
  static constexpr uint32_t get(unsigned i, unsigned) { return i ^ 1; }
};
struct Iota {
  static constexpr int32_t get(unsigned i, unsigned) { return static_cast<int32_t>(i); }
};

// The low 32 bits of the 64-bit lanes of a, then of b, as one vector of 32-bit lanes.
template <class Arch>
Lanes32<Arch> NarrowPair(const Lanes32<Arch>& a, const Lanes32<Arch>& b) {
  using U = xsimd::batch<uint32_t, Arch>;
  constexpr auto lows = xsimd::make_batch_constant<U, LowHalvesOfPairs>();
  constexpr auto first = xsimd::make_batch_bool_constant<Lanes32<Arch>, FirstHalf>();
  return xsimd::select(first, xsimd::swizzle(a, lows), xsimd::swizzle(b, lows));
}
template <class Arch>
Lanes32<Arch> NarrowPair(const Lanes64<Arch>& a, const Lanes64<Arch>& b) {
  return NarrowPair<Arch>(xsimd::bitwise_cast<Lanes32<Arch>>(a), xsimd::bitwise_cast<Lanes32<Arch>>(b));
}

// One vector of index values made positions (32-bit lanes) and whether each is in bounds
// (lane l's bound is bounds[l]); out-of-bounds lanes hold garbage. 64-bit indices are checked
// whole, so a value outside 32 bits never aliases an in-bounds one. The caller checked
// bounds < 2^31.
template <class Arch>
struct Positions {
  Lanes32<Arch> at;
  xsimd::batch_bool<int32_t, Arch> ok;
};
// Bounds broadcast to both lane widths (AVX-512 resolves 64-bit lanes), and with the sign bit
// flipped (AVX2 checks with a signed compare), built once per row.
template <class Arch>
struct LaneBounds {
  LaneBounds(const Lanes32<Arch>& bounds32, const Lanes64<Arch>& bounds64)
      : lanes32(bounds32), lanes64(bounds64), flipped32(bounds32 ^ Lanes32<Arch>(std::numeric_limits<int32_t>::min())) {}
  Lanes32<Arch> lanes32;
  Lanes64<Arch> lanes64;
  Lanes32<Arch> flipped32;
};

template <class Arch, typename IndexT>
Positions<Arch> LoadPositions(const IndexT* idx, const LaneBounds<Arch>& bounds) {
  static_assert(kHasHardwareGather<Arch>);
  xsimd::batch_bool<int32_t, Arch> ok;
  Lanes32<Arch> p;
  if constexpr (kAvx512Positions<Arch>) {
    p = Positions16Avx512<Arch, IndexT>(idx, bounds.lanes32, bounds.lanes64, &ok);
  } else {
#if defined(__AVX2__)
    p = Positions8Avx2<Arch, IndexT>(idx, bounds.lanes32, bounds.flipped32, &ok);
#endif
  }
  return {p, ok};
}

// Gathers the 4-byte elements at `offsets` (element units; zero where not ok) and stores them
// at `out`, non-temporal when kStream and the store is aligned. kOneRow as in GatherLanes32.
template <class Arch, bool kStream, bool kOneRow = false>
inline void GatherStore4(const uint8_t* data, const Lanes32<Arch>& offsets,
                         const xsimd::batch_bool<int32_t, Arch>& ok, uint8_t* out) {
  StoreVector<Arch, kStream>(out, GatherLanes32<Arch, kOneRow>(data, offsets, ok));
}

// Rows of 4-byte elements where every offset fits in 31 bits and dataStep is 0 or 1 (last-axis
// rows, packed strips): one hardware gather a vector beats the line kernel's element loop
// (perf/results/2026-11-26-notes-moved-from-code.md). For 1- and 2-byte elements, which have no gather, loading one
// by one from the vector's offsets is slower.
// kLastAxis: the caller knows dataStep is 0 and indexedStride 1 (the lanes are the positions).
template <class Arch, typename IndexT, bool kStream, bool kTrack, bool kLastAxis>
bool GatherRow4Vector(const uint8_t* data, uint64_t dataStep, uint64_t indexedStride,
                      uint64_t bound, const uint8_t* indices, uint8_t* out, uint64_t n, NextRowData next) {
  using V = Lanes32<Arch>;
  constexpr uint64_t L = V::size;
  NextRowHints hints(next, n / L);
  IndexHints indexHints(indices, n * sizeof(IndexT), L * sizeof(IndexT), next);
  const IndexT* idx = reinterpret_cast<const IndexT*>(indices);
  const LaneBounds<Arch> bounds(V(static_cast<int32_t>(bound)), Lanes64<Arch>(static_cast<int64_t>(bound)));
  const V stride(static_cast<int32_t>(indexedStride));
  const V iota = xsimd::make_batch_constant<V, Iota>();
  xsimd::batch_bool<int32_t, Arch> allOk(true);
  uint64_t j = 0;
  for (; j + L <= n; j += L) {
    hints.Block();
    indexHints.Block();
    const Positions<Arch> p = LoadPositions<Arch, IndexT>(idx + j, bounds);
    if constexpr (kTrack) allOk = allOk & p.ok;
    V offsets = kLastAxis || indexedStride == 1 ? p.at : p.at * stride;
    if (!kLastAxis && dataStep != 0) offsets = offsets + iota + V(static_cast<int32_t>(j));
    GatherStore4<Arch, kStream, kLastAxis>(data, offsets, p.ok, out + j * 4);
  }
  bool allInBounds = xsimd::all(allOk);
  using Half = HalfWidthSet<Arch>;
  if constexpr (!std::is_void_v<Half>) {
    if (n - j >= Lanes32<Half>::size) {
      return GatherRow4Vector<Half, IndexT, kStream, kTrack, kLastAxis>(data + j * dataStep * 4, dataStep, indexedStride, bound,
                                                             indices + j * sizeof(IndexT), out + j * 4, n - j, {}) &&
             allInBounds;
    }
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

// Pairs (2-D coordinates) into 4-byte elements: tuple t's components sit in lanes 2t and 2t+1
// as loaded; each lane is scaled by its component's stride, neighbours are summed, and the
// even lanes of two vectors are packed into one vector of offsets. The caller checked that
// every offset fits in 31 bits. Returns whether every pair was in bounds; the tail (fewer
// than one vector of pairs) is left to the caller: *done says how many pairs were gathered.
template <class Arch, typename IndexT>
bool GatherPairs4Vector(const uint8_t* data, const uint64_t* bounds, const uint64_t* strides,
                        const uint8_t* indices, uint8_t* out, uint64_t n, uint64_t hinted, uint64_t* done) {
  using V = Lanes32<Arch>;
  constexpr uint64_t L = V::size;  // pairs a step: two vectors of L / 2 pairs each
  const IndexT* idx = reinterpret_cast<const IndexT*>(indices);
  alignas(64) int32_t bound32[L], stride32[L];
  alignas(64) int64_t bound64[L / 2];
  for (uint64_t l = 0; l < L; ++l) {
    bound32[l] = static_cast<int32_t>(bounds[l % 2]);
    stride32[l] = static_cast<int32_t>(strides[l % 2]);
  }
  for (uint64_t l = 0; l < L / 2; ++l) bound64[l] = static_cast<int64_t>(bounds[l % 2]);
  const LaneBounds<Arch> laneBounds(V::load_aligned(bound32), Lanes64<Arch>::load_aligned(bound64));
  const V laneStrides = V::load_aligned(stride32);
  constexpr auto swap = xsimd::make_batch_constant<xsimd::batch<uint32_t, Arch>, SwapPairs>();
  // Offsets of L / 2 pairs in the even lanes, -1 where either component is out of bounds.
  const auto pairOffsets = [&](const IndexT* from) {
    const Positions<Arch> p = LoadPositions<Arch, IndexT>(from, laneBounds);
    const V at = xsimd::select(p.ok, p.at, V(-1));
    const V scaled = at * laneStrides;
    const V sum = scaled + xsimd::swizzle(scaled, swap);
    return xsimd::select(V(-1) < (at | xsimd::swizzle(at, swap)), sum, V(-1));
  };
  // A chunk of offsets first, each line hinted, then the chunk's gathers (GatherTupleRowFn).
  static_assert(kMaxHintedOffsets % L == 0);
  const uint64_t chunkLength = std::clamp<uint64_t>(hinted / L * L, L, kMaxHintedOffsets);
  alignas(64) int32_t chunk[kMaxHintedOffsets];
  bool allInBounds = true;
  uint64_t j = 0;
  while (n - j >= L) {
    const uint64_t m = std::min(chunkLength, (n - j) / L * L);
    for (uint64_t k = 0; k < m; k += L) {
      const IndexT* from = idx + 2 * (j + k);
      NarrowPair<Arch>(pairOffsets(from), pairOffsets(from + L)).store_aligned(chunk + k);
    }
    for (uint64_t k = 0; k < m; ++k) __builtin_prefetch(data + static_cast<uint64_t>(std::max(chunk[k], 0)) * 4);
    for (uint64_t k = 0; k < m; k += L) {
      const V offsets = V::load_aligned(chunk + k);
      const auto ok = V(-1) < offsets;
      allInBounds &= xsimd::all(ok);
      GatherStore4<Arch, false>(data, offsets, ok, out + (j + k) * 4);
    }
    j += m;
  }
  *done = j;
  return allInBounds;
}

}  // namespace
}  // namespace gs::cpu::simd
