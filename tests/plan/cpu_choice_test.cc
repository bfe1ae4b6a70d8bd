// Golden tests of the CPU implementation list (src/plan/cpu_choice.cc): which implementation
// the plan records for representative descs, with its geometry and streaming.
#include <gtest/gtest.h>

#include "desc_builder.h"
#include "plan/plan.h"

namespace gs::test {
namespace {

using plan::CpuImplementation;

// Restores the cache-size rule when a test that forced it ends.
struct StreamingThreshold {
  explicit StreamingThreshold(uint64_t bytes) { plan::ForceStreamingThreshold(bytes); }
  ~StreamingThreshold() { plan::ForceStreamingThreshold(0); }
};

plan::CpuChoice ChoiceOf(OperatorType type, const void* desc) {
  CompiledOperator op;
  const Status status = Compile(type, desc, &op);
  EXPECT_TRUE(status.ok()) << status.message();
  return status.ok() ? op.plan()->cpu : plan::CpuChoice();
}

TEST(CpuChoice, LastAxisGatherElementsIsElementRowsWithoutStrips) {
  Tensor input(DataType::Float32, {256, 512});
  Tensor indices(DataType::Int64, {256, 512});
  Tensor output(DataType::Float32, {256, 512});
  GatherElementsOperatorDesc d{&input.desc, &indices.desc, &output.desc, 1};
  const plan::CpuChoice choice = ChoiceOf(OperatorType::GatherElements, &d);
  EXPECT_EQ(choice.implementation, CpuImplementation::GatherElementRows);
  EXPECT_EQ(choice.rows.inner, 1u);
  EXPECT_EQ(choice.rows.rowLength, 512u);
  EXPECT_EQ(choice.rows.rowCount, 256u);
  EXPECT_EQ(choice.rows.stripWidth, 512u);
  EXPECT_FALSE(choice.rows.packed);
}

TEST(CpuChoice, AxisZeroGatherElementsReadsPackedStrips) {
  // Every output row reads the same 64 rows of 4 KiB: strips of columns whose 64 rows fit in
  // half an L2 (1 MiB), as wide as that allows and no wider than the row.
  Tensor input(DataType::Float32, {64, 1024});
  Tensor indices(DataType::Int32, {512, 1024});
  Tensor output(DataType::Float32, {512, 1024});
  GatherElementsOperatorDesc d{&input.desc, &indices.desc, &output.desc, 0};
  const plan::CpuChoice choice = ChoiceOf(OperatorType::GatherElements, &d);
  EXPECT_EQ(choice.implementation, CpuImplementation::GatherElementRows);
  EXPECT_TRUE(choice.rows.packed);
  EXPECT_EQ(choice.rows.rowLength, 1024u);
  EXPECT_EQ(choice.rows.rowCount, 512u);
  EXPECT_EQ(choice.rows.stripWidth, 1024u);
}

TEST(CpuChoice, StripsNarrowToKeepTheirRowsInHalfAnL2) {
  // 4096 rows of 8-byte elements: a strip of w columns reads 4096 * w * 8 bytes <= 1 MiB.
  Tensor input(DataType::Float64, {4096, 1024});
  Tensor indices(DataType::Int32, {128, 1024});
  Tensor output(DataType::Float64, {128, 1024});
  GatherElementsOperatorDesc d{&input.desc, &indices.desc, &output.desc, 0};
  const plan::CpuChoice choice = ChoiceOf(OperatorType::GatherElements, &d);
  EXPECT_EQ(choice.implementation, CpuImplementation::GatherElementRows);
  EXPECT_TRUE(choice.rows.packed);
  EXPECT_EQ(choice.rows.stripWidth, 32u);
}

TEST(CpuChoice, GatherNdPairsAreTupleRows) {
  Tensor input(DataType::Float32, {300, 200});
  Tensor indices(DataType::Int64, {1000, 2});
  Tensor output(DataType::Float32, {1, 1000});
  GatherNdOperatorDesc d{&input.desc, &indices.desc, &output.desc, 2, 2};
  const plan::CpuChoice choice = ChoiceOf(OperatorType::GatherNd, &d);
  EXPECT_EQ(choice.implementation, CpuImplementation::GatherTupleRows);
  EXPECT_EQ(choice.rows.rowLength, 1000u);
  EXPECT_EQ(choice.rows.rowCount, 1u);
  EXPECT_EQ(choice.taskUnits, plan::kTaskBytes / (4 + 2 * 8));
}

TEST(CpuChoice, EmbeddingRowsAreBlocks) {
  Tensor input(DataType::Float32, {1000, 256});
  Tensor indices(DataType::Int32, {1, 64});
  Tensor output(DataType::Float32, {64, 256});
  GatherOperatorDesc d{&input.desc, &indices.desc, &output.desc, 0, 1};
  const plan::CpuChoice choice = ChoiceOf(OperatorType::Gather, &d);
  EXPECT_EQ(choice.implementation, CpuImplementation::GatherBlocks);
  EXPECT_EQ(choice.taskUnits, plan::kTaskBytes / (256 * 4 + 4));
}

TEST(CpuChoice, SmallBlocksAndStridedElementsTakeTheGenericWalks) {
  // Rows of 4 floats (16 bytes): too small for block copies.
  Tensor input(DataType::Float32, {100, 4});
  Tensor indices(DataType::Int32, {10, 1});
  Tensor output(DataType::Float32, {10, 4});
  GatherNdOperatorDesc rows{&input.desc, &indices.desc, &output.desc, 2, 2};
  EXPECT_EQ(ChoiceOf(OperatorType::GatherNd, &rows).implementation, CpuImplementation::GatherUnits);
  // A strided output breaks the contiguous rows: element units.
  Tensor in2(DataType::Int16, {8, 8});
  Tensor idx2(DataType::Int32, {8, 8});
  Tensor out2(DataType::Int16, {8, 8}, {16, 2});
  GatherElementsOperatorDesc strided{&in2.desc, &idx2.desc, &out2.desc, 1};
  EXPECT_EQ(ChoiceOf(OperatorType::GatherElements, &strided).implementation,
            CpuImplementation::GatherElementUnits);
}

TEST(CpuChoice, ScatterElementsAlongAxisZeroRunsDisjointStrips) {
  Tensor input(DataType::Float32, {100, 1024});
  Tensor indices(DataType::Int32, {256, 1024});
  Tensor updates(DataType::Float32, {256, 1024});
  Tensor output(DataType::Float32, {100, 1024});
  ScatterElementsOperatorDesc d{&input.desc, &indices.desc, &updates.desc, &output.desc, 0,
                                Reduction::Add};
  const plan::CpuChoice choice = ChoiceOf(OperatorType::ScatterElements, &d);
  EXPECT_EQ(choice.implementation, CpuImplementation::ScatterStrips);
  EXPECT_TRUE(choice.rows.packed);
}

TEST(CpuChoice, ScatterOverwritesAlongTheLastAxisAreRowsAndReductionsAreUnits) {
  Tensor input(DataType::Int8, {16, 300});
  Tensor indices(DataType::UInt32, {16, 40});
  Tensor updates(DataType::Int8, {16, 40});
  Tensor output(DataType::Int8, {16, 300});
  ScatterElementsOperatorDesc overwrite{&input.desc, &indices.desc, &updates.desc, &output.desc,
                                        1, Reduction::None};
  EXPECT_EQ(ChoiceOf(OperatorType::ScatterElements, &overwrite).implementation,
            CpuImplementation::ScatterElementRows);
  ScatterElementsOperatorDesc reduce{&input.desc, &indices.desc, &updates.desc, &output.desc, 1,
                                     Reduction::Max};
  EXPECT_EQ(ChoiceOf(OperatorType::ScatterElements, &reduce).implementation,
            CpuImplementation::ScatterUnits);
}

TEST(CpuChoice, OutputsStreamOnlyWhenTheCallTouchesMoreThanTheThreshold) {
  Tensor input(DataType::Float32, {1000, 256});
  Tensor indices(DataType::Int32, {64, 1});
  Tensor updates(DataType::Float32, {64, 256});
  Tensor output(DataType::Float32, {1000, 256});
  ScatterNdOperatorDesc d{&input.desc, &indices.desc, &updates.desc, &output.desc, 2, 2,
                          Reduction::None};
  // 64 rows of 1 KiB: the scatter touches 128 KiB (read and write); the copy 2 MB.
  {
    const StreamingThreshold threshold(256 * 1024);
    const plan::CpuChoice choice = ChoiceOf(OperatorType::ScatterNd, &d);
    EXPECT_EQ(choice.implementation, CpuImplementation::ScatterUnits);
    EXPECT_FALSE(choice.streamOutput);
    EXPECT_TRUE(choice.streamCopy);
  }
  {
    const StreamingThreshold threshold(64 * 1024);
    const plan::CpuChoice choice = ChoiceOf(OperatorType::ScatterNd, &d);
    EXPECT_TRUE(choice.streamOutput);
    EXPECT_TRUE(choice.streamCopy);
  }
  {
    const StreamingThreshold threshold(4 * 1024 * 1024);
    const plan::CpuChoice choice = ChoiceOf(OperatorType::ScatterNd, &d);
    EXPECT_FALSE(choice.streamOutput);
    EXPECT_FALSE(choice.streamCopy);
  }
}

TEST(CpuChoice, EveryImplementationHasItsName) {
  for (uint32_t i = 0; i < plan::kCpuImplementationCount; ++i) {
    const char* name = plan::CpuImplementationName(static_cast<CpuImplementation>(i));
    ASSERT_NE(name, nullptr);
    EXPECT_NE(std::string(name), "");
  }
  EXPECT_STREQ(plan::CpuImplementationName(CpuImplementation::ScatterStrips), "scatter_strips");
}

// The cache sizes the plan streams above: sysfs's "32768K" read as 32 MiB (no data cache is
// under 4 KiB), each level no smaller than the one below it, the last level the largest.
TEST(CpuChoice, CacheSizesAreReadInBytes) {
  uint64_t below = 0;
  for (int level = 1; level <= 3; ++level) {
    const uint64_t bytes = plan::CacheBytes(level);
    if (bytes == 0) continue;  // unknown on this machine
    EXPECT_GE(bytes, 4096u) << "level " << level;
    EXPECT_EQ(bytes % 1024, 0u) << "level " << level << ": " << bytes;
    EXPECT_GE(bytes, below) << "level " << level;
    below = bytes;
  }
  EXPECT_EQ(plan::LastLevelCacheBytes(), below);
}

}  // namespace
}  // namespace gs::test
