// Golden tests of the plan compiler's normalisation: folding, dropping size-1 dims, blocks.
#include <gtest/gtest.h>

#include <vector>

#include "desc_builder.h"
#include "plan/plan.h"

namespace gs::test {
namespace {

std::vector<uint64_t> Take(const uint64_t* values, uint64_t count) {
  return std::vector<uint64_t>(values, values + count);
}

const plan::Plan& PlanOf(const CompiledOperator& op) { return *op.plan(); }

TEST(Normalization, GatherNdRowsBecomeOneDimOfBlocks) {
  Tensor input(DataType::Float32, {1000, 256});
  Tensor indices(DataType::Int64, {64, 1});
  Tensor output(DataType::Float32, {64, 256});
  GatherNdOperatorDesc d{&input.desc, &indices.desc, &output.desc, 2, 2};
  CompiledOperator op;
  ASSERT_TRUE(Compile(OperatorType::GatherNd, &d, &op).ok());
  const auto& k = PlanOf(op).walk;
  EXPECT_EQ(k.rank, 1u);
  EXPECT_EQ(k.blockElements, 256u);
  EXPECT_EQ(Take(k.sizes, k.rank), (std::vector<uint64_t>{64}));
  EXPECT_EQ(Take(k.iterStrides, k.rank), (std::vector<uint64_t>{256}));
  EXPECT_EQ(Take(k.dataStrides, k.rank), (std::vector<uint64_t>{0}));
  EXPECT_EQ(Take(k.indexStrides, k.rank), (std::vector<uint64_t>{1}));
  EXPECT_EQ(k.tupleSize, 1u);
  EXPECT_EQ(k.indexedSizes[0], 1000u);
  EXPECT_EQ(k.indexedStrides[0], 256u);
  EXPECT_EQ(k.unitCount, 64u);
}

TEST(Normalization, GatherElementsLastAxisKeepsTwoDimsAndNoBlock) {
  Tensor input(DataType::Float32, {1, 16, 32});
  Tensor indices(DataType::Int32, {1, 16, 8});
  Tensor output(DataType::Float32, {1, 16, 8});
  GatherElementsOperatorDesc d{&input.desc, &indices.desc, &output.desc, 2};
  CompiledOperator op;
  ASSERT_TRUE(Compile(OperatorType::GatherElements, &d, &op).ok());
  const auto& k = PlanOf(op).walk;
  EXPECT_EQ(k.rank, 2u);  // the leading 1 is dropped; the two dims cannot fold (data stride 0)
  EXPECT_EQ(k.blockElements, 1u);
  EXPECT_EQ(Take(k.sizes, 2), (std::vector<uint64_t>{16, 8}));
  EXPECT_EQ(Take(k.iterStrides, 2), (std::vector<uint64_t>{8, 1}));
  EXPECT_EQ(Take(k.dataStrides, 2), (std::vector<uint64_t>{32, 0}));
  EXPECT_EQ(Take(k.indexStrides, 2), (std::vector<uint64_t>{8, 1}));
  EXPECT_EQ(k.indexedSizes[0], 32u);
  EXPECT_EQ(k.indexedStrides[0], 1u);
}

TEST(Normalization, GatherElementsAxisZeroFoldsTrailingDims) {
  Tensor input(DataType::UInt8, {5, 3, 4});
  Tensor indices(DataType::UInt32, {7, 3, 4});
  Tensor output(DataType::UInt8, {7, 3, 4});
  GatherElementsOperatorDesc d{&input.desc, &indices.desc, &output.desc, 0};
  CompiledOperator op;
  ASSERT_TRUE(Compile(OperatorType::GatherElements, &d, &op).ok());
  const auto& k = PlanOf(op).walk;
  EXPECT_EQ(k.rank, 2u);  // {3,4} fold into 12 in all three tensors
  EXPECT_EQ(Take(k.sizes, 2), (std::vector<uint64_t>{7, 12}));
  EXPECT_EQ(Take(k.dataStrides, 2), (std::vector<uint64_t>{0, 1}));
  EXPECT_EQ(k.indexedStrides[0], 12u);
}

TEST(Normalization, GatherEmbeddingLookupIsRowsOfBlocks) {
  Tensor input(DataType::Float32, {1, 100, 64});
  Tensor indices(DataType::Int64, {1, 10, 20});
  Tensor output(DataType::Float32, {10, 20, 64});  // {1} cropped: Input's leading one
  GatherOperatorDesc d{&input.desc, &indices.desc, &output.desc, 1, 2};
  CompiledOperator op;
  ASSERT_TRUE(Compile(OperatorType::Gather, &d, &op).ok());
  const auto& k = PlanOf(op).walk;
  EXPECT_EQ(k.rank, 1u);
  EXPECT_EQ(k.sizes[0], 200u);
  EXPECT_EQ(k.blockElements, 64u);
  EXPECT_EQ(k.indexStrides[0], 1u);
  EXPECT_EQ(k.indexedSizes[0], 100u);
  EXPECT_EQ(k.indexedStrides[0], 64u);
}

TEST(Normalization, GatherNd1BatchDimsKeepTheirOwnStrides) {
  // Input {2,5,3}, batch 1, tuple 1: out[b, i, :] = in[b, idx[b, i], :]
  Tensor input(DataType::Int16, {2, 5, 3});
  Tensor indices(DataType::Int32, {2, 4, 1});
  Tensor output(DataType::Int16, {2, 4, 3});
  GatherNd1OperatorDesc d{&input.desc, &indices.desc, &output.desc, 3, 3, 1};
  CompiledOperator op;
  ASSERT_TRUE(Compile(OperatorType::GatherNd1, &d, &op).ok());
  const auto& k = PlanOf(op).walk;
  EXPECT_EQ(k.rank, 2u);
  EXPECT_EQ(k.blockElements, 3u);
  EXPECT_EQ(Take(k.sizes, 2), (std::vector<uint64_t>{2, 4}));
  EXPECT_EQ(Take(k.iterStrides, 2), (std::vector<uint64_t>{12, 3}));
  EXPECT_EQ(Take(k.dataStrides, 2), (std::vector<uint64_t>{15, 0}));
  EXPECT_EQ(Take(k.indexStrides, 2), (std::vector<uint64_t>{4, 1}));
  EXPECT_EQ(k.indexedSizes[0], 5u);
  EXPECT_EQ(k.indexedStrides[0], 3u);
}

TEST(Normalization, ScatterNdTuplesKeepComponentStrides) {
  Tensor input(DataType::Float64, {4, 5, 6});
  Tensor indices(DataType::UInt64, {1, 3, 2});
  Tensor updates(DataType::Float64, {1, 3, 6});
  Tensor output(DataType::Float64, {4, 5, 6});
  ScatterNdOperatorDesc d{&input.desc, &indices.desc, &updates.desc, &output.desc, 3, 2,
                          Reduction::Add};
  CompiledOperator op;
  ASSERT_TRUE(Compile(OperatorType::ScatterNd, &d, &op).ok());
  const auto& p = PlanOf(op);
  EXPECT_TRUE(p.isScatter);
  EXPECT_EQ(p.walk.rank, 1u);
  EXPECT_EQ(p.walk.sizes[0], 3u);
  EXPECT_EQ(p.walk.blockElements, 6u);
  EXPECT_EQ(p.walk.tupleSize, 2u);
  EXPECT_EQ(p.walk.tupleStride, 1u);
  EXPECT_EQ(Take(p.walk.indexedSizes, 2), (std::vector<uint64_t>{4, 5}));
  EXPECT_EQ(Take(p.walk.indexedStrides, 2), (std::vector<uint64_t>{30, 6}));
  // The Input -> Output copy is one contiguous block.
  EXPECT_EQ(p.copy.rank, 0u);
  EXPECT_EQ(p.copy.blockElements, 120u);
  EXPECT_EQ(p.copy.unitCount, 1u);
}

TEST(Normalization, StridedOutputDoesNotFoldAcrossPadding) {
  Tensor input(DataType::Float32, {4, 4});
  Tensor indices(DataType::UInt32, {4, 1});
  Tensor output(DataType::Float32, {4, 4}, {5, 1});
  GatherNdOperatorDesc d{&input.desc, &indices.desc, &output.desc, 2, 2};
  CompiledOperator op;
  ASSERT_TRUE(Compile(OperatorType::GatherNd, &d, &op).ok());
  const auto& k = PlanOf(op).walk;
  EXPECT_EQ(k.rank, 1u);
  EXPECT_EQ(k.blockElements, 4u);
  EXPECT_EQ(k.iterStrides[0], 5u);
}

TEST(Normalization, BroadcastIndicesFoldWithZeroStrides) {
  Tensor input(DataType::Float16, {2, 5});
  Tensor indices(DataType::Int32, {2, 3}, {0, 0});
  Tensor updates(DataType::Float16, {2, 3});
  Tensor output(DataType::Float16, {2, 5});
  ScatterElementsOperatorDesc d{&input.desc, &indices.desc, &updates.desc, &output.desc, 1,
                                Reduction::None};
  CompiledOperator op;
  ASSERT_TRUE(Compile(OperatorType::ScatterElements, &d, &op).ok());
  const auto& p = PlanOf(op);
  EXPECT_EQ(p.walk.rank, 2u);  // updates packed {3,1}, output data {5,0}: no fold
  EXPECT_EQ(Take(p.walk.indexStrides, 2), (std::vector<uint64_t>{0, 0}));
  EXPECT_EQ(p.validation.rank, 1u);  // {2,3} with strides {0,0} folds into one dim of 6
  EXPECT_EQ(p.validation.sizes[0], 6u);
  EXPECT_EQ(p.validation.strides[0], 0u);
}

TEST(Normalization, AllSizeOneDimsLeaveRankZero) {
  Tensor input(DataType::Int8, {1, 1, 1});
  Tensor indices(DataType::Int64, {1, 1, 1});
  Tensor output(DataType::Int8, {1, 1, 1});
  GatherElementsOperatorDesc d{&input.desc, &indices.desc, &output.desc, 2};
  CompiledOperator op;
  ASSERT_TRUE(Compile(OperatorType::GatherElements, &d, &op).ok());
  const auto& k = PlanOf(op).walk;
  EXPECT_EQ(k.rank, 0u);
  EXPECT_EQ(k.unitCount, 1u);
  EXPECT_EQ(k.blockElements, 1u);
}

}  // namespace
}  // namespace gs::test
