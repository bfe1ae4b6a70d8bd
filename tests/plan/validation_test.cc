// One test per validation rule: the status code and a message that names the operator, the
// field, the value and the rule.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <utility>
#include <vector>

#include "desc_builder.h"
#include "plan/overlap.h"
#include "plan/plan.h"

namespace gs::test {
namespace {

using ::testing::HasSubstr;

#define EXPECT_INVALID(status, ...)                                              \
  do {                                                                           \
    const Status s_ = (status);                                                  \
    EXPECT_EQ(s_.code(), StatusCode::InvalidArgument) << s_.message();           \
    for (const char* part : {__VA_ARGS__}) EXPECT_THAT(s_.message(), HasSubstr(part)); \
  } while (0)

// A valid GATHER_ELEMENTS on {3,4} along Axis 1 that each test breaks in one way.
struct ElementsFixture {
  Tensor input{DataType::Float32, {3, 4}};
  Tensor indices{DataType::Int32, {3, 2}};
  Tensor output{DataType::Float32, {3, 2}};
  GatherElementsOperatorDesc desc{&input.desc, &indices.desc, &output.desc, 1};
  Status Compile() {
    CompiledOperator op;
    return test::Compile(OperatorType::GatherElements, &desc, &op);
  }
};

// A valid SCATTER_ND: Input {4,3}, Indices {2,1}, Updates {2,3}.
struct ScatterNdFixture {
  Tensor input{DataType::Int32, {4, 3}};
  Tensor indices{DataType::Int64, {2, 1}};
  Tensor updates{DataType::Int32, {2, 3}};
  Tensor output{DataType::Int32, {4, 3}};
  ScatterNdOperatorDesc desc{&input.desc, &indices.desc, &updates.desc, &output.desc, 2, 2,
                             Reduction::None};
  Status Compile(CompiledOperator* op) { return test::Compile(OperatorType::ScatterNd, &desc, op); }
  Status Compile() {
    CompiledOperator op;
    return Compile(&op);
  }
};

TEST(Validation, ValidFixturesCompile) {
  EXPECT_TRUE(ElementsFixture().Compile().ok());
  EXPECT_TRUE(ScatterNdFixture().Compile().ok());
}

TEST(Validation, UnknownOperatorType) {
  int dummy = 0;
  CompiledOperator op;
  EXPECT_INVALID(CompileOperator({static_cast<OperatorType>(17), &dummy}, &op), "OperatorDesc.Type",
                 "17");
}

TEST(Validation, NullOperatorDesc) {
  CompiledOperator op;
  EXPECT_INVALID(CompileOperator({OperatorType::GatherNd, nullptr}, &op), "GATHER_ND",
                 "OperatorDesc.Desc is null");
}

TEST(Validation, UnknownReduction) {
  ScatterNdFixture f;
  f.desc.Reduction = static_cast<Reduction>(9);
  EXPECT_INVALID(f.Compile(), "SCATTER_ND", "Reduction is 9", "NONE, ADD, MULTIPLY, MIN or MAX");
}

TEST(Validation, NullTensor) {
  ScatterNdFixture f;
  f.desc.UpdatesTensor = nullptr;
  EXPECT_INVALID(f.Compile(), "SCATTER_ND", "UpdatesTensor is null");
}

TEST(Validation, DimensionCountOutOfRange) {
  ElementsFixture f;
  f.input.desc.DimensionCount = 9;
  EXPECT_INVALID(f.Compile(), "GATHER_ELEMENTS", "InputTensor.DimensionCount is 9", "[1, 8]");
  f.input.desc.DimensionCount = 0;
  EXPECT_INVALID(f.Compile(), "InputTensor.DimensionCount is 0");
}

TEST(Validation, NullSizes) {
  ElementsFixture f;
  f.indices.desc.Sizes = nullptr;
  EXPECT_INVALID(f.Compile(), "IndicesTensor.Sizes is null");
}

TEST(Validation, UnknownDataType) {
  ElementsFixture f;
  f.output.desc.DataType = static_cast<DataType>(42);
  EXPECT_INVALID(f.Compile(), "OutputTensor.DataType 42", "11 data types");
}

// A size of 0 makes an empty tensor (ONNX, PyTorch): the shape rules hold as for any other.
TEST(Validation, ZeroSizeIsAnEmptyTensorUnderTheSameShapeRules) {
  ElementsFixture f;
  f.indices.sizes[0] = 0;
  f.indices.desc.TotalTensorSizeInBytes = 0;
  EXPECT_INVALID(f.Compile(), "OutputTensor.Sizes is {3,2}", "must be {0,2}");
  f.output.sizes[0] = 0;
  f.output.desc.TotalTensorSizeInBytes = 0;
  const Status s = f.Compile();
  EXPECT_TRUE(s.ok()) << s.message();
}

TEST(Validation, EmptyInputAlongTheAxisCompiles) {
  ElementsFixture f;
  f.input.sizes[1] = 0;
  f.input.desc.TotalTensorSizeInBytes = 0;
  const Status s = f.Compile();  // every index is then out of bounds: an execution error
  EXPECT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(MinimumTensorSizeInBytes(f.input.desc), 0u);
}

TEST(Validation, ElementCountOverflows) {
  Tensor big(DataType::UInt8, {4294967295u, 4294967295u, 4294967295u});
  Tensor indices(DataType::Int32, {1, 1, 1});
  Tensor output(DataType::UInt8, {1, 1, 1});
  GatherElementsOperatorDesc d{&big.desc, &indices.desc, &output.desc, 0};
  CompiledOperator op;
  EXPECT_INVALID(Compile(OperatorType::GatherElements, &d, &op), "InputTensor.Sizes",
                 "more than 2^64 elements");
}

TEST(Validation, StridesOverflowByteOffsets) {
  ElementsFixture f;
  f.input.strides = {4294967295u, 4294967295u};
  f.input.desc.Strides = f.input.strides.data();
  f.input.sizes = {4294967295u, 4294967295u};
  f.input.desc.DataType = DataType::Float64;
  f.output.desc.DataType = DataType::Float64;
  EXPECT_INVALID(f.Compile(), "InputTensor.Sizes", "64-bit byte offsets");
}

TEST(Validation, BufferTooSmallForView) {
  ElementsFixture f;
  f.output.strides = {20, 1};
  f.output.desc.Strides = f.output.strides.data();  // reaches 2*20+1+1 = 42 elements
  f.output.desc.TotalTensorSizeInBytes = 41 * 4;
  EXPECT_INVALID(f.Compile(), "OutputTensor.TotalTensorSizeInBytes is 164", "reach 168 bytes");
}

TEST(Validation, DimensionCountMismatch) {
  ElementsFixture f;
  Tensor indices(DataType::Int32, {1, 3, 2});
  f.desc.IndicesTensor = &indices.desc;
  EXPECT_INVALID(f.Compile(), "IndicesTensor.DimensionCount is 3", "InputTensor.DimensionCount is 2",
                 "same DimensionCount");
}

TEST(Validation, IndicesDataTypeNotAnIndexType) {
  ElementsFixture f;
  f.indices.desc.DataType = DataType::UInt8;
  EXPECT_INVALID(f.Compile(), "IndicesTensor.DataType is UINT8", "INT32, INT64, UINT32 or UINT64");
}

TEST(Validation, OutputDataTypeMismatch) {
  ElementsFixture f;
  f.output.desc.DataType = DataType::Float16;
  EXPECT_INVALID(f.Compile(), "OutputTensor.DataType is FLOAT16", "InputTensor.DataType is FLOAT32");
}

TEST(Validation, UpdatesDataTypeMismatch) {
  ScatterNdFixture f;
  f.updates.desc.DataType = DataType::UInt32;
  EXPECT_INVALID(f.Compile(), "UpdatesTensor.DataType is UINT32", "INT32");
}

TEST(Validation, AxisOutOfRange) {
  ElementsFixture f;
  f.desc.Axis = 4294967295u;
  EXPECT_INVALID(f.Compile(), "Axis is 4294967295", "[0, 2)");
}

TEST(Validation, ElementsIndicesLargerOffAxis) {
  ElementsFixture f;
  f.indices.sizes[0] = 4;
  f.indices.desc.TotalTensorSizeInBytes = 32;
  f.output.sizes[0] = 4;
  f.output.desc.TotalTensorSizeInBytes = 32;
  EXPECT_INVALID(f.Compile(), "IndicesTensor.Sizes is {4,2}", "InputTensor.Sizes is {3,4}",
                 "every dimension but Axis 1", "at most the input size (dimension 0)");
}

// Smaller off the axis addresses the input's leading corner (ONNX, PyTorch); along the axis
// any count of indices is allowed.
TEST(Validation, ElementsIndicesSmallerOffAxisOrLargerOnItCompile) {
  ElementsFixture f;
  f.indices.sizes = {2, 9};
  f.indices.desc.TotalTensorSizeInBytes = 72;
  f.output.sizes = {2, 9};
  f.output.desc.TotalTensorSizeInBytes = 72;
  const Status s = f.Compile();
  EXPECT_TRUE(s.ok()) << s.message();
}

// q = 0: empty tuples, each selecting the whole trailing block; with batch dims too.
TEST(Validation, EmptyTuplesCompileWithAndWithoutBatchDims) {
  Tensor input(DataType::Float32, {1, 3, 4});
  Tensor indices(DataType::Int64, {1, 5, 0});
  Tensor output(DataType::Float32, {5, 3, 4});
  Tensor badOutput(DataType::Float32, {2, 5, 4});
  GatherNdOperatorDesc nd{&input.desc, &indices.desc, &output.desc, 2, 2};
  CompiledOperator op;
  Status s = Compile(OperatorType::GatherNd, &nd, &op);
  EXPECT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(op.plan()->walk.tupleSize, 0u);
  EXPECT_EQ(op.plan()->walk.unitCount * op.plan()->walk.blockElements, 60u);
  // With DimensionCount 3 there is no room for 1 batch, 1 index and 2 trailing dims.
  GatherNd1OperatorDesc cramped{&input.desc, &indices.desc, &output.desc, 3, 3, 1};
  EXPECT_INVALID(Compile(OperatorType::GatherNd1, &cramped, &op), "needs 4 dimensions");
  Tensor input4(DataType::Float32, {1, 2, 3, 4});
  Tensor indices4(DataType::Int64, {1, 2, 5, 0});
  Tensor output4(DataType::Float32, {2, 5, 3, 4});
  GatherNd1OperatorDesc batched{&input4.desc, &indices4.desc, &output4.desc, 3, 3, 1};
  s = Compile(OperatorType::GatherNd1, &batched, &op);
  EXPECT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(op.plan()->walk.tupleSize, 0u);
  GatherNd1OperatorDesc wrong{&input4.desc, &indices4.desc, &badOutput.desc, 3, 3, 1};
  EXPECT_INVALID(Compile(OperatorType::GatherNd1, &wrong, &op), "DimensionCount");
}

TEST(Validation, GatherElementsOutputSizes) {
  ElementsFixture f;
  f.output.sizes[1] = 3;
  f.output.desc.TotalTensorSizeInBytes = 36;
  EXPECT_INVALID(f.Compile(), "OutputTensor.Sizes is {3,3}", "must be {3,2}");
}

TEST(Validation, ScatterElementsUpdatesSizes) {
  Tensor input(DataType::Int8, {3, 4});
  Tensor indices(DataType::Int32, {3, 2});
  Tensor updates(DataType::Int8, {3, 3});
  Tensor output(DataType::Int8, {3, 4});
  ScatterElementsOperatorDesc d{&input.desc, &indices.desc, &updates.desc, &output.desc, 1,
                                Reduction::None};
  CompiledOperator op;
  EXPECT_INVALID(Compile(OperatorType::ScatterElements, &d, &op), "SCATTER_ELEMENTS",
                 "UpdatesTensor.Sizes is {3,3}", "must be {3,2}");
}

TEST(Validation, ScatterOutputSizesEqualInput) {
  ScatterNdFixture f;
  Tensor output(DataType::Int32, {4, 4});
  f.desc.OutputTensor = &output.desc;
  EXPECT_INVALID(f.Compile(), "OutputTensor.Sizes is {4,4}", "must be {4,3}");
}

TEST(Validation, GatherIndexDimensionsOutOfRange) {
  Tensor input(DataType::UInt16, {1, 4, 3});
  Tensor indices(DataType::Int32, {1, 1, 2});
  Tensor output(DataType::UInt16, {1, 2, 3});
  GatherOperatorDesc d{&input.desc, &indices.desc, &output.desc, 1, 3};
  CompiledOperator op;
  EXPECT_INVALID(Compile(OperatorType::Gather, &d, &op), "GATHER", "IndexDimensions is 3",
                 "[0, 3)");
}

TEST(Validation, GatherIndicesLeadingOnes) {
  Tensor input(DataType::UInt16, {1, 4, 3});
  Tensor indices(DataType::Int32, {1, 2, 2});
  Tensor output(DataType::UInt16, {1, 2, 3});
  GatherOperatorDesc d{&input.desc, &indices.desc, &output.desc, 1, 1};
  CompiledOperator op;
  EXPECT_INVALID(Compile(OperatorType::Gather, &d, &op), "IndicesTensor.Sizes is {1,2,2}",
                 "IndexDimensions 1", "leading 2 sizes must be 1");
}

TEST(Validation, GatherOutputNeedsTooManyDims) {
  Tensor input(DataType::Float32, {2, 3, 3});
  Tensor indices(DataType::Int32, {1, 2, 2});
  Tensor output(DataType::Float32, {2, 2, 3});
  GatherOperatorDesc d{&input.desc, &indices.desc, &output.desc, 1, 2};
  CompiledOperator op;
  EXPECT_INVALID(Compile(OperatorType::Gather, &d, &op), "the output needs 4 dimensions",
                 "DimensionCount is 3");
}

TEST(Validation, GatherOutputSizes) {
  Tensor input(DataType::Float32, {1, 1, 3});
  Tensor indices(DataType::Int32, {1, 1, 2});
  Tensor output(DataType::Float32, {3, 2, 1});
  GatherOperatorDesc d{&input.desc, &indices.desc, &output.desc, 1, 1};
  CompiledOperator op;
  EXPECT_INVALID(Compile(OperatorType::Gather, &d, &op), "OutputTensor.Sizes is {3,2,1}",
                 "must be {1,2,3}");
}

TEST(Validation, InputDimensionCountOutOfRange) {
  ScatterNdFixture f;
  f.desc.InputDimensionCount = 3;
  EXPECT_INVALID(f.Compile(), "InputDimensionCount is 3", "[1, 2]");
  f.desc.InputDimensionCount = 0;
  EXPECT_INVALID(f.Compile(), "InputDimensionCount is 0");
}

TEST(Validation, IndicesDimensionCountOutOfRange) {
  ScatterNdFixture f;
  f.desc.IndicesDimensionCount = 4;
  EXPECT_INVALID(f.Compile(), "IndicesDimensionCount is 4", "[1, 2]");
}

TEST(Validation, BatchDimensionCountTooLarge) {
  Tensor input(DataType::Int32, {2, 3, 4});
  Tensor indices(DataType::UInt32, {1, 2, 1});
  Tensor output(DataType::Int32, {1, 2, 4});
  GatherNd1OperatorDesc d{&input.desc, &indices.desc, &output.desc, 3, 2, 2};
  CompiledOperator op;
  EXPECT_INVALID(Compile(OperatorType::GatherNd1, &d, &op), "GATHER_ND1", "BatchDimensionCount is 2",
                 "less than IndicesDimensionCount 2");
}

TEST(Validation, NdInputLeadingOnes) {
  Tensor input(DataType::Int32, {2, 3, 4});
  Tensor indices(DataType::Int32, {1, 2, 1});
  Tensor output(DataType::Int32, {1, 2, 4});
  GatherNdOperatorDesc d{&input.desc, &indices.desc, &output.desc, 2, 2};
  CompiledOperator op;
  EXPECT_INVALID(Compile(OperatorType::GatherNd, &d, &op), "InputTensor.Sizes is {2,3,4}",
                 "InputDimensionCount 2", "leading 1 sizes must be 1");
}

TEST(Validation, NdIndicesLeadingOnes) {
  Tensor input(DataType::Int32, {1, 3, 4});
  Tensor indices(DataType::Int32, {2, 2, 1});
  Tensor output(DataType::Int32, {2, 2, 4});
  GatherNdOperatorDesc d{&input.desc, &indices.desc, &output.desc, 2, 2};
  CompiledOperator op;
  EXPECT_INVALID(Compile(OperatorType::GatherNd, &d, &op), "IndicesTensor.Sizes is {2,2,1}",
                 "IndicesDimensionCount 2");
}

TEST(Validation, TupleAndBatchExceedInputDimensionCount) {
  Tensor input(DataType::Int32, {2, 3, 4});
  Tensor indices(DataType::UInt32, {1, 2, 3});
  Tensor output(DataType::Int32, {1, 1, 2});
  GatherNd1OperatorDesc d{&input.desc, &indices.desc, &output.desc, 3, 2, 1};
  CompiledOperator op;
  EXPECT_INVALID(Compile(OperatorType::GatherNd1, &d, &op), "index tuple size", "is 3",
                 "BatchDimensionCount is 1", "at most InputDimensionCount 3");
}

TEST(Validation, BatchSizesDiffer) {
  Tensor input(DataType::Int32, {3, 5, 4});
  Tensor indices(DataType::UInt32, {1, 2, 1});
  Tensor output(DataType::Int32, {1, 2, 4});
  GatherNd1OperatorDesc d{&input.desc, &indices.desc, &output.desc, 3, 2, 1};
  CompiledOperator op;
  EXPECT_INVALID(Compile(OperatorType::GatherNd1, &d, &op), "batch dimension 0",
                 "IndicesTensor.Sizes {1,2,1}", "InputTensor.Sizes {3,5,4}");
}

TEST(Validation, NdOutputNeedsTooManyDims) {
  // Two index dims and two trailing input dims make four: more than the DimensionCount 3.
  Tensor input(DataType::Int32, {2, 3, 4});
  Tensor indices(DataType::UInt32, {5, 2, 1});
  Tensor output(DataType::Int32, {2, 3, 4});
  GatherNdOperatorDesc d{&input.desc, &indices.desc, &output.desc, 3, 3};
  CompiledOperator op;
  EXPECT_INVALID(Compile(OperatorType::GatherNd, &d, &op), "OutputTensor needs 4 dimensions",
                 "DimensionCount is 3");
}

TEST(Validation, NdOutputSizes) {
  Tensor input(DataType::Float32, {2, 4, 2, 3});
  Tensor indices(DataType::Int32, {1, 2, 1, 2});
  Tensor output(DataType::Float32, {3, 1, 2, 1});
  GatherNd1OperatorDesc d{&input.desc, &indices.desc, &output.desc, 4, 3, 1};
  CompiledOperator op;
  EXPECT_INVALID(Compile(OperatorType::GatherNd1, &d, &op), "OutputTensor.Sizes is {3,1,2,1}");
}

TEST(Validation, ScatterNdUpdatesSizes) {
  ScatterNdFixture f;
  Tensor updates(DataType::Int32, {3, 3});
  f.desc.UpdatesTensor = &updates.desc;
  EXPECT_INVALID(f.Compile(), "UpdatesTensor.Sizes is {3,3}", "must be {2,3}");
}

TEST(Validation, OutputBroadcastStrideOverlaps) {
  ElementsFixture f;
  f.output.strides = {0, 1};
  f.output.desc.Strides = f.output.strides.data();
  EXPECT_INVALID(f.Compile(), "OutputTensor.Strides {0,1}", "must not overlap itself");
}

TEST(Validation, OutputInterleavedStridesOverlap) {
  ElementsFixture f;
  f.output.strides = {1, 1};  // {3,2}: offsets 0,1,1,2,2,3
  f.output.desc.Strides = f.output.strides.data();
  EXPECT_INVALID(f.Compile(), "make two elements share bytes");
  f.output.strides = {2, 3};  // offsets 0,3,2,5,4,7: interleaved but disjoint
  f.output.desc.TotalTensorSizeInBytes = MinimumTensorSizeInBytes(f.output.desc);
  const Status s = f.Compile();
  EXPECT_TRUE(s.ok()) << s.message();
}

// Found by the desc fuzzer: views with few elements but an extent beyond 2^26 were refused as
// unprovable even when disjoint; they are decided exactly now.
TEST(Validation, OutputInterleavedStridesWithLargeExtent) {
  ElementsFixture f;
  f.output.strides = {1u << 26, 3u << 25};  // offsets 0, 1.5, 1, 2.5, 2, 3.5 (x 2^26)
  f.output.desc.Strides = f.output.strides.data();
  f.output.desc.TotalTensorSizeInBytes = MinimumTensorSizeInBytes(f.output.desc);
  const Status s = f.Compile();
  EXPECT_TRUE(s.ok()) << s.message();
  f.output.strides = {1u << 26, 1u << 27};  // offsets 0, 2, 1, 3, 2, 4 (x 2^26): 2 twice
  f.output.desc.TotalTensorSizeInBytes = MinimumTensorSizeInBytes(f.output.desc);
  EXPECT_INVALID(f.Compile(), "OutputTensor.Strides {67108864,134217728}",
                 "make two elements share bytes");
}

// Interleaved strides whose extent is far too large to mark: decided exactly by the search
// for a bounded solution of sum(z_d * stride_d) == 0 (the views of issue 15, item 7).
TEST(Validation, OutputInterleavedStridesDecidedExactly) {
  for (const auto& [sizes, strides] :
       {std::pair<std::vector<uint32_t>, std::vector<uint32_t>>{{32768, 64}, {32769, 32768}},
        {{8192, 8192}, {8191, 8192}}}) {
    Tensor input(DataType::Float32, {1, 1});
    Tensor indices(DataType::Int32, sizes);
    Tensor output(DataType::Float32, sizes, strides);
    Tensor in(DataType::Float32, {sizes[0], 1});
    GatherElementsOperatorDesc d{&in.desc, &indices.desc, &output.desc, 1};
    CompiledOperator op;
    const Status s = Compile(OperatorType::GatherElements, &d, &op);
    EXPECT_TRUE(s.ok()) << s.message();
  }
  // With sizes of 32769 and 32770, 32768 * 32769 == 32769 * 32768 puts two on one offset.
  Tensor indices(DataType::Int32, {32769, 32770});
  Tensor output(DataType::Float32, {32769, 32770}, {32769, 32768});
  Tensor in(DataType::Float32, {32769, 1});
  GatherElementsOperatorDesc d{&in.desc, &indices.desc, &output.desc, 1};
  CompiledOperator op;
  EXPECT_INVALID(Compile(OperatorType::GatherElements, &d, &op), "make two elements share bytes");
}

TEST(Validation, OverlapSearchSaysWhenItCouldNotDecide) {
  Tensor indices(DataType::Int32, {32768, 64});
  Tensor output(DataType::Float32, {32768, 64}, {32769, 32768});
  Tensor in(DataType::Float32, {32768, 1});
  GatherElementsOperatorDesc d{&in.desc, &indices.desc, &output.desc, 1};
  CompiledOperator op;
  ASSERT_TRUE(Compile(OperatorType::GatherElements, &d, &op).ok());
  const plan::TensorView& view = op.plan()->tensor(plan::TensorRole::Output);
  EXPECT_EQ(plan::FindSelfOverlap(view), plan::Overlap::None);
  EXPECT_EQ(plan::FindSelfOverlap(view, 10), plan::Overlap::Unproven);
}

// --- execution-time rules -------------------------------------------------------------

struct Bound {
  ScatterNdFixture f;
  CompiledOperator op;
  std::vector<int32_t> input = std::vector<int32_t>(12, 7);
  std::vector<int64_t> indices = {1, 3};
  std::vector<int32_t> updates = std::vector<int32_t>(6, 9);
  std::vector<int32_t> output = std::vector<int32_t>(12, -1);
  TensorBindings b;
  Bound() {
    EXPECT_TRUE(f.Compile(&op).ok());
    b.InputTensor = {input.data(), 48};
    b.IndicesTensor = {indices.data(), 16};
    b.UpdatesTensor = {updates.data(), 24};
    b.OutputTensor = {output.data(), 48};
  }
};

TEST(Validation, ExecuteEmptyCompiledOperator) {
  EXPECT_INVALID(ExecuteOnCpu(CompiledOperator(), TensorBindings()), "CompiledOperator is empty");
}

TEST(Validation, NegativeThreadCount) {
  Bound t;
  CpuExecuteOptions options;
  options.ThreadCount = -2;
  EXPECT_INVALID(ExecuteOnCpu(t.op, t.b, options), "ThreadCount is -2");
}

TEST(Validation, NullBinding) {
  Bound t;
  t.b.UpdatesTensor.Data = nullptr;
  EXPECT_INVALID(ExecuteOnCpu(t.op, t.b), "SCATTER_ND", "UpdatesTensor is bound to a null pointer");
}

TEST(Validation, BindingSmallerThanDesc) {
  Bound t;
  t.b.InputTensor.SizeInBytes = 44;
  EXPECT_INVALID(ExecuteOnCpu(t.op, t.b), "InputTensor is bound to 44 bytes",
                 "TotalTensorSizeInBytes is 48");
  EXPECT_EQ(t.output, std::vector<int32_t>(12, -1));
}

TEST(Validation, MisalignedBinding) {
  Bound t;
  std::vector<uint8_t> raw(40);
  t.b.IndicesTensor.Data = raw.data() + 1;
  EXPECT_INVALID(ExecuteOnCpu(t.op, t.b), "IndicesTensor is bound at address", "8-byte elements");
}

TEST(Validation, OutputOverlapsAnInput) {
  Bound t;
  t.b.UpdatesTensor.Data = t.output.data() + 2;
  EXPECT_INVALID(ExecuteOnCpu(t.op, t.b), "overlaps UpdatesTensor's buffer",
                 "must not overlap an input");
  Bound u;
  u.b.OutputTensor.Data = u.input.data() + 1;  // partly over Input: not in place
  u.b.OutputTensor.SizeInBytes = 44;
  std::vector<int32_t> bigger(13);
  EXPECT_INVALID(ExecuteOnCpu(u.op, u.b), "OutputTensor is bound to 44 bytes");
  u.b.InputTensor = {bigger.data(), 52};
  u.b.OutputTensor = {bigger.data() + 1, 48};
  EXPECT_INVALID(ExecuteOnCpu(u.op, u.b), "overlaps InputTensor's buffer", "in place");
}

TEST(Validation, InPlaceIsAllowed) {
  Bound t;
  t.b.OutputTensor = {t.input.data(), 48};
  ASSERT_TRUE(ExecuteOnCpu(t.op, t.b).ok());
  EXPECT_EQ(t.input[3], 9);   // row 1 replaced
  EXPECT_EQ(t.input[0], 7);   // row 0 kept
}

TEST(Validation, CheckedIndexOutOfRangeNamesPositionValueAndRange) {
  Bound t;
  t.indices = {1, -5};
  t.b.IndicesTensor.Data = t.indices.data();
  EXPECT_INVALID(ExecuteOnCpu(t.op, t.b), "SCATTER_ND", "IndicesTensor",
                 "flat row-major position 1", "is -5", "[-4, 4)");
  EXPECT_EQ(t.output, std::vector<int32_t>(12, -1));  // untouched
}

}  // namespace
}  // namespace gs::test
