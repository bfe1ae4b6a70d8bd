// gatherBlocks, plain and streamed: every index kind, walks of rank 0 to 3 (runs of the
// innermost dim of one unit and of many), tuples of 0 to 3 components, blocks of a few bytes
// and of several lines, indices in and out of bounds, ranges of units that start and end
// inside runs, and distances ahead from one unit to past the range. Each call is compared with
// a reference written here from the contract in src/cpu/kernel_set.h: units outside the range
// keep the sentinel, bad units are zeroed and counted.
#include <algorithm>

#include "kernel_tester.h"

namespace gs_cpu_test {
namespace {

using gs::plan::KernelConstants;

class GatherBlocks : public KernelSetTest {};

struct Walk {
  KernelConstants k{};
  uint64_t inputElements = 0, outputElements = 0, indexElements = 0;
};

// A row-major walk of `sizes` over a dense output of blocks, each unit reading the input at a
// data offset from its outer coordinates plus the tuple's positions; the tuple's components
// lie `tupleStride` apart in Indices.
Walk MakeWalk(const std::vector<uint64_t>& sizes, uint64_t blockElements, uint64_t tupleSize, Rng& rng) {
  Walk w;
  KernelConstants& k = w.k;
  k.rank = sizes.size();
  k.blockElements = blockElements;
  k.tupleSize = tupleSize;
  k.tupleStride = tupleSize == 0 ? 0 : 1;
  // Indexed dims: bounds of 1 to 5, row-major over blocks.
  uint64_t indexed = blockElements;
  for (uint64_t c = tupleSize; c-- > 0;) {
    k.indexedSizes[c] = 1 + rng.Below(5);
    k.indexedStrides[c] = indexed;
    indexed *= k.indexedSizes[c];
  }
  uint64_t iter = blockElements, index = std::max<uint64_t>(tupleSize, 1), data = indexed;
  k.unitCount = 1;
  for (uint64_t d = k.rank; d-- > 0;) {
    k.sizes[d] = sizes[d];
    k.iterStrides[d] = iter;
    k.indexStrides[d] = tupleSize == 0 ? 0 : index;
    // Every other dim also moves the data (a batch), the rest only the indices.
    k.dataStrides[d] = d % 2 == 0 ? data : 0;
    iter *= sizes[d];
    index *= sizes[d];
    if (d % 2 == 0) data *= sizes[d];
    k.unitCount *= sizes[d];
  }
  w.inputElements = data;
  w.outputElements = iter;
  w.indexElements = tupleSize == 0 ? 0 : index;
  return w;
}

// One call of the entry on units [begin, end) against the reference; "" or what went wrong.
std::string CheckBlocks(gs::cpu::GatherBlocksFn run, uint32_t kind, const Walk& w, uint64_t e,
                        uint64_t begin, uint64_t end, uint64_t ahead, Rng& rng) {
  const KernelConstants& k = w.k;
  const uint64_t x = IndexBytes(kind), blockBytes = k.blockElements * e;
  GuardedBytes input(w.inputElements * e, rng.Below(64), 0);
  for (uint64_t b = 0; b < input.size(); ++b) input.data()[b] = static_cast<uint8_t>(rng.Next());
  GuardedBytes indices(std::max<uint64_t>(w.indexElements, 1) * x, rng.Below(8) * x, 0);
  const int bad = rng.Below(2) ? 0 : 15;
  std::vector<int64_t> values(w.indexElements);
  for (uint64_t i = 0; i < w.indexElements; ++i) {
    values[i] = IndexValue(rng, kind, k.indexedSizes[i % k.tupleSize], bad);
    StoreIndex(indices.data(), kind, i, values[i]);
  }
  GuardedBytes out(w.outputElements * e, rng.Below(64), 0xcd);
  std::vector<uint8_t> expected = out.Contents();
  uint64_t zeroed = 0;
  for (uint64_t u = begin; u < end; ++u) {
    uint64_t iter = 0, data = 0, index = 0, rest = u;
    for (uint64_t d = k.rank; d-- > 0;) {
      const uint64_t coord = rest % k.sizes[d];
      rest /= k.sizes[d];
      iter += coord * k.iterStrides[d];
      data += coord * k.dataStrides[d];
      index += coord * k.indexStrides[d];
    }
    bool inBounds = true;
    for (uint64_t c = 0; c < k.tupleSize; ++c) {
      uint64_t position;
      if (Resolve(values[index + c * k.tupleStride], kind, k.indexedSizes[c], &position)) {
        data += position * k.indexedStrides[c];
      } else {
        inBounds = false;
      }
    }
    if (inBounds) {
      std::memcpy(&expected[iter * e], input.data() + data * e, blockBytes);
    } else {
      std::memset(&expected[iter * e], 0, blockBytes);
      ++zeroed;
    }
  }
  const std::vector<uint8_t> inputBefore = input.Contents(), indicesBefore = indices.Contents();
  const gs::cpu::BlockWalk walk{&k, input.data(), indices.data(), out.data(), e, ahead, rng.Below(2) ? blockBytes : 64};
  const uint64_t said = run(walk, begin, end);  // the streamed entries fence their stores
  if (said != zeroed) return "returned " + std::to_string(said) + " zeroed blocks, not " + std::to_string(zeroed);
  if (!out.GuardsIntact() || !input.GuardsIntact() || !indices.GuardsIntact()) return "wrote outside a buffer";
  if (input.Contents() != inputBefore || indices.Contents() != indicesBefore) return "changed an input";
  if (out.Contents() != expected) return "output differs from the reference";
  return "";
}

TEST_P(GatherBlocks, MatchTheReferenceOverRangesOfEveryWalk) {
  const std::vector<std::vector<uint64_t>> shapes = {{}, {1}, {7}, {3, 1}, {2, 9}, {4, 1, 3}, {3, 5, 2}};
  Rng rng(71);
  int calls = 0;
  for (bool streamed : {false, true}) {
    for (uint32_t kind = 0; kind < kIndexKinds; ++kind) {
      for (const auto& sizes : shapes) {
        for (uint64_t tupleSize = 0; tupleSize <= 3; ++tupleSize) {
          for (uint64_t e : {1, 4, 8}) {
            const uint64_t blockElements = std::vector<uint64_t>{1, 3, 16, 80}[rng.Below(4)];
            const Walk w = MakeWalk(sizes, blockElements, tupleSize, rng);
            const uint64_t begin = rng.Below(w.k.unitCount), end = begin + 1 + rng.Below(w.k.unitCount - begin);
            const uint64_t ahead = std::vector<uint64_t>{1, 2, 5, 64}[rng.Below(4)];
            const std::string what = CheckBlocks(table().gatherBlocks[streamed][kind], kind, w, e, begin, end, ahead,
                                                 rng);
            ASSERT_EQ(what, "") << (streamed ? "streamed" : "plain") << " kind " << kind << " rank "
                                << sizes.size() << " tuple " << tupleSize << " element " << e << " block "
                                << blockElements << " units [" << begin << ", " << end << ") ahead " << ahead;
            ++calls;
          }
        }
      }
    }
  }
  EXPECT_EQ(calls, 2 * 4 * 7 * 4 * 3);
}

INSTANTIATE_TEST_SUITE_P(KernelSets, GatherBlocks, ::testing::ValuesIn(gs::cpu::SupportedKernelSets()), SetName);

}  // namespace
}  // namespace gs_cpu_test
