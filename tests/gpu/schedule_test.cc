// The plan's GPU decisions (src/plan/gpu_dispatch): which passes run in which order, the
// dispatch shape, and Unsupported beyond the view windows.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "gs/gs.h"
#include "plan/gpu_dispatch.h"

namespace {

using gs::plan::GpuKernel;

gs::CompiledOperator Scatter(gs::Reduction reduction, uint32_t elements) {
  const uint32_t sizes[] = {elements};
  static gs::TensorDesc data, indices;
  data = {gs::DataType::Float32, 1, nullptr, nullptr, elements * 4ull};
  indices = {gs::DataType::Int64, 1, nullptr, nullptr, elements * 8ull};
  data.Sizes = indices.Sizes = sizes;
  const gs::ScatterElementsOperatorDesc desc{&data, &indices, &data, &data, 0, reduction};
  gs::CompiledOperator op;
  EXPECT_TRUE(gs::CompileOperator({gs::OperatorType::ScatterElements, &desc}, &op).ok());
  return op;
}

std::vector<GpuKernel> Kernels(const gs::plan::GpuSchedule& s) {
  std::vector<GpuKernel> kernels;
  for (uint32_t i = 0; i < s.passCount; ++i) kernels.push_back(s.passes[i].kernel);
  return kernels;
}

TEST(GpuSchedule, ScatterPassesInOrder) {
  const gs::CompiledOperator op = Scatter(gs::Reduction::Add, 1000);
  gs::plan::GpuSchedule s;
  gs::plan::GpuOptions checked;
  ASSERT_EQ(gs::plan::ScheduleGpuPasses(*op.plan(), checked, &s), "");
  // The copy comes after the order step, which may abandon the run (a list too long).
  EXPECT_EQ(Kernels(s), (std::vector<GpuKernel>{GpuKernel::Validate,
                                                GpuKernel::ClearLists, GpuKernel::ScatterLink,
                                                GpuKernel::ScatterOrder, GpuKernel::ScatterCopyWide,
                                                GpuKernel::ScatterCombine}));
  EXPECT_EQ(s.passes[0].constants.reportsBadIndex, 1u);  // 1000 threads: it reports the value itself
  EXPECT_EQ(s.listHeadElements, 1000u);
  EXPECT_EQ(s.listNextElements, 1000u);
  // The fold combines elements; the copy moves 16-byte words through its own views.
  EXPECT_EQ(s.elementBytes, 4u);
  EXPECT_EQ(s.copyBytes, 16u);
  EXPECT_TRUE(s.passes[4].copyViews);
  EXPECT_EQ(s.passes[4].threads, 250u);
  EXPECT_EQ(s.passes[4].constants.elementBytes, 16u);
  EXPECT_FALSE(s.passes[5].copyViews);

  // A validation of more threads (a scatter's takes kGpuScatterValidationElementsPerThread
  // elements) than its groups should count on one word: a pass reports.
  const uint64_t most =
      gs::plan::kGpuSelfReportingValidationThreads * gs::plan::kGpuScatterValidationElementsPerThread;
  for (const uint64_t elements : {most, most + 1}) {
    const gs::CompiledOperator longer = Scatter(gs::Reduction::Add, static_cast<uint32_t>(elements));
    ASSERT_EQ(gs::plan::ScheduleGpuPasses(*longer.plan(), checked, &s), "");
    EXPECT_EQ(s.passes[0].kernel, GpuKernel::Validate);
    EXPECT_EQ(s.passes[0].constants.reportsBadIndex, elements == most ? 1u : 0u);
    EXPECT_EQ(s.passes[1].kernel, elements == most ? GpuKernel::ClearLists : GpuKernel::ReportBadIndex);
  }

  gs::plan::GpuOptions inPlaceUnchecked;
  inPlaceUnchecked.checked = false;
  inPlaceUnchecked.inPlace = true;
  const gs::CompiledOperator add = Scatter(gs::Reduction::Add, 1000);
  ASSERT_EQ(gs::plan::ScheduleGpuPasses(*add.plan(), inPlaceUnchecked, &s), "");
  EXPECT_EQ(Kernels(s), (std::vector<GpuKernel>{GpuKernel::ClearLists, GpuKernel::ScatterLink,
                                                GpuKernel::ScatterOrder, GpuKernel::ScatterCombine}));
}

// Element overwrites along axis 0 of {count, columns} updates: a thread per column (line)
// where the lines are many or short and none is too long, with no claims; else claims.
TEST(GpuSchedule, ElementScattersByLinesWhereTheyAreManyOrShort) {
  const auto lines = [](uint32_t count, uint32_t columns, gs::CompiledOperator* op) {
    static uint32_t dataSizes[2], updateSizes[2];
    dataSizes[0] = 64, dataSizes[1] = columns, updateSizes[0] = count, updateSizes[1] = columns;
    static gs::TensorDesc data, indices, updates;
    data = {gs::DataType::Float32, 2, dataSizes, nullptr, 64ull * columns * 4};
    indices = {gs::DataType::Int64, 2, updateSizes, nullptr, uint64_t{count} * columns * 8};
    updates = {gs::DataType::Float32, 2, updateSizes, nullptr, uint64_t{count} * columns * 4};
    const gs::ScatterElementsOperatorDesc desc{&data, &indices, &updates, &data, 0, gs::Reduction::None};
    ASSERT_TRUE(gs::CompileOperator({gs::OperatorType::ScatterElements, &desc}, op).ok());
  };
  using gs::plan::kGpuMaxScatterLine, gs::plan::kGpuMinScatterLines, gs::plan::kGpuShortScatterLine;
  const uint32_t many = kGpuMinScatterLines, shortLine = kGpuShortScatterLine;
  const uint32_t longest = kGpuMaxScatterLine;
  gs::plan::GpuSchedule s;
  gs::plan::GpuOptions inPlaceUnchecked;
  inPlaceUnchecked.checked = false;
  inPlaceUnchecked.inPlace = true;
  gs::CompiledOperator op;
  const uint32_t group = gs::plan::kGpuThreadsPerGroup;
  lines(100, many, &op);  // many lines, longer than short ones: a group each
  ASSERT_EQ(gs::plan::ScheduleGpuPasses(*op.plan(), inPlaceUnchecked, &s), "");
  EXPECT_EQ(Kernels(s), (std::vector<GpuKernel>{GpuKernel::ScatterLineGroups}));
  EXPECT_EQ(s.passes[0].threads, many * group);
  EXPECT_EQ(s.passes[0].groupsX * s.passes[0].groupsY, many);
  EXPECT_EQ(s.listHeadElements, 0u);
  EXPECT_EQ(s.passes[0].constants.elementBytes, 4u);
  gs::plan::GpuOptions checked;  // not in place: the copy first
  ASSERT_EQ(gs::plan::ScheduleGpuPasses(*op.plan(), checked, &s), "");
  EXPECT_EQ(Kernels(s), (std::vector<GpuKernel>{GpuKernel::Validate, GpuKernel::ScatterCopyWide,
                                                GpuKernel::ScatterLineGroups}));
  EXPECT_EQ(s.passes[0].threads, 100 * many / gs::plan::kGpuScatterValidationElementsPerThread);
  EXPECT_EQ(s.passes[0].constants.reportsBadIndex, 1u);
  lines(shortLine, many, &op);  // many short lines: a thread each
  ASSERT_EQ(gs::plan::ScheduleGpuPasses(*op.plan(), inPlaceUnchecked, &s), "");
  EXPECT_EQ(Kernels(s), (std::vector<GpuKernel>{GpuKernel::ScatterLines}));
  EXPECT_EQ(s.passes[0].threads, many);
  EXPECT_EQ(s.passes[0].constants.elementBytes, 4u);
  lines(shortLine, 3, &op);  // few short lines
  ASSERT_EQ(gs::plan::ScheduleGpuPasses(*op.plan(), inPlaceUnchecked, &s), "");
  EXPECT_EQ(Kernels(s), (std::vector<GpuKernel>{GpuKernel::ScatterLines}));
  EXPECT_EQ(s.passes[0].threads, 3u);
  lines(shortLine + 1, many - 1, &op);  // fewer lines, longer: claims
  ASSERT_EQ(gs::plan::ScheduleGpuPasses(*op.plan(), inPlaceUnchecked, &s), "");
  EXPECT_EQ(Kernels(s)[1], GpuKernel::ScatterClaim);
  // From kGpuLargeElements updates on, groups of GS_LARGE_GROUP_THREADS a line.
  const uint32_t largeLine = static_cast<uint32_t>(gs::plan::kGpuLargeElements / many);
  lines(largeLine - 1, many, &op);
  ASSERT_EQ(gs::plan::ScheduleGpuPasses(*op.plan(), inPlaceUnchecked, &s), "");
  EXPECT_EQ(Kernels(s), (std::vector<GpuKernel>{GpuKernel::ScatterLineGroups}));
  lines(largeLine, many, &op);
  ASSERT_EQ(gs::plan::ScheduleGpuPasses(*op.plan(), inPlaceUnchecked, &s), "");
  EXPECT_EQ(Kernels(s), (std::vector<GpuKernel>{GpuKernel::ScatterLineGroupsLarge}));
  EXPECT_EQ(s.passes[0].threads, many * GS_LARGE_GROUP_THREADS);
  EXPECT_EQ(s.passes[0].groupsX * s.passes[0].groupsY, many);
  EXPECT_EQ(s.passes[0].constants.elementBytes, 4u);
  lines(longest, many, &op);  // the longest line
  ASSERT_EQ(gs::plan::ScheduleGpuPasses(*op.plan(), inPlaceUnchecked, &s), "");
  EXPECT_EQ(Kernels(s), (std::vector<GpuKernel>{GpuKernel::ScatterLineGroupsLarge}));
  lines(longest + 1, 4, &op);  // a line too long, however few: claims
  ASSERT_EQ(gs::plan::ScheduleGpuPasses(*op.plan(), inPlaceUnchecked, &s), "");
  EXPECT_EQ(Kernels(s)[1], GpuKernel::ScatterClaim);
}

// Overwrites (reduction NONE) walk no list: the updates claim their destinations, then only
// the claimed ones write, after the copy; the claims take one word per Output element (or
// word) and per-update lists none. As many claim words as units: all cleared at once.
TEST(GpuSchedule, OverwritesClaimThenWriteWithoutLists) {
  const gs::CompiledOperator none = Scatter(gs::Reduction::None, 1000);
  gs::plan::GpuSchedule s;
  gs::plan::GpuOptions checked;
  ASSERT_EQ(gs::plan::ScheduleGpuPasses(*none.plan(), checked, &s), "");
  EXPECT_EQ(Kernels(s), (std::vector<GpuKernel>{GpuKernel::Validate,
                                                GpuKernel::ClearLists, GpuKernel::ScatterClaim,
                                                GpuKernel::ScatterCopyWide, GpuKernel::ScatterWinners}));
  EXPECT_EQ(s.listHeadElements, 1000u);
  EXPECT_EQ(s.listNextElements, 0u);
  // Single elements claimed and written, the copy in 16-byte words through its own views.
  EXPECT_EQ(s.passes[4].constants.elementBytes, 4u);
  EXPECT_FALSE(s.passes[4].copyViews);
  EXPECT_EQ(s.passes[3].constants.elementBytes, 16u);
  EXPECT_TRUE(s.passes[3].copyViews);
  EXPECT_EQ(s.passes[3].threads, 250u);
  EXPECT_EQ(s.passes[1].threads, 1000u);

  // ScatterND of 10 rows of 32 into 64 rows in place: a claim thread per row, a writer per
  // 16-byte word (8 a row), and a claim word per destination row (rows start 8 words apart: the
  // claim word is the first word >> 3): 64, more than 4 a unit, so only the 10 targeted ones
  // are cleared, checked in the validation's pass, unchecked in their own.
  const uint32_t dataSizes[] = {64, 32}, indexSizes[] = {10, 1}, updateSizes[] = {10, 32};
  const gs::TensorDesc data{gs::DataType::Float32, 2, dataSizes, nullptr, 64 * 32 * 4};
  const gs::TensorDesc indices{gs::DataType::Int32, 2, indexSizes, nullptr, 10 * 4};
  const gs::TensorDesc updates{gs::DataType::Float32, 2, updateSizes, nullptr, 10 * 32 * 4};
  const gs::ScatterNdOperatorDesc desc{&data, &indices, &updates, &data, 2, 2, gs::Reduction::None};
  gs::CompiledOperator rows;
  ASSERT_TRUE(gs::CompileOperator({gs::OperatorType::ScatterNd, &desc}, &rows).ok());
  gs::plan::GpuOptions inPlace;
  inPlace.inPlace = true;
  ASSERT_EQ(gs::plan::ScheduleGpuPasses(*rows.plan(), inPlace, &s), "");
  EXPECT_EQ(Kernels(s), (std::vector<GpuKernel>{GpuKernel::ScatterValidateClearClaims, GpuKernel::ScatterClaim,
                                                GpuKernel::ScatterWinnersWide}));
  EXPECT_EQ(s.passes[0].threads, 10u);
  EXPECT_EQ(s.passes[0].constants.reportsBadIndex, 1u);
  EXPECT_EQ(s.passes[1].threads, 10u);
  EXPECT_EQ(s.passes[2].threads, 80u);
  EXPECT_EQ(s.passes[2].constants.elementBytes, 16u);
  EXPECT_EQ(s.passes[1].constants.elementBytes, 4u);  // the claims read no element
  EXPECT_EQ(s.elementBytes, 16u);
  EXPECT_EQ(s.listHeadElements, 64u);
  for (uint32_t i = 0; i < s.passCount; ++i) EXPECT_EQ(s.passes[i].constants.claimShift, 3u) << i;
  EXPECT_EQ(s.walk.blockElements, 8u);
  gs::plan::GpuOptions inPlaceUnchecked = inPlace;
  inPlaceUnchecked.checked = false;
  ASSERT_EQ(gs::plan::ScheduleGpuPasses(*rows.plan(), inPlaceUnchecked, &s), "");
  EXPECT_EQ(Kernels(s), (std::vector<GpuKernel>{GpuKernel::ScatterClearClaims, GpuKernel::ScatterClaim,
                                                GpuKernel::ScatterWinnersWide}));
}

// A scatter's copy in words: a contiguous copy is one block (rank 0) of words, a thread each; a
// strided one walks its rows in words; a reduction's copy moves 16-byte words through its own
// views where the caller's offsets allow, while the fold combines elements.
TEST(GpuSchedule, ScatterCopiesInWords) {
  const auto rows = [](const uint32_t* inputStrides, uint64_t inputBytes, gs::Reduction reduction,
                       gs::CompiledOperator* op) {
    static const uint32_t dataSizes[] = {64, 32}, indexSizes[] = {10, 1}, updateSizes[] = {10, 32};
    static gs::TensorDesc input, output, indices, updates;
    input = {gs::DataType::Float32, 2, dataSizes, inputStrides, inputBytes};
    output = {gs::DataType::Float32, 2, dataSizes, nullptr, 64 * 32 * 4};
    indices = {gs::DataType::Int32, 2, indexSizes, nullptr, 10 * 4};
    updates = {gs::DataType::Float32, 2, updateSizes, nullptr, 10 * 32 * 4};
    const gs::ScatterNdOperatorDesc desc{&input, &indices, &updates, &output, 2, 2, reduction};
    ASSERT_TRUE(gs::CompileOperator({gs::OperatorType::ScatterNd, &desc}, op).ok());
  };
  gs::plan::GpuSchedule s;
  gs::plan::GpuOptions unchecked;
  unchecked.checked = false;
  gs::CompiledOperator op;
  rows(nullptr, 64 * 32 * 4, gs::Reduction::None, &op);
  ASSERT_EQ(gs::plan::ScheduleGpuPasses(*op.plan(), unchecked, &s), "");
  EXPECT_EQ(Kernels(s), (std::vector<GpuKernel>{GpuKernel::ScatterClearClaims, GpuKernel::ScatterClaim,
                                                GpuKernel::ScatterCopyWide, GpuKernel::ScatterWinnersWide}));
  EXPECT_EQ(s.passes[2].threads, 64u * 32u / 4u);
  EXPECT_FALSE(s.passes[2].copyViews);  // the schedule's own words
  EXPECT_EQ(s.copy.rank, 0u);
  EXPECT_EQ(s.copy.blockElements, 64u * 32u / 4u);
  // Input rows 34 elements apart: 8-byte words, each row walked in 16 of them.
  const uint32_t strides[] = {34, 1};
  rows(strides, (63 * 34 + 32) * 4, gs::Reduction::None, &op);
  ASSERT_EQ(gs::plan::ScheduleGpuPasses(*op.plan(), unchecked, &s), "");
  EXPECT_EQ(s.elementBytes, 8u);
  EXPECT_EQ(s.copyBytes, 8u);
  EXPECT_EQ(s.passes[2].kernel, GpuKernel::Copy);
  EXPECT_FALSE(s.passes[2].copyViews);
  EXPECT_EQ(s.passes[2].constants.elementBytes, 8u);
  EXPECT_EQ(s.passes[2].threads, 64u * 16u);
  EXPECT_EQ(s.copy.rank, 1u);
  EXPECT_EQ(s.copy.blockElements, 16u);
  EXPECT_EQ(s.copy.srcStrides[0], 17u);
  EXPECT_EQ(s.copy.dstStrides[0], 16u);
  rows(nullptr, 64 * 32 * 4, gs::Reduction::Add, &op);
  ASSERT_EQ(gs::plan::ScheduleGpuPasses(*op.plan(), unchecked, &s), "");
  EXPECT_EQ(s.elementBytes, 4u);
  EXPECT_EQ(s.copyBytes, 16u);
  EXPECT_EQ(s.copy.blockElements, 64u * 32u / 4u);
  EXPECT_EQ(s.listHeadElements, 64u * 32u);
  // A caller's Output on 8 bytes: the copy in the fold's elements.
  unchecked.offsets[static_cast<uint32_t>(gs::plan::TensorRole::Output)] = 8;
  ASSERT_EQ(gs::plan::ScheduleGpuPasses(*op.plan(), unchecked, &s), "");
  EXPECT_EQ(s.copyBytes, 4u);
  EXPECT_EQ(s.copy.blockElements, 64u * 32u);
  EXPECT_EQ(Kernels(s), (std::vector<GpuKernel>{GpuKernel::ClearLists, GpuKernel::ScatterLink, GpuKernel::ScatterOrder,
                                                GpuKernel::Copy, GpuKernel::ScatterCombine}));
  EXPECT_FALSE(s.passes[3].copyViews);
}

// An overwrite's claim words number its destinations, not Output's words: rows of 1 KiB (the
// perf suite's ScatterND, 1000000 rows) take a word a row, 4 MB rather than 256 MB a recording;
// rows 3 words apart keep a word per Output word (no shift holds them apart); element scatters
// along an axis too.
TEST(GpuSchedule, ClaimWordsOnePerDestination) {
  struct RowsCase {
    uint32_t rows, width, shift;
    uint64_t claims;
  };
  for (const RowsCase c : {RowsCase{1000000, 256, 6, 1000000}, RowsCase{1000, 12, 0, 3000}, RowsCase{1000, 8, 1, 1000},
                           RowsCase{1001, 40, 1, 5005}}) {
    const std::string what = std::to_string(c.rows) + " rows of " + std::to_string(c.width);
    const uint32_t dataSizes[] = {c.rows, c.width}, indexSizes[] = {16, 1}, updateSizes[] = {16, c.width};
    const gs::TensorDesc data{gs::DataType::Float32, 2, dataSizes, nullptr, uint64_t{c.rows} * c.width * 4};
    const gs::TensorDesc indices{gs::DataType::Int64, 2, indexSizes, nullptr, 16 * 8};
    const gs::TensorDesc updates{gs::DataType::Float32, 2, updateSizes, nullptr, 16 * c.width * 4};
    const gs::ScatterNdOperatorDesc desc{&data, &indices, &updates, &data, 2, 2, gs::Reduction::None};
    gs::CompiledOperator op;
    ASSERT_TRUE(gs::CompileOperator({gs::OperatorType::ScatterNd, &desc}, &op).ok()) << what;
    gs::plan::GpuSchedule s;
    ASSERT_EQ(gs::plan::ScheduleGpuPasses(*op.plan(), {}, &s), "") << what;
    EXPECT_EQ(s.listHeadElements, c.claims) << what;
    EXPECT_EQ(s.passes[s.passCount - 1].kernel, s.elementBytes == 16 ? GpuKernel::ScatterWinnersWide : GpuKernel::ScatterWinners) << what;
    EXPECT_EQ(s.passes[s.passCount - 1].constants.claimShift, c.shift) << what;
  }
}

// The claim words are cleared all at once up to 4 a unit, else only the targeted ones: rows of
// 4 Float32 (one 16-byte word, one claim word each), 25 of them updated.
TEST(GpuSchedule, ClaimWordsClearedAllAtOnceUpToFourAUnit) {
  for (const uint32_t outputRows : {100u, 101u}) {
    const uint32_t dataSizes[] = {outputRows, 4}, indexSizes[] = {25, 1}, updateSizes[] = {25, 4};
    const gs::TensorDesc data{gs::DataType::Float32, 2, dataSizes, nullptr, outputRows * 16ull};
    const gs::TensorDesc indices{gs::DataType::Int32, 2, indexSizes, nullptr, 25 * 4};
    const gs::TensorDesc updates{gs::DataType::Float32, 2, updateSizes, nullptr, 25 * 16};
    const gs::ScatterNdOperatorDesc desc{&data, &indices, &updates, &data, 2, 2, gs::Reduction::None};
    gs::CompiledOperator op;
    ASSERT_TRUE(gs::CompileOperator({gs::OperatorType::ScatterNd, &desc}, &op).ok());
    gs::plan::GpuOptions inPlace;
    inPlace.inPlace = true;
    inPlace.checked = false;
    gs::plan::GpuSchedule s;
    ASSERT_EQ(gs::plan::ScheduleGpuPasses(*op.plan(), inPlace, &s), "");
    EXPECT_EQ(s.listHeadElements, outputRows);
    const bool all = outputRows == 100;
    EXPECT_EQ(Kernels(s), (std::vector<GpuKernel>{all ? GpuKernel::ClearLists : GpuKernel::ScatterClearClaims,
                                                  GpuKernel::ScatterClaim, GpuKernel::ScatterWinnersWide}));
    EXPECT_EQ(s.passes[0].threads, all ? 100u : 25u);
  }
}

TEST(GpuSchedule, DispatchShapeCoversEveryThreadWithinTheGroupLimit) {
  ASSERT_EQ(gs::plan::GpuItemsPerThread(GpuKernel::Validate, false), 1u);
  const gs::plan::GpuPass small = gs::plan::MakeGpuPass(GpuKernel::Validate, 65, false);
  EXPECT_EQ(small.groupsX, 2u);
  EXPECT_EQ(small.groupsY, 1u);
  EXPECT_EQ(small.rowWidth, 128u);
  const uint32_t threads = 65535u * 64u * 3u + 5u;
  const gs::plan::GpuPass large = gs::plan::MakeGpuPass(GpuKernel::Validate, threads, false);
  EXPECT_EQ(large.groupsX, 65535u);
  EXPECT_EQ(large.groupsY, 4u);
  EXPECT_GE(uint64_t{large.groupsX} * large.groupsY * 64, threads);
}

TEST(GpuSchedule, PassesThatMoveDataTakeSeveralItemsAThreadWithoutWindows) {
  const std::pair<GpuKernel, uint32_t> kernels[] = {
      {GpuKernel::GatherLarge, GS_ITEMS_PER_THREAD_GATHER_LARGE},
      {GpuKernel::GatherPackedLarge, GS_ITEMS_PER_THREAD_PACKED},
      {GpuKernel::GatherPackedWideLarge, GS_ITEMS_PER_THREAD_PACKED_WIDE},
      {GpuKernel::GatherPackedLargeQuads, GS_ITEMS_PER_THREAD_PACKED},
      {GpuKernel::GatherPackedWideLargeQuads, GS_ITEMS_PER_THREAD_PACKED_WIDE},
      {GpuKernel::GatherWide, GS_ITEMS_PER_THREAD},
      {GpuKernel::GatherPacked, GS_ITEMS_PER_THREAD_PACKED},
      {GpuKernel::GatherPackedWide, GS_ITEMS_PER_THREAD_PACKED_WIDE},
      {GpuKernel::ScatterCopyWide, GS_ITEMS_PER_THREAD},
      {GpuKernel::ScatterWinnersWide, GS_ITEMS_PER_THREAD}};
  for (const auto& [kernel, items] : kernels) {
    const uint32_t group = gs::plan::GpuGroupThreads(kernel);
    EXPECT_EQ(group, kernel == GpuKernel::GatherLarge || kernel == GpuKernel::GatherPackedLarge ||
                             kernel == GpuKernel::GatherPackedWideLarge ||
                             kernel == GpuKernel::GatherPackedLargeQuads ||
                             kernel == GpuKernel::GatherPackedWideLargeQuads
                         ? GS_LARGE_GROUP_THREADS
                         : gs::plan::kGpuThreadsPerGroup)
        << static_cast<int>(kernel);
    EXPECT_EQ(gs::plan::GpuItemsPerThread(kernel, false), items) << static_cast<int>(kernel);
    EXPECT_EQ(gs::plan::GpuItemsPerThread(kernel, true), 1u) << static_cast<int>(kernel);
    // A group takes group * items items: one more starts a second group, and the pass counts
    // the items (the kernels compare each item against it).
    const gs::plan::GpuPass pass = gs::plan::MakeGpuPass(kernel, group * items + 1, false);
    EXPECT_EQ(pass.groupsX, 2u);
    EXPECT_EQ(pass.rowWidth, 2 * group);
    EXPECT_EQ(pass.constants.threadCount, group * items + 1);
    const uint32_t many = 65535u * group * items * 3u + 5u;
    const gs::plan::GpuPass large = gs::plan::MakeGpuPass(kernel, many, false);
    EXPECT_EQ(large.groupsY, 4u);
    EXPECT_GE(uint64_t{large.groupsX} * large.groupsY * group * items, many);
    EXPECT_EQ(gs::plan::MakeGpuPass(kernel, group * items + 1, true).groupsX, items + 1);
  }
  for (GpuKernel kernel : {GpuKernel::Gather, GpuKernel::Copy, GpuKernel::ScatterWinners}) {
    EXPECT_EQ(gs::plan::GpuItemsPerThread(kernel, false), 1u) << static_cast<int>(kernel);
  }
}

// 1000 Float32 elements and 2000 index words: the tensors fit 8 windows and the lists
// (1000 words each) 4 windows of 250 elements, and no fewer.
TEST(GpuSchedule, BeyondTheWindowsIsUnsupported) {
  const gs::CompiledOperator op = Scatter(gs::Reduction::None, 1000);
  gs::plan::GpuOptions options;
  gs::plan::GpuSchedule s;
  options.viewElementLimit = 2000;  // everything in the first view: the kernels without windows
  EXPECT_EQ(gs::plan::ScheduleGpuPasses(*op.plan(), options, &s), "");
  EXPECT_FALSE(s.windowed);
  options.viewElementLimit = 1999;
  EXPECT_EQ(gs::plan::ScheduleGpuPasses(*op.plan(), options, &s), "");
  EXPECT_TRUE(s.windowed);
  options.viewElementLimit = 250;
  EXPECT_EQ(gs::plan::ScheduleGpuPasses(*op.plan(), options, &s), "");
  EXPECT_TRUE(s.windowed);
  options.viewElementLimit = 249;
  // The reason names the tensor, its size, the views and their total: the numbers, not the prose.
  const std::string why = gs::plan::ScheduleGpuPasses(*op.plan(), options, &s);
  for (const char* part : {"IndicesTensor", "2000 elements", "8 buffer views", "249 elements", "(1992)"}) {
    EXPECT_THAT(why, ::testing::HasSubstr(part));
  }
  EXPECT_EQ(gs::plan::SmallestGpuViewLimit(*op.plan()), 256u);  // 250 rounded up to 16
}

// Checked gathers: the gather first, then a validation that runs only if the gather met a bad
// index, a thread per 256 indices; an empty output dispatches only the validation of its
// indices, an empty call nothing.
TEST(GpuSchedule, CheckedGathersValidateAfterTheGatherAndEmptyCallsDispatchNothing) {
  const auto gather = [](uint32_t rows, uint32_t indexCount, gs::CompiledOperator* op) {
    static uint32_t inputSizes[2], indexSizes[2];
    inputSizes[0] = rows, inputSizes[1] = 4, indexSizes[0] = indexCount, indexSizes[1] = 4;
    static gs::TensorDesc input, indices, output;
    input = {gs::DataType::Float32, 2, inputSizes, nullptr, rows * 16ull};
    indices = {gs::DataType::Int32, 2, indexSizes, nullptr, indexCount * 16ull};
    output = {gs::DataType::Float32, 2, indexSizes, nullptr, indexCount * 16ull};
    const gs::GatherElementsOperatorDesc desc{&input, &indices, &output, 0};
    ASSERT_TRUE(gs::CompileOperator({gs::OperatorType::GatherElements, &desc}, op).ok());
  };
  // Dense f32 outputs of whole 16-byte words: the gather writes 4 elements a thread.
  const GpuKernel gatherKernel = GpuKernel::GatherPackedWide;
  gs::plan::GpuSchedule s;
  gs::plan::GpuOptions checked;
  gs::CompiledOperator op;
  gather(10, 20, &op);
  ASSERT_EQ(gs::plan::ScheduleGpuPasses(*op.plan(), checked, &s), "");
  EXPECT_EQ(Kernels(s), (std::vector<GpuKernel>{gatherKernel, GpuKernel::Validate}));
  EXPECT_EQ(s.passes[0].constants.checked, uint32_t{GS_CHECKED});
  EXPECT_EQ(s.passes[1].constants.checked, uint32_t{GS_CHECKED_IF_MET});
  EXPECT_EQ(s.passes[1].constants.reportsBadIndex, 1u);  // the last pass reports the value itself
  EXPECT_EQ(s.passes[1].threads, 1u);  // 80 indices: one thread walks them all
  gather(10, 1000, &op);  // 4000 indices: a thread per 256, not one per index
  ASSERT_EQ(gs::plan::ScheduleGpuPasses(*op.plan(), checked, &s), "");
  EXPECT_EQ(s.passes[1].threads, 16u);
  EXPECT_EQ(s.passes[0].threads, 1000u);  // 4000 elements, 4 a thread
  gather(10, 20, &op);
  gs::plan::GpuOptions unchecked;
  unchecked.checked = false;
  ASSERT_EQ(gs::plan::ScheduleGpuPasses(*op.plan(), unchecked, &s), "");
  EXPECT_EQ(Kernels(s), (std::vector<GpuKernel>{gatherKernel}));
  gather(0, 20, &op);  // an empty input: every index is bad, the output is not empty
  ASSERT_EQ(gs::plan::ScheduleGpuPasses(*op.plan(), checked, &s), "");
  EXPECT_EQ(Kernels(s), (std::vector<GpuKernel>{gatherKernel, GpuKernel::Validate}));
  gather(10, 0, &op);  // an empty output and no index: nothing at all
  ASSERT_EQ(gs::plan::ScheduleGpuPasses(*op.plan(), checked, &s), "");
  EXPECT_EQ(s.passCount, 0u);
}

}  // namespace
