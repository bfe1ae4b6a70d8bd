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

// Normalisation shifts come from firstbithigh, not loops: lavapipe caps an invocation's loop
// iterations (65535 in all), and a scatter folds thousands of values in one invocation.

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
    int shift = min(max(26 - int(firstbithigh(m)), 0), e - 1);
    m <<= uint(shift);
    e -= shift;
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
  uint shiftA = 23 - firstbithigh(ma), shiftB = 23 - firstbithigh(mb);  // subnormal inputs
  ma <<= shiftA;
  mb <<= shiftB;
  expA -= int(shiftA);
  expB -= int(shiftB);
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
    uint shift = 10 - firstbithigh(mantissa);  // to the implicit bit's place
    mantissa <<= shift;
    return sign | ((113 - shift) << 23) | ((mantissa & 0x3ffu) << 13);
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
// 64-bit values as (low, high) words.
uint2 Add64(uint2 a, uint2 b) {
  uint low = a.x + b.x;
  return uint2(low, a.y + b.y + (low < a.x ? 1u : 0u));
}

uint2 Sub64(uint2 a, uint2 b) {
  return uint2(a.x - b.x, a.y - b.y - (a.x < b.x ? 1u : 0u));
}

bool Less64(uint2 a, uint2 b, bool isSigned) {
  if (a.y != b.y) return isSigned ? int(a.y) < int(b.y) : a.y < b.y;
  return a.x < b.x;
}

uint2 ShiftLeft64(uint2 v, uint n) {  // n < 64
  if (n == 0) return v;
  if (n >= 32) return uint2(0u, v.x << (n - 32));
  return uint2(v.x << n, (v.y << n) | (v.x >> (32 - n)));
}

uint HighestBit64(uint2 v) {  // v != 0
  return v.y != 0 ? 32 + firstbithigh(v.y) : firstbithigh(v.x);
}

// Right shift that keeps whether anything nonzero was shifted out in bit 0.
uint2 ShiftRightSticky64(uint2 v, uint n) {
  if (n == 0) return v;
  if (n >= 60) return uint2((v.x | v.y) != 0 ? 1u : 0u, 0u);
  uint sticky;
  uint2 r;
  if (n >= 32) {
    uint k = n - 32;
    sticky = (v.x != 0 || (k > 0 && (v.y << (32 - k)) != 0)) ? 1u : 0u;
    r = uint2(v.y >> k, 0u);
  } else {
    sticky = (v.x << (32 - n)) != 0 ? 1u : 0u;
    r = uint2((v.x >> n) | (v.y << (32 - n)), v.y >> n);
  }
  r.x |= sticky;
  return r;
}

#define F64_CANONICAL_NAN uint2(0u, 0x7ff80000u)

// Rounds a 56-bit significand (3 extra bits) with biased exponent e >= 1 to binary64 bits.
uint2 RoundF64(uint sign, int e, uint2 m) {
  uint rest = m.x & 7u;
  m = uint2((m.x >> 3) | (m.y << 29), m.y >> 3);
  if (rest > 4u || (rest == 4u && (m.x & 1u) != 0)) m = Add64(m, uint2(1u, 0u));
  if (m.y == (1u << 21) && m.x == 0) {
    m = uint2(0u, 1u << 20);
    ++e;
  }
  if (e >= 2047) return uint2(0u, sign | 0x7ff00000u);
  if (m.y < (1u << 20)) return uint2(m.x, sign | m.y);  // subnormal (e is 1)
  return uint2(m.x, sign | (uint(e) << 20) | (m.y & 0xfffffu));
}

uint2 F64Add(uint2 a, uint2 b) {
  if (IsNaN64(a) || IsNaN64(b)) return F64_CANONICAL_NAN;
  uint ea = (a.y >> 20) & 0x7ffu, eb = (b.y >> 20) & 0x7ffu;
  if (ea == 2047 || eb == 2047) {
    if (ea == 2047 && eb == 2047 && ((a.y ^ b.y) & F32_SIGN) != 0) return F64_CANONICAL_NAN;
    return ea == 2047 ? a : b;
  }
  uint2 magnitudeA = uint2(a.x, a.y & 0x7fffffffu), magnitudeB = uint2(b.x, b.y & 0x7fffffffu);
  if ((magnitudeA.x | magnitudeA.y | magnitudeB.x | magnitudeB.y) == 0) return uint2(0u, a.y & b.y);
  if (Less64(magnitudeA, magnitudeB, false)) {  // |a| >= |b| from here
    uint2 swap = a;
    a = b;
    b = swap;
    uint swapExponent = ea;
    ea = eb;
    eb = swapExponent;
  }
  uint sign = a.y & F32_SIGN;
  uint2 ma = uint2(a.x, (a.y & 0xfffffu) | (ea != 0 ? 0x100000u : 0u));
  uint2 mb = uint2(b.x, (b.y & 0xfffffu) | (eb != 0 ? 0x100000u : 0u));
  int e = int(max(ea, 1u));
  uint shift = max(ea, 1u) - max(eb, 1u);
  ma = ShiftLeft64(ma, 3);
  mb = ShiftRightSticky64(ShiftLeft64(mb, 3), shift);
  uint2 m;
  if (((a.y ^ b.y) & F32_SIGN) == 0) {
    m = Add64(ma, mb);
    if (m.y >= (1u << 24)) {
      uint sticky = m.x & 1u;
      m = uint2((m.x >> 1) | (m.y << 31) | sticky, m.y >> 1);
      ++e;
    }
  } else {
    m = Sub64(ma, mb);
    if ((m.x | m.y) == 0) return uint2(0u, 0u);
    int shift = min(max(55 - int(HighestBit64(m)), 0), e - 1);
    m = ShiftLeft64(m, uint(shift));
    e -= shift;
  }
  return RoundF64(sign, e, m);
}

uint AddWithCarry(uint a, uint b, inout uint carry) {
  uint sum = a + b;
  carry += sum < a ? 1u : 0u;
  return sum;
}

uint2 F64Multiply(uint2 a, uint2 b) {
  if (IsNaN64(a) || IsNaN64(b)) return F64_CANONICAL_NAN;
  uint sign = (a.y ^ b.y) & F32_SIGN;
  uint ea = (a.y >> 20) & 0x7ffu, eb = (b.y >> 20) & 0x7ffu;
  bool zeroA = (a.x | (a.y & 0x7fffffffu)) == 0, zeroB = (b.x | (b.y & 0x7fffffffu)) == 0;
  if (ea == 2047 || eb == 2047) {
    if (zeroA || zeroB) return F64_CANONICAL_NAN;  // 0 x inf
    return uint2(0u, sign | 0x7ff00000u);
  }
  if (zeroA || zeroB) return uint2(0u, sign);
  uint2 ma = uint2(a.x, (a.y & 0xfffffu) | (ea != 0 ? 0x100000u : 0u));
  uint2 mb = uint2(b.x, (b.y & 0xfffffu) | (eb != 0 ? 0x100000u : 0u));
  int expA = int(max(ea, 1u)), expB = int(max(eb, 1u));
  uint shiftA = 52 - HighestBit64(ma), shiftB = 52 - HighestBit64(mb);  // subnormal inputs
  ma = ShiftLeft64(ma, shiftA);
  mb = ShiftLeft64(mb, shiftB);
  expA -= int(shiftA);
  expB -= int(shiftB);
  // 106-bit product in four words w0 (lowest) .. w3.
  uint2 p00 = MulWide(ma.x, mb.x), p01 = MulWide(ma.x, mb.y), p10 = MulWide(ma.y, mb.x),
        p11 = MulWide(ma.y, mb.y);
  uint carry1 = 0, carry2 = 0;
  uint w0 = p00.x;
  uint w1 = AddWithCarry(AddWithCarry(p00.y, p01.x, carry1), p10.x, carry1);
  uint w2 = AddWithCarry(AddWithCarry(AddWithCarry(p01.y, p10.y, carry2), p11.x, carry2), carry1, carry2);
  uint w3 = p11.y + carry2;
  int e = expA + expB - 1023;
  uint r = 17;  // the product is in [2^104, 2^106): take bits from 49 (or 50) up
  if (w3 >= (1u << 9)) {  // >= 2^105
    r = 18;
    ++e;
  }
  uint2 m = uint2((w1 >> r) | (w2 << (32 - r)), (w2 >> r) | (w3 << (32 - r)));
  if (w0 != 0 || (w1 & ((1u << r) - 1u)) != 0) m.x |= 1u;
  if (e <= 0) {
    m = ShiftRightSticky64(m, uint(1 - e));
    e = 1;
  }
  return RoundF64(sign, e, m);
}

Element Combine(Element acc, Element update) {
  uint reduction = P_REDUCTION;
  if (P_KIND == GS_KIND_FLOAT) {
    if (reduction == GS_REDUCTION_ADD) return F64Add(acc, update);
    if (reduction == GS_REDUCTION_MULTIPLY) return F64Multiply(acc, update);
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
