// IEEE binary16 <-> binary32 for the reduction folds, exact and round-to-nearest-even, without
// conversion instructions (the kernel sets that have them use them: simd/half_folds.h). Internal
// linkage, as cpu/folds.h.
#pragma once

#include <cstdint>
#include <cstring>

namespace gs::cpu {
namespace {

inline float BitsToFloat(uint32_t bits) {
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

inline uint32_t FloatToBits(float f) {
  uint32_t bits;
  std::memcpy(&bits, &f, sizeof bits);
  return bits;
}

// How a conversion or a fold picks between two values it has computed. Lanes (an array folded
// in one loop): bit masks, since with ?: the compiler moves the binary32 operation that makes
// one of them into a branch, and under trapping math makes no vectors of that loop. One value
// at a time (scattered folds): ?:, which the compiler may branch on; there masks were slower
// (perf/results/2026-11-28-half-reductions.md).
enum class Picks { OneValue, Lanes };

template <Picks P, typename Bits>
Bits Pick(bool pick, Bits a, Bits b) {
  if constexpr (P == Picks::OneValue) return pick ? a : b;
  const Bits mask = static_cast<Bits>(Bits{0} - static_cast<Bits>(pick));
  return static_cast<Bits>((a & mask) | (b & static_cast<Bits>(~mask)));
}

// Exact, NaN payloads moved to the top of the binary32 mantissa. One value at a time it
// branches, which was faster there.
template <Picks P>
float HalfToFloat(uint16_t h) {
  const uint32_t sign = uint32_t{h & 0x8000u} << 16;
  if constexpr (P == Picks::OneValue) {
    const uint32_t exponent = (h >> 10) & 0x1f, mantissa = h & 0x3ff;
    if (exponent == 0) return BitsToFloat(FloatToBits(static_cast<float>(mantissa) * 0x1p-24f) | sign);
    if (exponent == 31) return BitsToFloat(sign | 0x7f800000u | (mantissa << 13));  // inf, NaN
    return BitsToFloat(sign | ((exponent + 112) << 23) | (mantissa << 13));
  }
  uint32_t bits = uint32_t{h & 0x7fffu} << 13;  // exponent and mantissa, in place
  const uint32_t exponent = bits & 0x0f800000u;
  bits += 0x38000000u;  // rebias the exponent: 15 -> 127
  // Infinities and NaNs: the top exponent again; subnormals: 2^-14 * (1 + m/1024) - 2^-14,
  // which is m * 2^-24 exactly, as a binary32 subtraction (no flush to zero in the folds).
  bits = Pick<P, uint32_t>(exponent == 0x0f800000u, bits + 0x38000000u, bits);
  const uint32_t subnormal = FloatToBits(BitsToFloat(bits + 0x00800000u) - BitsToFloat(0x38800000u));
  bits = Pick<P, uint32_t>(exponent == 0, subnormal, bits);
  return BitsToFloat(bits | sign);
}

// Round to nearest even, for any value but a NaN (the folds make a NaN the canonical one).
// Infinities and values from 65520 up become infinity; below 2^-14 a binary32 addition of 0.5
// rounds the value to a binary16 subnormal, the result in its low mantissa bits.
template <Picks P>
uint16_t FloatToHalfNotNaN(float value) {
  uint32_t bits = FloatToBits(value);
  const uint32_t sign = bits & 0x80000000u;
  bits ^= sign;
  const uint32_t subnormal = FloatToBits(BitsToFloat(bits) + 0.5f) - 0x3f000000u;
  const uint32_t odd = (bits >> 13) & 1u;
  const uint32_t normal = (bits + 0xc8000fffu + odd) >> 13;  // rebias 127 -> 15, round half to even
  uint32_t result = Pick<P, uint32_t>(bits < 0x38800000u, subnormal, normal);
  result = Pick<P, uint32_t>(bits >= 0x47800000u, 0x7c00u, result);
  return static_cast<uint16_t>(result | (sign >> 16));
}

}  // namespace
}  // namespace gs::cpu
