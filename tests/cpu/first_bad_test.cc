// firstBad: the first position j < n whose index is out of bounds for its tuple component
// ((firstComponent + j) % tupleSize), or n; bad elements planted at every distance from the
// start so that the vector scan's body, its unrolled blocks and its tail all find them.
#include "kernel_tester.h"

namespace gs_cpu_test {
namespace {

class FirstBad : public KernelSetTest {};

TEST_P(FirstBad, FindsTheFirstBadElementForEveryComponent) {
  Rng rng(53);
  for (uint32_t kind = 0; kind < kIndexKinds; ++kind) {
    const uint64_t x = IndexBytes(kind);
    for (uint64_t tuple : {1, 2, 3, 4}) {
      for (uint64_t n : TestLengths()) {
        if (n > 300) continue;
        uint64_t bounds[4];
        for (uint64_t c = 0; c < tuple; ++c) bounds[c] = 1 + rng.Below(c % 2 ? 3 : 1000);
        const uint64_t first = rng.Below(tuple);
        GuardedBytes indices(n * x, rng.Below(8) * x % 64, 0);
        auto bound = [&](uint64_t j) { return bounds[(first + j) % tuple]; };
        for (uint64_t j = 0; j < n; ++j) StoreIndex(indices.data(), kind, j, IndexValue(rng, kind, bound(j), 0));
        // No bad element, then one at each of a few positions (with a later one behind it).
        std::vector<uint64_t> plants = {n};
        if (n > 0) plants.insert(plants.end(), {0, n - 1, rng.Below(n), n / 2});
        for (uint64_t at : plants) {
          GuardedBytes planted(n * x, 0, 0);
          std::memcpy(planted.data(), indices.data(), n * x);
          if (at < n) StoreIndex(planted.data(), kind, at, IndexValue(rng, kind, bound(at), 100));
          if (at + 7 < n) StoreIndex(planted.data(), kind, at + 7, IndexValue(rng, kind, bound(at + 7), 100));
          const uint64_t found = table().firstBad[kind](planted.data(), n, bounds, tuple, first);
          ASSERT_EQ(found, at) << "kind " << kind << " tuple " << tuple << " first component " << first
                               << " n " << n;
          ASSERT_TRUE(planted.GuardsIntact());
        }
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(KernelSets, FirstBad, ::testing::ValuesIn(gs::cpu::SupportedKernelSets()), SetName);

}  // namespace
}  // namespace gs_cpu_test
