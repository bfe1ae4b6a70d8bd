// The spec's reduction arithmetic on element bits, in integer instructions only: GPUs may
// flush subnormals or produce their own NaN, so floats are added and multiplied in software
// (binary32, round to nearest even, subnormals kept; binary16 through an exact binary32 step,
// as the CPU engine does). Integers wrap in their own width.

#define F32_SIGN 0x80000000u
#define F32_CANONICAL_NAN 0x7fc00000u
#define F16_CANONICAL_NAN 0x7e00u

bool IsNaN32(uint v) { return (v & 0x7fffffffu) > 0x7f800000u; }
bool IsNaN16(uint v) { return (v & 0x7fffu) > 0x7c00u; }
bool IsNaN64(uint2 v) { return (v.y & 0x7fffffffu) > 0x7ff00000u || ((v.y & 0x7fffffffu) == 0x7ff00000u && v.x != 0); }

// a < b for sign-magnitude floats of 'bits' bits (not NaN); +0 and -0 are equal.
bool FloatLess(uint a, uint b, uint bits) {
  uint sign = 1u << (bits - 1);
  uint magnitudeMask = sign - 1u;
  if (((a | b) & magnitudeMask) == 0) return false;
  uint keyA = (a & sign) != 0 ? (~a & (sign | magnitudeMask)) : (a | sign);
  uint keyB = (b & sign) != 0 ? (~b & (sign | magnitudeMask)) : (b | sign);
  return keyA < keyB;
}

bool FloatLess64(uint2 a, uint2 b) {
  if (((a.y | b.y) & 0x7fffffffu) == 0 && (a.x | b.x) == 0) return false;
  bool negA = (a.y & F32_SIGN) != 0, negB = (b.y & F32_SIGN) != 0;
  uint2 keyA = negA ? uint2(~a.x, ~a.y & 0x7fffffffu) : uint2(a.x, a.y | F32_SIGN);
  uint2 keyB = negB ? uint2(~b.x, ~b.y & 0x7fffffffu) : uint2(b.x, b.y | F32_SIGN);
  return keyA.y < keyB.y || (keyA.y == keyB.y && keyA.x < keyB.x);
}

// Rounds a 27-bit significand (3 extra bits) with biased exponent e >= 1 to binary32 bits.
uint RoundF32(uint sign, int e, uint m) {
  uint rest = m & 7u;
  m >>= 3;
  if (rest > 4u || (rest == 4u && (m & 1u) != 0)) ++m;
  if (m == (1u << 24)) {
    m >>= 1;
    ++e;
  }
  if (e >= 255) return sign | 0x7f800000u;
  if (m < (1u << 23)) return sign | m;  // subnormal (e is 1)
  return sign | (uint(e) << 23) | (m & 0x7fffffu);
}

uint ShiftRightSticky(uint m, uint shift) {
  if (shift == 0) return m;
  if (shift >= 27) return m != 0 ? 1u : 0u;
  return (m >> shift) | ((m << (32 - shift)) != 0 ? 1u : 0u);
}

uint F32Add(uint a, uint b) {
  if (IsNaN32(a) || IsNaN32(b)) return F32_CANONICAL_NAN;
  uint ea = (a >> 23) & 0xffu, eb = (b >> 23) & 0xffu;
  if (ea == 255 || eb == 255) {
    if (ea == 255 && eb == 255 && ((a ^ b) & F32_SIGN) != 0) return F32_CANONICAL_NAN;
    return ea == 255 ? a : b;
  }
  if ((a & 0x7fffffffu) == 0 && (b & 0x7fffffffu) == 0) return a & b;  // -0 only if both
  if ((a & 0x7fffffffu) < (b & 0x7fffffffu)) {  // |a| >= |b| from here
    uint swap = a;
    a = b;
    b = swap;
    ea = (a >> 23) & 0xffu;
    eb = (b >> 23) & 0xffu;
  }
  uint sign = a & F32_SIGN;
  uint ma = (a & 0x7fffffu) | (ea != 0 ? 0x800000u : 0u);
  uint mb = (b & 0x7fffffu) | (eb != 0 ? 0x800000u : 0u);
  int e = int(max(ea, 1u));
  uint shift = max(ea, 1u) - max(eb, 1u);
  ma <<= 3;
  mb = ShiftRightSticky(mb << 3, shift);
  uint m;
  if (((a ^ b) & F32_SIGN) == 0) {
    m = ma + mb;
    if (m >= (1u << 27)) {
      m = (m >> 1) | (m & 1u);
      ++e;
    }
  } else {
    m = ma - mb;
    if (m == 0) return 0u;  // x + (-x) is +0 when rounding to nearest
    while (m < (1u << 26) && e > 1) {
      m <<= 1;
      --e;
    }
  }
  return RoundF32(sign, e, m);
}

// 32 x 32 -> 64-bit product as (low, high).
uint2 MulWide(uint a, uint b) {
  uint al = a & 0xffffu, ah = a >> 16, bl = b & 0xffffu, bh = b >> 16;
  uint ll = al * bl, lh = al * bh, hl = ah * bl, hh = ah * bh;
  uint mid = lh + hl;
  uint midCarry = mid < lh ? 0x10000u : 0u;
  uint low = ll + (mid << 16);
  uint lowCarry = low < ll ? 1u : 0u;
  return uint2(low, hh + (mid >> 16) + midCarry + lowCarry);
}

uint F32Multiply(uint a, uint b) {
  if (IsNaN32(a) || IsNaN32(b)) return F32_CANONICAL_NAN;
  uint sign = (a ^ b) & F32_SIGN;
  uint ea = (a >> 23) & 0xffu, eb = (b >> 23) & 0xffu;
  bool zeroA = (a & 0x7fffffffu) == 0, zeroB = (b & 0x7fffffffu) == 0;
  if (ea == 255 || eb == 255) {
    if (zeroA || zeroB) return F32_CANONICAL_NAN;  // 0 x inf
    return sign | 0x7f800000u;
  }
  if (zeroA || zeroB) return sign;
  uint ma = (a & 0x7fffffu) | (ea != 0 ? 0x800000u : 0u);
  uint mb = (b & 0x7fffffu) | (eb != 0 ? 0x800000u : 0u);
  int expA = int(max(ea, 1u)), expB = int(max(eb, 1u));
  while (ma < 0x800000u) { ma <<= 1; --expA; }
  while (mb < 0x800000u) { mb <<= 1; --expB; }
  uint2 p = MulWide(ma, mb);  // in [2^46, 2^48)
  int e = expA + expB - 127;
  uint shift = 20;
  if (p.y >= (1u << 15)) {  // p >= 2^47
    shift = 21;
    ++e;
  }
  uint m = (p.y << (32 - shift)) | (p.x >> shift);
  if ((p.x & ((1u << shift) - 1u)) != 0) m |= 1u;
  if (e <= 0) {  // below the normal range: a subnormal result
    m = ShiftRightSticky(m, uint(1 - e));
    e = 1;
  }
  return RoundF32(sign, e, m);
}

// binary16 <-> binary32, exact one way and round to nearest even the other.
uint HalfToFloat(uint h) {
  uint sign = (h & 0x8000u) << 16;
  uint exponent = (h >> 10) & 0x1fu;
  uint mantissa = h & 0x3ffu;
  if (exponent == 0) {
    if (mantissa == 0) return sign;
    uint e = 113;  // 2^-14 with the implicit bit at 10
    while (mantissa < 0x400u) { mantissa <<= 1; --e; }
    return sign | (e << 23) | ((mantissa & 0x3ffu) << 13);
  }
  if (exponent == 31) return sign | 0x7f800000u | (mantissa << 13);
  return sign | ((exponent + 112) << 23) | (mantissa << 13);
}

uint FloatToHalf(uint bits) {
  uint sign = (bits >> 16) & 0x8000u;
  uint magnitude = bits & 0x7fffffffu;
  if (magnitude >= 0x7f800000u) {
    if (magnitude == 0x7f800000u) return sign | 0x7c00u;
    return sign | 0x7e00u | ((magnitude >> 13) & 0x3ffu);
  }
  if (magnitude >= 0x477ff000u) return sign | 0x7c00u;
  uint exponent = magnitude >> 23;
  uint result, remainder, halfway;
  if (exponent < 113) {
    uint shift = 126 - exponent;
    if (shift >= 32) return sign;
    uint full = (magnitude & 0x7fffffu) | 0x800000u;
    result = full >> shift;
    remainder = full & ((1u << shift) - 1u);
    halfway = 1u << (shift - 1);
  } else {
    result = ((exponent - 112) << 10) | ((magnitude & 0x7fffffu) >> 13);
    remainder = magnitude & 0x1fffu;
    halfway = 0x1000u;
  }
  if (remainder > halfway || (remainder == halfway && (result & 1u) != 0)) ++result;
  return sign | result;
}

int SignExtend(uint v, uint bits) {
  uint shift = 32 - bits;
  return int(v << shift) >> shift;
}

#if ELEMENT_BYTES == 8
uint2 Add64(uint2 a, uint2 b) {
  uint low = a.x + b.x;
  return uint2(low, a.y + b.y + (low < a.x ? 1u : 0u));
}

bool Less64(uint2 a, uint2 b, bool isSigned) {
  if (a.y != b.y) return isSigned ? int(a.y) < int(b.y) : a.y < b.y;
  return a.x < b.x;
}

Element Combine(Element acc, Element update) {
  uint reduction = P_REDUCTION;
  if (P_KIND == GS_KIND_FLOAT) {  // ADD and MULTIPLY of FLOAT64 are not offered (host: Unsupported)
    if (IsNaN64(acc)) return acc;
    if (IsNaN64(update)) return update;
    if (reduction == GS_REDUCTION_MIN) return FloatLess64(update, acc) ? update : acc;
    return FloatLess64(acc, update) ? update : acc;
  }
  bool isSigned = P_KIND == GS_KIND_SIGNED;
  if (reduction == GS_REDUCTION_ADD) return Add64(acc, update);
  if (reduction == GS_REDUCTION_MULTIPLY) {
    uint2 low = MulWide(acc.x, update.x);
    return uint2(low.x, low.y + acc.x * update.y + acc.y * update.x);
  }
  if (reduction == GS_REDUCTION_MIN) return Less64(update, acc, isSigned) ? update : acc;
  return Less64(acc, update, isSigned) ? update : acc;
}
#else
#define ELEMENT_BITS (ELEMENT_BYTES * 8)
#define ELEMENT_MASK (ELEMENT_BYTES == 4 ? 0xffffffffu : ((1u << ELEMENT_BITS) - 1u))

Element Combine(Element acc, Element update) {
  uint reduction = P_REDUCTION;
  if (P_KIND == GS_KIND_FLOAT) {
    bool accNaN = ELEMENT_BYTES == 4 ? IsNaN32(acc) : IsNaN16(acc);
    bool updateNaN = ELEMENT_BYTES == 4 ? IsNaN32(update) : IsNaN16(update);
    if (reduction == GS_REDUCTION_MIN || reduction == GS_REDUCTION_MAX) {
      if (accNaN) return acc;
      if (updateNaN) return update;
      if (reduction == GS_REDUCTION_MIN) return FloatLess(update, acc, ELEMENT_BITS) ? update : acc;
      return FloatLess(acc, update, ELEMENT_BITS) ? update : acc;
    }
    if (ELEMENT_BYTES == 4) {
      return reduction == GS_REDUCTION_ADD ? F32Add(acc, update) : F32Multiply(acc, update);
    }
    if (accNaN || updateNaN) return F16_CANONICAL_NAN;
    uint a = HalfToFloat(acc), b = HalfToFloat(update);
    uint result = reduction == GS_REDUCTION_ADD ? F32Add(a, b) : F32Multiply(a, b);
    return IsNaN32(result) ? F16_CANONICAL_NAN : FloatToHalf(result);
  }
  if (reduction == GS_REDUCTION_ADD) return (acc + update) & ELEMENT_MASK;
  if (reduction == GS_REDUCTION_MULTIPLY) return (acc * update) & ELEMENT_MASK;
  bool less;
  if (P_KIND == GS_KIND_SIGNED) {
    int a = SignExtend(acc, ELEMENT_BITS), u = SignExtend(update, ELEMENT_BITS);
    less = reduction == GS_REDUCTION_MIN ? u < a : a < u;
  } else {
    less = reduction == GS_REDUCTION_MIN ? update < acc : acc < update;
  }
  return less ? update : acc;
}
#endif
