// The reduction folds' binary16 conversions (src/cpu/float16.h) against the reference's, written
// bit by bit (tests/reference/fp16.h), in both ways of picking: every binary16 value, and binary32
// values at and around every binary16 value and every midpoint between two of them.
#include <gtest/gtest.h>

#include <cstdint>

#include "cpu/float16.h"
#include "fp16.h"

namespace {

using gs::cpu::Picks;

template <Picks P>
void ExpectRounded(uint32_t bits) {
  if ((bits & 0x7fffffffu) > 0x7f800000u) return;  // NaN: the folds make it the canonical one
  const float value = gs_reference::FloatFromBits(bits);
  ASSERT_EQ(gs::cpu::FloatToHalfNotNaN<P>(value), gs_reference::FloatToHalf(value)) << std::hex << bits;
}

template <Picks P>
void ExpectEveryHalfExact() {
  for (uint32_t h = 0; h <= 0xffff; ++h) {
    const float expected = gs_reference::HalfToFloat(static_cast<uint16_t>(h));
    ASSERT_EQ(gs_reference::FloatBits(gs::cpu::HalfToFloat<P>(static_cast<uint16_t>(h))),
              gs_reference::FloatBits(expected))
        << std::hex << h;
  }
}

template <Picks P>
void ExpectRoundingAroundEveryHalf() {
  for (uint32_t h = 0; h < 0x7c00; ++h) {
    for (const uint32_t sign : {0u, 0x80000000u}) {
      const uint32_t at = gs_reference::FloatBits(gs_reference::HalfToFloat(static_cast<uint16_t>(h)));
      // The midpoint to the next half (exact in binary32), and its neighbours.
      const float next = h + 1 == 0x7c00 ? 65536.0f : gs_reference::HalfToFloat(static_cast<uint16_t>(h + 1));
      const uint32_t mid = gs_reference::FloatBits((gs_reference::FloatFromBits(at) + next) / 2);
      for (int32_t d = -2; d <= 2; ++d) {
        ExpectRounded<P>((at + static_cast<uint32_t>(d)) ^ sign);
        ExpectRounded<P>((mid + static_cast<uint32_t>(d)) ^ sign);
      }
    }
  }
  for (uint64_t bits = 0; bits < (uint64_t{1} << 32); bits += 65537) ExpectRounded<P>(static_cast<uint32_t>(bits));
  ExpectRounded<P>(0x7f800000u);  // infinities
  ExpectRounded<P>(0xff800000u);
}

TEST(Float16, EveryHalfConvertsExactly) {
  ExpectEveryHalfExact<Picks::OneValue>();
  ExpectEveryHalfExact<Picks::Lanes>();
}

TEST(Float16, FloatsRoundToNearestEvenAtAndAroundEveryHalfAndMidpoint) {
  ExpectRoundingAroundEveryHalf<Picks::OneValue>();
  ExpectRoundingAroundEveryHalf<Picks::Lanes>();
}

}  // namespace
