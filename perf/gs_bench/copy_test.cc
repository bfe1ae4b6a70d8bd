// The copy baseline must copy exactly the bytes asked, whichever way: a way that copied fewer
// (a lost tail, a slice left out) would read as a faster copy and flatter no one but itself.
#include <cstring>
#include <vector>

#include <gtest/gtest.h>

#include "copy.h"

namespace gs_bench {
namespace {

constexpr unsigned char kSentinel = 0xEE;

class CopyWays : public ::testing::TestWithParam<CopyWay> {};

// Every way, 1 to 3 threads, sizes around a line, a slice and a piece (nt_pieces' last one
// short), source and destination offsets off the 64-byte grid: the destination holds the source's bytes and nothing outside it moved.
TEST_P(CopyWays, CopiesExactlyTheBytes) {
  const CopyWay way = GetParam();
  if (!CopyWayAvailable(way)) GTEST_SKIP() << CopyWayName(way) << " is not built for this CPU";
  for (int threads : {1, 2, 3}) {
    for (size_t bytes : {size_t{0}, size_t{1}, size_t{63}, size_t{64}, size_t{65}, size_t{1000},
                         size_t{4096 * 3 + 17}, size_t{1} << 20, (size_t{1} << 20) + 4096 * 3 + 17}) {
      for (size_t src_off : {size_t{0}, size_t{3}}) {
        for (size_t dst_off : {size_t{0}, size_t{5}, size_t{32}}) {
          std::vector<unsigned char> src(bytes + src_off + 64), dst(bytes + dst_off + 128, kSentinel);
          for (size_t i = 0; i < src.size(); ++i) src[i] = static_cast<unsigned char>(i * 131 + 7);
          ParallelCopy(dst.data() + dst_off, src.data() + src_off, bytes, threads, ArenaFor(threads), way);
          SCOPED_TRACE(testing::Message() << CopyWayName(way) << " threads " << threads << " bytes "
                                          << bytes << " src+" << src_off << " dst+" << dst_off);
          ASSERT_EQ(std::memcmp(dst.data() + dst_off, src.data() + src_off, bytes), 0);
          for (size_t i = 0; i < dst_off; ++i) ASSERT_EQ(dst[i], kSentinel) << "before, at " << i;
          for (size_t i = dst_off + bytes; i < dst.size(); ++i) ASSERT_EQ(dst[i], kSentinel) << "after, at " << i;
        }
      }
    }
  }
}

// The cached ways read their source over and over in one loop, each slice from where its first
// byte falls in the source: a slice that began a piece anew (read from the source's start), or
// a wrap that lost or repeated bytes, shows here. Sources that are not a whole number of lines
// put the wraps off the 64-byte grid, and 1 to 3 threads put slice ends before, on and after
// them; the small sources wrap many times in a slice, the last is larger than any destination.
TEST_P(CopyWays, CyclicCopyRepeatsTheSourceAcrossSlices) {
  const CopyWay way = GetParam();
  if (!CopyWayAvailable(way)) GTEST_SKIP() << CopyWayName(way) << " is not built for this CPU";
  for (int threads : {1, 2, 3}) {
    for (size_t bytes : {size_t{0}, size_t{100}, size_t{4096 * 3 + 17}, size_t{1} << 20, (size_t{1} << 20) + 4113}) {
      for (size_t src_bytes : {size_t{1}, size_t{100}, size_t{4096}, size_t{65536 + 37}, (size_t{1} << 20) + 64}) {
        std::vector<unsigned char> src(src_bytes), dst(bytes + 128, kSentinel);
        for (size_t i = 0; i < src.size(); ++i) src[i] = static_cast<unsigned char>(i * 131 + i / 251 + 7);
        CyclicParallelCopy(dst.data(), bytes, src.data(), src_bytes, threads, ArenaFor(threads), way);
        SCOPED_TRACE(testing::Message() << CopyWayName(way) << " threads " << threads << " bytes " << bytes
                                        << " source " << src_bytes);
        for (size_t i = 0; i < bytes; ++i) ASSERT_EQ(dst[i], src[i % src_bytes]) << "at " << i;
        for (size_t i = bytes; i < dst.size(); ++i) ASSERT_EQ(dst[i], kSentinel) << "after, at " << i;
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(All, CopyWays,
                         ::testing::Values(CopyWay::kMemcpy, CopyWay::kStreaming, CopyWay::kVector,
                                           CopyWay::kCachedSource, CopyWay::kCachedVector,
                                           CopyWay::kStreamingPieces),
                         [](const auto& info) { return std::string(CopyWayName(info.param)); });

// A round times every available way, and the fastest is the least of them.
TEST(CopyBaseline, TimesEveryWayAndKeepsTheFastest) {
  CopyBaseline copy(2 << 20, 256 << 10);
  const CopyTimes t = copy.Run(2);
  double least = 0;
  for (int w = 0; w < kCopyWays; ++w) {
    const bool available = CopyWayAvailable(static_cast<CopyWay>(w));
    EXPECT_EQ(t.seconds[w] > 0, available) << CopyWayName(static_cast<CopyWay>(w));
    if (available && (least == 0 || t.seconds[w] < least)) least = t.seconds[w];
  }
  EXPECT_EQ(t.Fastest(), least);
}

// The cached source is a gather's: timed only when it is smaller than the bytes copied, and it
// fills the whole destination (CyclicCopyRepeatsTheSourceAcrossSlices checks the bytes).
TEST(CopyBaseline, CopiesFromTheCachedSourceOnlyWhenItIsSmaller) {
  for (const CopyWay way : {CopyWay::kCachedSource, CopyWay::kCachedVector}) {
    SCOPED_TRACE(CopyWayName(way));
    const int cached = static_cast<int>(way);
    EXPECT_EQ(CopyBaseline(2 << 20).Run(2).seconds[cached], 0);
    EXPECT_EQ(CopyBaseline(2 << 20, 1 << 20).Run(2).seconds[cached], 0);  // as large as the copy
    CopyBaseline copy(2 << 20, 3 << 16);  // 192 KiB: five whole pieces and a part
    EXPECT_EQ(copy.source_bytes(), 3u << 16);
    EXPECT_GT(copy.Run(2).seconds[cached], 0);
  }
}

}  // namespace
}  // namespace gs_bench
