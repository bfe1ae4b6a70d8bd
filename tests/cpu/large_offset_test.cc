// Element offsets whose byte offsets sit near and past 2^31 and 2^32: a 5 GiB reservation of
// which only the pages touched become memory, read and written through every entry that
// takes an offset, so that 32-bit lane offsets and their overflow guards are exercised.
#include "kernel_tester.h"

namespace gs_cpu_test {
namespace {

constexpr uint64_t kReservedBytes = uint64_t{5} << 30;

class LargeOffsets : public KernelSetTest {};

TEST_P(LargeOffsets, GatherAndScatterRowsReachPast4GiB) {
  const SystemPages reservation(kReservedBytes);
  ASSERT_NE(reservation.data(), nullptr) << "could not reserve 5 GiB of address space";
  uint8_t* data = reservation.data();
  for (uint32_t log2 : {2u, 3u}) {
    const uint64_t e = uint64_t{1} << log2;
    // Positions whose byte offsets are 2^31 - e, 2^31, 2^32 - e, 2^32, 2^32 + 5e; the bound
    // just past them (one bound at 2^30 elements keeps the vector path's limits in play).
    const uint64_t half = (uint64_t{1} << 31) / e, full = (uint64_t{1} << 32) / e;
    const std::vector<uint64_t> positions = {half - 1, half, full - 1, full, full + 5};
    for (uint64_t bound : {full, full + 64}) {
      for (uint32_t kind : {1u, 3u}) {  // 64-bit indices hold every position
        std::vector<uint8_t> indices(positions.size() * 8);
        std::vector<uint8_t> expected(positions.size() * e, 0);
        bool allInBounds = true;
        for (uint64_t j = 0; j < positions.size(); ++j) {
          StoreIndex(indices.data(), kind, j, static_cast<int64_t>(positions[j]));
          for (uint64_t b = 0; b < e; ++b) data[positions[j] * e + b] = static_cast<uint8_t>(j * 16 + b + 1);
          if (positions[j] < bound) {
            std::memcpy(&expected[j * e], data + positions[j] * e, e);
          } else {
            allInBounds = false;
          }
        }
        // Both forms where the plan could give one (Fit31: element offsets below 2^31, as
        // 4-byte elements bounded by 2^30 are, whose byte offsets reach 4 GiB).
        for (uint32_t form = 0; form < gs::cpu::kRowOffsetsCount; ++form) {
          if (form == 1 && !gs::cpu::RowOffsetsFit31(e, 0, 1, bound, positions.size())) continue;
          std::vector<uint8_t> out(positions.size() * e, 0xcd);
          const bool said =
              table().gatherRow[form][1][log2][kind](data, 0, 1, bound, indices.data(), out.data(), positions.size(), {});
          EXPECT_EQ(said, allInBounds) << "e " << e << " bound " << bound << " form " << form;
          EXPECT_TRUE(out == expected) << "e " << e << " bound " << bound << " kind " << kind << " form " << form;
        }
        // Scatter back other values to the same positions.
        std::vector<uint8_t> updates(positions.size() * e);
        for (uint64_t b = 0; b < updates.size(); ++b) updates[b] = static_cast<uint8_t>(0x80 + b);
        table().scatterRow[log2][kind](data, 0, 1, bound, indices.data(), updates.data(), positions.size());
        for (uint64_t j = 0; j < positions.size(); ++j) {
          const uint8_t* at = data + positions[j] * e;
          if (positions[j] < bound) {
            EXPECT_EQ(std::memcmp(at, &updates[j * e], e), 0) << "e " << e << " position " << positions[j];
          } else {
            EXPECT_EQ(at[0], static_cast<uint8_t>(j * 16 + 1)) << "an out-of-bounds update landed";
          }
        }
      }
    }
  }
}

TEST_P(LargeOffsets, TupleRowsReachPast2GiB) {
  const SystemPages reservation(kReservedBytes);
  ASSERT_NE(reservation.data(), nullptr);
  uint8_t* data = reservation.data();
  // Pairs into 4-byte elements: bounds {4, 2^28}, strides {2^28, 1}: offsets up to 4 GiB.
  const uint64_t bounds[2] = {4, uint64_t{1} << 28}, strides[2] = {uint64_t{1} << 28, 1};
  const std::vector<std::pair<int64_t, int64_t>> pairs = {{2, 0}, {1, (1 << 28) - 1}, {3, (1 << 28) - 1}, {3, 5}, {4, 0}};
  for (uint32_t kind = 0; kind < kIndexKinds; ++kind) {
    std::vector<uint8_t> indices(pairs.size() * 2 * 8);
    std::vector<uint8_t> expected(pairs.size() * 4, 0);
    for (uint64_t j = 0; j < pairs.size(); ++j) {
      StoreIndex(indices.data(), kind, 2 * j, pairs[j].first);
      StoreIndex(indices.data(), kind, 2 * j + 1, pairs[j].second);
      if (pairs[j].first >= 4) continue;  // out of bounds: zero
      const uint64_t offset = (pairs[j].first * strides[0] + pairs[j].second) * 4;
      const uint32_t value = 0x1000 * (kind + 1) + static_cast<uint32_t>(j);
      std::memcpy(data + offset, &value, 4);
      std::memcpy(&expected[j * 4], &value, 4);
    }
    // Element offsets below 2^30: the plan gives these pairs the Fit31 form (lanes scaled by 4
    // bytes reach past 2 GiB); the Any form must agree.
    ASSERT_TRUE(gs::cpu::TupleOffsetsFit31(bounds, strides, 2));
    for (uint32_t form = 0; form < gs::cpu::kRowOffsetsCount; ++form) {
      std::vector<uint8_t> out(pairs.size() * 4, 0xcd);
      EXPECT_FALSE(table().gatherTupleRow[form][2][kind](data, bounds, strides, 2, indices.data(), out.data(),
                                                         pairs.size(), gs::cpu::kMaxHintedOffsets));
      EXPECT_TRUE(out == expected) << "kind " << kind << " form " << form;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(KernelSets, LargeOffsets, ::testing::ValuesIn(gs::cpu::SupportedKernelSets()), SetName);

}  // namespace
}  // namespace gs_cpu_test
