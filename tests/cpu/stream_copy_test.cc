// streamCopy (+ streamFence): memcpy with non-temporal stores, any length and any alignment of
// either pointer, nothing written past the destination.
#include "kernel_tester.h"

namespace gs_cpu_test {
namespace {

class StreamCopy : public KernelSetTest {};

TEST_P(StreamCopy, CopiesEveryLengthAtEveryAlignment) {
  Rng rng(67);
  // Past 16 KiB the copy takes four pages at a time, the rest line by line.
  std::vector<uint64_t> lengths = TestLengths();
  for (uint64_t n : {16383, 16384, 16385, 16384 + 3 * 64 + 5, 4 * 16384 + 4096 + 77}) lengths.push_back(n);
  for (uint64_t n : lengths) {
    for (uint64_t shift = 0; shift < 64; shift += 7) {
      GuardedBytes source(n, (shift * 5) % 64, 0);
      for (uint64_t b = 0; b < n; ++b) source.data()[b] = static_cast<uint8_t>(rng.Next());
      GuardedBytes destination(n, shift, 0xcd);
      table().streamCopy(destination.data(), source.data(), n);
      table().streamFence();
      ASSERT_TRUE(destination.GuardsIntact() && source.GuardsIntact()) << "n " << n << " shift " << shift;
      ASSERT_TRUE(destination.Contents() == source.Contents()) << "n " << n << " shift " << shift;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(KernelSets, StreamCopy, ::testing::ValuesIn(gs::cpu::SupportedKernelSets()), SetName);

}  // namespace
}  // namespace gs_cpu_test
