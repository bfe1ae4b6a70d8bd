// Checked gathers validate in the pass that uses the indices, on tiles that finish in any
// order: the error must still name the first bad index in row-major order, the same on 1, 2
// and many threads, for every CPU implementation.
#include <gtest/gtest.h>

#if !defined(GS_PARALLEL_WITHOUT_TBB)
#include <oneapi/tbb/task_arena.h>
#endif

#include <cstdint>
#include <string>
#include <vector>

#include "cpu/implementations.h"
#include "gs/gs.h"
#include "plan/plan.h"

namespace {

using gs::plan::CpuImplementation;

struct Tensor {
  std::vector<uint32_t> sizes, strides;
  gs::TensorDesc desc;
  Tensor(gs::DataType type, std::vector<uint32_t> s, std::vector<uint32_t> st = {})
      : sizes(std::move(s)), strides(std::move(st)) {
    desc = {type, static_cast<uint32_t>(sizes.size()), sizes.data(),
            strides.empty() ? nullptr : strides.data(), 0};
    desc.TotalTensorSizeInBytes = gs::MinimumTensorSizeInBytes(desc);
  }
};

// Bad indices far apart in row-major order, so that they land in different tiles; the first
// is neither at the start nor in the first tile.
const std::vector<uint64_t> kBadPositions = {900001, 524287, 131075, 700000, 999999};
constexpr uint64_t kFirstBad = 131075;

// Runs the compiled gather with `indexCount` int32 indices (valid ones in [0, bound), bad ones
// = bound + 5 at kBadPositions, scaled to the count) on every thread configuration and checks
// that each fails naming the same first bad position.
void ExpectSameFirstBadIndex(const gs::CompiledOperator& op, CpuImplementation expected,
                             uint64_t indexCount, uint32_t bound, uint64_t inputBytes,
                             uint64_t outputBytes) {
  ASSERT_EQ(op.plan()->cpu.oneThread, expected) << gs::plan::CpuImplementationName(op.plan()->cpu.oneThread);
  ASSERT_EQ(op.plan()->cpu.manyThreads, expected) << gs::plan::CpuImplementationName(op.plan()->cpu.manyThreads);
  std::vector<int32_t> indices(indexCount);
  for (uint64_t i = 0; i < indexCount; ++i) indices[i] = static_cast<int32_t>((i * 7) % bound);
  uint64_t first = indexCount;
  for (uint64_t p : kBadPositions) {
    const uint64_t position = p * indexCount / 1000000;
    indices[position] = static_cast<int32_t>(bound + 5);
    first = std::min(first, position);
  }
  ASSERT_EQ(first, kFirstBad * indexCount / 1000000);
  std::vector<uint8_t> input(inputBytes, 1), output(outputBytes, 0);
  std::string firstMessage;
#if defined(GS_PARALLEL_WITHOUT_TBB)
  const int configs = 3;  // no oneTBB: no caller's arena
#else
  tbb::task_arena many(16);
  const int configs = 4;
#endif
  for (int config = 0; config < configs; ++config) {
    gs::CpuExecuteOptions options;
    options.ThreadCount = config == 0 ? 1 : config == 1 ? 2 : 0;
#if !defined(GS_PARALLEL_WITHOUT_TBB)
    if (config == 3) options.Arena = &many;
#endif
    const gs::Status status = gs::ExecuteOnCpu(
        op, {{input.data(), inputBytes}, {indices.data(), indexCount * 4}, {}, {output.data(), outputBytes}},
        options);
    ASSERT_EQ(status.code(), gs::StatusCode::InvalidArgument) << status.message();
    EXPECT_NE(status.message().find("position " + std::to_string(first) + " is " + std::to_string(bound + 5)),
              std::string::npos)
        << "configuration " << config << ": " << status.message();
    if (config == 0) firstMessage = status.message();
    EXPECT_EQ(status.message(), firstMessage) << "configuration " << config;
    EXPECT_EQ(gs::cpu::LastImplementationRun().implementation, expected)
        << "configuration " << config << " ran "
        << gs::plan::CpuImplementationName(gs::cpu::LastImplementationRun().implementation);
  }
}

TEST(FirstBadIndex, ElementRows) {
  Tensor input(gs::DataType::Float32, {1000, 1000}), indices(gs::DataType::Int32, {1000, 1000});
  Tensor output(gs::DataType::Float32, {1000, 1000});
  const gs::GatherElementsOperatorDesc d{&input.desc, &indices.desc, &output.desc, 1};
  gs::CompiledOperator op;
  ASSERT_TRUE(gs::CompileOperator({gs::OperatorType::GatherElements, &d}, &op).ok());
  ExpectSameFirstBadIndex(op, CpuImplementation::GatherElementRows, 1000000, 1000, 4000000, 4000000);
}

TEST(FirstBadIndex, PackedStrips) {
  Tensor input(gs::DataType::Float32, {100, 1000}), indices(gs::DataType::Int32, {1000, 1000});
  Tensor output(gs::DataType::Float32, {1000, 1000});
  const gs::GatherElementsOperatorDesc d{&input.desc, &indices.desc, &output.desc, 0};
  gs::CompiledOperator op;
  ASSERT_TRUE(gs::CompileOperator({gs::OperatorType::GatherElements, &d}, &op).ok());
  ASSERT_TRUE(op.plan()->cpu.rows.packed);
  ExpectSameFirstBadIndex(op, CpuImplementation::GatherElementRows, 1000000, 100, 400000, 4000000);
}

TEST(FirstBadIndex, Blocks) {
  Tensor input(gs::DataType::Float32, {500, 64}), indices(gs::DataType::Int32, {1, 100000});
  Tensor output(gs::DataType::Float32, {100000, 64});
  const gs::GatherOperatorDesc d{&input.desc, &indices.desc, &output.desc, 0, 1};
  gs::CompiledOperator op;
  ASSERT_TRUE(gs::CompileOperator({gs::OperatorType::Gather, &d}, &op).ok());
  ExpectSameFirstBadIndex(op, CpuImplementation::GatherBlocks, 100000, 500, 500 * 256, 100000 * 256);
}

TEST(FirstBadIndex, TupleRows) {
  // Pairs: every bad value is a first component here or a second one, both bounded by 1000.
  Tensor input(gs::DataType::Float32, {1000, 1000}), indices(gs::DataType::Int32, {500000, 2});
  Tensor output(gs::DataType::Float32, {1, 500000});
  const gs::GatherNdOperatorDesc d{&input.desc, &indices.desc, &output.desc, 2, 2};
  gs::CompiledOperator op;
  ASSERT_TRUE(gs::CompileOperator({gs::OperatorType::GatherNd, &d}, &op).ok());
  ExpectSameFirstBadIndex(op, CpuImplementation::GatherTupleRows, 1000000, 1000, 4000000, 2000000);
}

TEST(FirstBadIndex, ElementUnits) {
  // A strided output breaks the rows: the generic element walk.
  Tensor input(gs::DataType::Float32, {1000, 1000}), indices(gs::DataType::Int32, {1000, 1000});
  Tensor output(gs::DataType::Float32, {1000, 1000}, {2000, 2});
  const gs::GatherElementsOperatorDesc d{&input.desc, &indices.desc, &output.desc, 1};
  gs::CompiledOperator op;
  ASSERT_TRUE(gs::CompileOperator({gs::OperatorType::GatherElements, &d}, &op).ok());
  ExpectSameFirstBadIndex(op, CpuImplementation::GatherElementUnits, 1000000, 1000, 4000000,
                          output.desc.TotalTensorSizeInBytes);
}

}  // namespace
