// The reference's own binary16 conversions, checked exhaustively and against the compiler's
// _Float16 (an independent implementation) where g++ provides it.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>

#include "fp16.h"

namespace gs_reference {
namespace {

TEST(Fp16, KnownValues) {
  EXPECT_EQ(FloatBits(HalfToFloat(0x3c00)), FloatBits(1.0f));
  EXPECT_EQ(FloatBits(HalfToFloat(0xc000)), FloatBits(-2.0f));
  EXPECT_EQ(FloatBits(HalfToFloat(0x7bff)), FloatBits(65504.0f));
  EXPECT_EQ(FloatBits(HalfToFloat(0x0001)), FloatBits(std::ldexp(1.0f, -24)));
  EXPECT_EQ(FloatBits(HalfToFloat(0x03ff)), FloatBits(std::ldexp(1023.0f, -24)));
  EXPECT_EQ(FloatBits(HalfToFloat(0x8000)), 0x80000000u);
  EXPECT_EQ(FloatBits(HalfToFloat(0x7c00)), 0x7f800000u);
  EXPECT_EQ(FloatBits(HalfToFloat(0x7e01)), 0x7fc02000u);

  EXPECT_EQ(FloatToHalf(65504.0f), 0x7bff);
  EXPECT_EQ(FloatToHalf(65519.99f), 0x7bff);  // below the midpoint to 65536
  EXPECT_EQ(FloatToHalf(65520.0f), 0x7c00);   // the midpoint rounds to even: infinity
  EXPECT_EQ(FloatToHalf(std::ldexp(1.0f, -25)), 0x0000);            // tie to even zero
  EXPECT_EQ(FloatToHalf(std::ldexp(1.5f, -25)), 0x0001);            // above the tie
  EXPECT_EQ(FloatToHalf(std::ldexp(3.0f, -25)), 0x0002);            // 1.5 quanta: tie to even 2
  EXPECT_EQ(FloatToHalf(-std::ldexp(1.0f, -30)), 0x8000);           // underflow keeps the sign
  EXPECT_EQ(FloatToHalf(1.0f + std::ldexp(1.0f, -11)), 0x3c00);     // tie to even
  EXPECT_EQ(FloatToHalf(1.0f + 3 * std::ldexp(1.0f, -11)), 0x3c02); // tie to even (up)
  EXPECT_EQ(FloatToHalf(std::ldexp(2047.0f, -25)), 0x0400);         // carry into the normals
  EXPECT_EQ(FloatToHalf(FloatFromBits(0x7fc00000u)), 0x7e00);
  EXPECT_EQ(FloatToHalf(FloatFromBits(0xff800000u)), 0xfc00);
}

TEST(Fp16, EveryHalfRoundTrips) {
  for (uint32_t h = 0; h <= 0xffff; ++h) {
    const uint16_t half = static_cast<uint16_t>(h);
    const uint16_t back = FloatToHalf(HalfToFloat(half));
    if (HalfIsNan(half)) {
      ASSERT_EQ(back, half | 0x0200) << std::hex << h;  // quietened, payload kept
    } else {
      ASSERT_EQ(back, half) << std::hex << h;
    }
  }
}

// The compiler's own half type: ARM64's __fp16 (g++ 12 defines __FLT16_MAX__ there, but its C++
// has no _Float16), else _Float16 where the compiler has it. Both convert from float rounding
// to nearest even.
#if defined(__aarch64__) && defined(__ARM_FP16_FORMAT_IEEE)
#define GS_COMPILER_HALF 1
using CompilerHalf = __fp16;
#elif defined(__FLT16_MAX__)
#define GS_COMPILER_HALF 1
using CompilerHalf = _Float16;
#endif

#if defined(GS_COMPILER_HALF)
TEST(Fp16, MatchesCompilerFloat16) {
  for (uint32_t h = 0; h <= 0xffff; ++h) {
    const uint16_t half = static_cast<uint16_t>(h);
    if (HalfIsNan(half)) continue;
    CompilerHalf f16;
    std::memcpy(&f16, &half, 2);
    ASSERT_EQ(FloatBits(HalfToFloat(half)), FloatBits(static_cast<float>(f16))) << std::hex << h;
  }
  std::mt19937 rng(1234);
  for (int i = 0; i < 4000000; ++i) {
    // Uniform over bits, then biased towards half's range where the rounding is interesting.
    uint32_t bits = static_cast<uint32_t>(rng());
    if (i % 2) bits = (bits & 0x807fffffu) | ((100 + (bits >> 23) % 50) << 23);
    const float f = FloatFromBits(bits);
    if (std::isnan(f)) continue;
    const CompilerHalf expected = static_cast<CompilerHalf>(f);
    uint16_t expected_bits;
    std::memcpy(&expected_bits, &expected, 2);
    ASSERT_EQ(FloatToHalf(f), expected_bits) << std::hex << bits;
  }
}
#endif

}  // namespace
}  // namespace gs_reference
