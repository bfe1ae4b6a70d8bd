// The copy baseline must copy exactly the bytes asked, whichever way: a way that copied fewer
// (a lost tail, a slice left out) would read as a faster copy and flatter no one but itself.
#include <cstring>
#include <string>
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

// A block times every available way at each of its places, and the fastest is the least.
TEST(CopyBaseline, TimesEveryWayAndKeepsTheFastest) {
  CopyBaseline copy(2 << 20, 256 << 10);
  const std::vector<CopyTimes> block = copy.RunBlock(2, 3);
  ASSERT_EQ(block.size(), 3u);
  for (const CopyTimes& t : block) {
    double least = 0;
    for (int w = 0; w < kCopyWays; ++w) {
      const bool available = CopyWayAvailable(static_cast<CopyWay>(w));
      EXPECT_EQ(t.seconds[w] > 0, available) << CopyWayName(static_cast<CopyWay>(w));
      if (available && (least == 0 || t.seconds[w] < least)) least = t.seconds[w];
    }
    EXPECT_EQ(t.Fastest(), least);
  }
}

// The cached source is a gather's: timed only when it is smaller than the bytes copied, and it
// fills the whole destination (CyclicCopyRepeatsTheSourceAcrossSlices checks the bytes).
TEST(CopyBaseline, CopiesFromTheCachedSourceOnlyWhenItIsSmaller) {
  for (const CopyWay way : {CopyWay::kCachedSource, CopyWay::kCachedVector}) {
    SCOPED_TRACE(CopyWayName(way));
    const int cached = static_cast<int>(way);
    EXPECT_EQ(CopyBaseline(2 << 20).RunBlock(2, 1).at(0).seconds[cached], 0);
    EXPECT_EQ(CopyBaseline(2 << 20, 1 << 20).RunBlock(2, 1).at(0).seconds[cached], 0);  // as large as the copy
    CopyBaseline copy(2 << 20, 3 << 16);  // 192 KiB: five whole pieces and a part
    EXPECT_EQ(copy.source_bytes(), 3u << 16);
    EXPECT_GT(copy.RunBlock(2, 1).at(0).seconds[cached], 0);
  }
}

// What TimeInBlocks did, in order: "s" an untimed call, "c" a timed one, " b<runs> " a copy block.
struct Journal {
  std::string events;
  std::vector<double> iteration_times;
  int iterations = 0;
  // benchmark::State's part that TimeInBlocks uses: a loop of `iterations` and each one's time.
  auto begin() {
    loop_.assign(static_cast<size_t>(iterations), 0);
    return loop_.begin();
  }
  auto end() { return loop_.end(); }
  void SetIterationTime(double seconds) { iteration_times.push_back(seconds); }
  std::vector<CopyTimes> RunBlock(int threads, int runs) {
    EXPECT_EQ(threads, 2);
    events += " b" + std::to_string(runs) + " ";
    std::vector<CopyTimes> times(static_cast<size_t>(runs));
    for (CopyTimes& t : times) t.seconds[0] = 1;
    return times;
  }

 private:
  std::vector<int> loop_;
};

// Calls back to back in blocks of kBlockCalls, each after one untimed call, then the copy's block
// of as many runs; a last, partial block gets a copy block of its size. The peers time their
// calls back to back, and a call timed straight after a copy paid the copy's dirty lines.
TEST(TimeInBlocks, TimesCallsBackToBackBetweenTheCopysBlocks) {
  Journal journal;
  journal.iterations = 2 * kBlockCalls + 2;
  const CopyPairs pairs = TimeInBlocks(journal, journal, 2, [&](bool timed) {
    journal.events += timed ? "c" : "s";
    return true;
  });
  const std::string block = "s" + std::string(kBlockCalls, 'c') + " b" + std::to_string(kBlockCalls) + " ";
  EXPECT_EQ(journal.events, block + block + "scc b2 ");
  EXPECT_EQ(journal.iteration_times.size(), static_cast<size_t>(journal.iterations));
  benchmark::UserCounters counters;
  pairs.SetCounters(counters, 1000);
  EXPECT_EQ(counters["copy_pairs"].value, journal.iterations);
}

// A call that fails ends the loop; its block's calls still get their copy.
TEST(TimeInBlocks, StopsAtTheFirstFailedCall) {
  Journal journal;
  journal.iterations = 10;
  int calls = 0;
  TimeInBlocks(journal, journal, 2, [&](bool timed) {
    journal.events += timed ? "c" : "s";
    return ++calls < 4;
  });
  EXPECT_EQ(journal.events, "sccc b2 ");
}

}  // namespace
}  // namespace gs_bench
