// narrowIndices: every index resolved against its bound and narrowed to 16 bits, or
// kNarrowedOutOfBounds where out of bounds, and whether all were in bounds; then
// scatterRowNarrowed, the scatter row over such indices (the sentinel dropped).
#include "kernel_tester.h"

namespace gs_cpu_test {
namespace {

using gs::cpu::kNarrowedOutOfBounds;

class NarrowIndices : public KernelSetTest {};

TEST_P(NarrowIndices, ResolveEveryKindAndMarkTheOutOfBounds) {
  Rng rng(67);
  for (uint32_t kind = 0; kind < kIndexKinds; ++kind) {
    const uint64_t x = IndexBytes(kind);
    for (uint64_t n : TestLengths()) {
      for (const uint64_t bound : {uint64_t{1}, 1 + rng.Below(300), uint64_t{kNarrowedOutOfBounds}}) {
        const int bad = rng.Below(2) ? 0 : 10;
        GuardedBytes indices(n * x, rng.Below(8) * x % 64, 0);
        GuardedBytes out(n * 2, rng.Below(4) * 2, 0xA5);
        std::vector<uint16_t> expected(n);
        bool allInBounds = true;
        for (uint64_t j = 0; j < n; ++j) {
          const int64_t value = IndexValue(rng, kind, bound, bad);
          StoreIndex(indices.data(), kind, j, value);
          uint64_t p;
          const bool ok = Resolve(value, kind, bound, &p);
          expected[j] = ok ? static_cast<uint16_t>(p) : kNarrowedOutOfBounds;
          allInBounds = allInBounds && ok;
        }
        const bool reported = table().narrowIndices[kind](indices.data(), n, bound,
                                                           reinterpret_cast<uint16_t*>(out.data()));
        ASSERT_TRUE(indices.GuardsIntact() && out.GuardsIntact()) << "kind " << kind << " n " << n;
        ASSERT_EQ(reported, allInBounds) << "kind " << kind << " n " << n << " bound " << bound;
        ASSERT_TRUE(n == 0 || std::memcmp(out.data(), expected.data(), n * 2) == 0)
            << "kind " << kind << " n " << n << " bound " << bound;
      }
    }
  }
}

TEST_P(NarrowIndices, ScatterRowsOverThemDropTheOutOfBounds) {
  Rng rng(71);
  for (uint32_t log2 = 0; log2 < 4; ++log2) {
    const uint32_t e = 1u << log2;
    for (uint64_t n : TestLengths()) {
      const uint64_t bound = 1 + rng.Below(rng.Below(2) ? 5 : 200), stride = n + 3;  // a packed strip
      GuardedBytes data((bound * stride) * e, rng.Below(8) * e % 64, 0);
      for (uint64_t b = 0; b < data.size(); ++b) data.data()[b] = static_cast<uint8_t>(rng.Next());
      GuardedBytes updates(n * e, 0, 0);
      for (uint64_t b = 0; b < updates.size(); ++b) updates.data()[b] = static_cast<uint8_t>(rng.Next());
      GuardedBytes indices(n * 2, rng.Below(4) * 2, 0);
      std::vector<uint8_t> expected = data.Contents();
      for (uint64_t j = 0; j < n; ++j) {
        const uint16_t p = rng.Below(10) == 0 ? kNarrowedOutOfBounds : static_cast<uint16_t>(rng.Below(bound));
        std::memcpy(indices.data() + j * 2, &p, 2);
        if (p != kNarrowedOutOfBounds) std::memcpy(&expected[(j + p * stride) * e], updates.data() + j * e, e);
      }
      table().scatterRowNarrowed[log2](data.data(), 1, stride, bound, indices.data(), updates.data(), n);
      ASSERT_TRUE(data.GuardsIntact()) << "e " << e << " n " << n;
      ASSERT_TRUE(data.Contents() == expected) << "e " << e << " n " << n;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(KernelSets, NarrowIndices, ::testing::ValuesIn(gs::cpu::SupportedKernelSets()), SetName);

}  // namespace
}  // namespace gs_cpu_test
