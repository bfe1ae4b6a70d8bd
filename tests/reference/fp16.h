// IEEE 754 binary16 <-> binary32 conversions for the reference, written out bit by bit so they
// depend on no compiler or CPU support: exact for subnormals, infinities and NaN payloads.
#pragma once

#include <cstdint>
#include <cstring>

namespace gs_reference {

inline uint32_t FloatBits(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  return bits;
}

inline float FloatFromBits(uint32_t bits) {
  float value;
  std::memcpy(&value, &bits, sizeof value);
  return value;
}

inline bool HalfIsNan(uint16_t h) { return (h & 0x7c00u) == 0x7c00u && (h & 0x03ffu) != 0; }

// Exact: every binary16 value is a binary32 value. NaN payloads move to the top of the
// binary32 mantissa (as hardware conversions do).
inline float HalfToFloat(uint16_t h) {
  const uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
  uint32_t exponent = (h >> 10) & 0x1fu;
  uint32_t mantissa = h & 0x3ffu;
  if (exponent == 0x1f) return FloatFromBits(sign | 0x7f800000u | (mantissa << 13));
  if (exponent == 0) {
    if (mantissa == 0) return FloatFromBits(sign);
    // Subnormal: normalise; the value is mantissa * 2^-24.
    int shift = 0;
    while ((mantissa & 0x400u) == 0) {
      mantissa <<= 1;
      ++shift;
    }
    mantissa &= 0x3ffu;
    const uint32_t biased = static_cast<uint32_t>(127 - 15 + 1 - shift);
    return FloatFromBits(sign | (biased << 23) | (mantissa << 13));
  }
  return FloatFromBits(sign | ((exponent + 127 - 15) << 23) | (mantissa << 13));
}

// Round to nearest, ties to even; overflow gives infinity, tiny values become subnormals or
// zero. A NaN keeps the top 10 payload bits and is made quiet.
inline uint16_t FloatToHalf(float value) {
  const uint32_t bits = FloatBits(value);
  const uint16_t sign = static_cast<uint16_t>((bits >> 16) & 0x8000u);
  const uint32_t exponent = (bits >> 23) & 0xffu;
  const uint32_t mantissa = bits & 0x7fffffu;
  if (exponent == 0xff) {
    if (mantissa == 0) return sign | 0x7c00u;
    return static_cast<uint16_t>(sign | 0x7e00u | (mantissa >> 13));
  }
  // The value is significand * 2^(e - 23) with a 24-bit significand (implicit bit included).
  const int e = exponent == 0 ? -126 : static_cast<int>(exponent) - 127;
  const uint32_t significand = exponent == 0 ? mantissa : (mantissa | 0x800000u);
  if (significand == 0) return sign;
  // Half's grid: normal numbers with exponent >= -14 keep 11 significant bits; below that
  // the quantum is fixed at 2^-24. Work out how many low bits of the significand to drop.
  int drop;
  if (e >= -14) {
    drop = 13;  // 24 - 11 bits
  } else {
    drop = 13 + (-14 - e);  // the subnormal quantum 2^-24 relative to 2^(e-23)
  }
  uint32_t kept;
  if (drop >= 32) {
    kept = 0;  // far below half the smallest subnormal: rounds to zero
  } else {
    kept = significand >> drop;
    const uint32_t remainder = significand & ((1u << drop) - 1u);
    const uint32_t halfway = 1u << (drop - 1);
    if (remainder > halfway || (remainder == halfway && (kept & 1u))) ++kept;
  }
  if (e >= -14) {
    // kept is in [2^10, 2^11]; a carry to 2^11 bumps the exponent.
    int half_exponent = e + 15;
    if (kept == 0x800u) {
      kept = 0x400u;
      ++half_exponent;
    }
    if (half_exponent >= 0x1f) return sign | 0x7c00u;
    return static_cast<uint16_t>(sign | (static_cast<uint32_t>(half_exponent) << 10) |
                                 (kept & 0x3ffu));
  }
  // Subnormal result in units of 2^-24; kept == 0x400 is the smallest normal, encoded the same.
  return static_cast<uint16_t>(sign | kept);
}

}  // namespace gs_reference
