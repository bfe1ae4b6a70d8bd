// scatterRow: data[j * dataStep + p * indexedStride] = updates[j] for in-bounds j, in order of
// j (so the last of repeated positions wins), out-of-bounds ones dropped.
#include "kernel_tester.h"

namespace gs_cpu_test {
namespace {

class ScatterRow : public KernelSetTest {};

TEST_P(ScatterRow, EveryEntryMatchesTheReference) {
  Rng rng(41);
  for (uint32_t log2 = 0; log2 < 4; ++log2) {
    const uint32_t e = 1u << log2;
    for (uint32_t kind = 0; kind < kIndexKinds; ++kind) {
      const uint64_t x = IndexBytes(kind);
      for (uint64_t n : TestLengths()) {
        for (const auto& [step, strideOrRow] : {std::pair<uint64_t, uint64_t>{0, 1}, {1, 0}, {3, 2}}) {
          const uint64_t stride = strideOrRow == 0 ? n + 3 : strideOrRow;
          const uint64_t bound = 1 + rng.Below(rng.Below(2) ? 5 : 200);  // few: many repeats
          const uint64_t dataElements = (n > 0 ? (n - 1) * step : 0) + (bound - 1) * stride + 1;
          GuardedBytes data(dataElements * e, rng.Below(8) * e % 64, 0);
          for (uint64_t b = 0; b < data.size(); ++b) data.data()[b] = static_cast<uint8_t>(rng.Next());
          GuardedBytes updates(n * e, rng.Below(8) * e % 64, 0);
          for (uint64_t b = 0; b < updates.size(); ++b) updates.data()[b] = static_cast<uint8_t>(rng.Next());
          GuardedBytes indices(n * x, rng.Below(8) * x % 64, 0);
          std::vector<uint8_t> expected = data.Contents();
          const int bad = rng.Below(2) ? 0 : 10;
          for (uint64_t j = 0; j < n; ++j) {
            const int64_t value = IndexValue(rng, kind, bound, bad);
            StoreIndex(indices.data(), kind, j, value);
            uint64_t p;
            if (Resolve(value, kind, bound, &p)) {
              std::memcpy(&expected[(j * step + p * stride) * e], updates.data() + j * e, e);
            }
          }
          const std::vector<uint8_t> updatesBefore = updates.Contents();
          table().scatterRow[log2][kind](data.data(), step, stride, bound, indices.data(), updates.data(), n);
          ASSERT_TRUE(data.GuardsIntact() && updates.GuardsIntact() && indices.GuardsIntact())
              << "e " << e << " kind " << kind << " n " << n;
          ASSERT_TRUE(updates.Contents() == updatesBefore);
          ASSERT_TRUE(data.Contents() == expected)
              << "e " << e << " kind " << kind << " n " << n << " step " << step;
        }
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(KernelSets, ScatterRow, ::testing::ValuesIn(gs::cpu::SupportedKernelSets()), SetName);

}  // namespace
}  // namespace gs_cpu_test
