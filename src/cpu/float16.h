// IEEE binary16 <-> binary32, exact and round-to-nearest-even, without relying on F16C.
#pragma once

#include <cstdint>
#include <cstring>

namespace gs::cpu {

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

inline float HalfToFloat(uint16_t h) {
  const uint32_t sign = uint32_t{h & 0x8000u} << 16;
  const uint32_t exponent = (h >> 10) & 0x1f;
  const uint32_t mantissa = h & 0x3ff;
  if (exponent == 0) {  // zero or subnormal: mantissa * 2^-24 is exact in binary32
    const float magnitude = static_cast<float>(mantissa) * 0x1p-24f;
    return BitsToFloat(FloatToBits(magnitude) | sign);
  }
  if (exponent == 31) return BitsToFloat(sign | 0x7f800000u | (mantissa << 13));  // inf, NaN
  return BitsToFloat(sign | ((exponent + 112) << 23) | (mantissa << 13));
}

inline uint16_t FloatToHalf(float value) {
  const uint32_t bits = FloatToBits(value);
  const uint16_t sign = static_cast<uint16_t>((bits >> 16) & 0x8000);
  const uint32_t magnitude = bits & 0x7fffffff;
  if (magnitude >= 0x7f800000) {  // inf or NaN (payload's top bits kept, made quiet)
    if (magnitude == 0x7f800000) return sign | 0x7c00;
    return static_cast<uint16_t>(sign | 0x7e00 | ((magnitude >> 13) & 0x3ff));
  }
  if (magnitude >= 0x477ff000) return sign | 0x7c00;  // 65520 and up round to infinity
  const uint32_t exponent = magnitude >> 23;
  uint32_t result, remainder, halfway;
  if (exponent < 113) {  // below 2^-14: a binary16 subnormal (or zero)
    const uint32_t shift = 126 - exponent;
    if (shift >= 32) return sign;
    const uint32_t full = (magnitude & 0x7fffff) | 0x800000;
    result = full >> shift;
    remainder = full & ((1u << shift) - 1);
    halfway = 1u << (shift - 1);
  } else {
    result = ((exponent - 112) << 10) | ((magnitude & 0x7fffff) >> 13);
    remainder = magnitude & 0x1fff;
    halfway = 0x1000;
  }
  if (remainder > halfway || (remainder == halfway && (result & 1))) ++result;  // may carry up
  return static_cast<uint16_t>(sign | result);
}

}  // namespace gs::cpu
