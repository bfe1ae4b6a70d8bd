// A checked gather's validation after the gather runs a thread per 256 indices, each walking
// positions t, t + threads, ... (plan/gpu_dispatch.cc, gpu/hlsl/validate.hlsl), and its last
// group to finish reports the value: the error must still name the first bad index in row-major
// order, with its value and the CPU's words, wherever the bad ones fall among the threads' shares
// and the groups, in one view and in windows.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "gpu_test_environment.h"
#include "gs/gs.h"
#include "plan/gpu_dispatch.h"

namespace {

// GATHER_ELEMENTS along axis 1 of a rows x 50 Float32 input by rows x perRow Int64 indices.
constexpr uint32_t kCols = 50;
struct Shape {
  uint32_t rows, perRow;
};
constexpr Shape kOneGroup{3, 1000};      // 3000 indices, 12 validation threads
constexpr Shape kManyGroups{64, 4096};  // 262144 indices, 1024 threads in 16 groups of 64

gs::Status GatherWithBadAt(gs::D3D12Engine* engine, Shape shape, const std::vector<uint32_t>& bad, bool onCpu,
                           uint64_t viewLimit) {
  const uint32_t kRows = shape.rows, kPerRow = shape.perRow, kCount = kRows * kPerRow;
  const uint32_t inputSizes[] = {kRows, kCols}, indexSizes[] = {kRows, kPerRow};
  const gs::TensorDesc input{gs::DataType::Float32, 2, inputSizes, nullptr, kRows * kCols * 4};
  const gs::TensorDesc indices{gs::DataType::Int64, 2, indexSizes, nullptr, kCount * 8ull};
  const gs::TensorDesc output{gs::DataType::Float32, 2, indexSizes, nullptr, kCount * 4ull};
  const gs::GatherElementsOperatorDesc desc{&input, &indices, &output, 1};
  gs::CompiledOperator op;
  EXPECT_TRUE(gs::CompileOperator({gs::OperatorType::GatherElements, &desc}, &op).ok());
  std::vector<float> in(kRows * kCols), out(kCount);
  for (uint32_t i = 0; i < in.size(); ++i) in[i] = static_cast<float>(i);
  std::vector<int64_t> index(kCount);
  for (uint32_t i = 0; i < kCount; ++i) index[i] = int64_t{(i * 13) % kCols} - (i % 4 == 0 ? int64_t{kCols} : 0);
  for (size_t b = 0; b < bad.size(); ++b) {  // past either end of [-50, 50)
    const int64_t past = static_cast<int64_t>(b);
    index[bad[b]] = b % 2 ? -int64_t{kCols} - 1 - past : int64_t{kCols} + past;
  }
  const gs::TensorBindings bindings{{in.data(), in.size() * 4}, {index.data(), index.size() * 8}, {},
                                    {out.data(), out.size() * 4}};
  if (onCpu) return gs::ExecuteOnCpu(op, bindings);  // checked by default
  EXPECT_TRUE(engine->SetViewElementLimit(viewLimit).ok());
  const gs::Status status = engine->ExecuteOnHost(op, bindings, gs::IndexChecking::Checked);
  EXPECT_TRUE(engine->SetViewElementLimit(gs::plan::kGpuViewElementLimit).ok());
  return status;
}

// Each set of bad positions on the CPU and on D3D12, in one view and in windows of `window`
// elements: the same error, word for word (none for no bad position).
void ExpectTheCpuError(Shape shape, const std::vector<std::vector<uint32_t>>& cases, uint64_t window) {
  std::string why;
  gs::D3D12Engine* engine = gs_gpu_test::SharedEngine(&why);
  ASSERT_NE(engine, nullptr) << "no D3D12 device: " << why;
  for (uint64_t viewLimit : {gs::plan::kGpuViewElementLimit, window}) {
    for (const std::vector<uint32_t>& bad : cases) {
      const gs::Status cpu = GatherWithBadAt(engine, shape, bad, true, viewLimit);
      const gs::Status gpu = GatherWithBadAt(engine, shape, bad, false, viewLimit);
      EXPECT_EQ(cpu.ok(), bad.empty()) << cpu.message();
      EXPECT_EQ(gpu.code(), cpu.code()) << gpu.message();
      EXPECT_EQ(gpu.message(), cpu.message()) << "view limit " << viewLimit;
    }
  }
}

TEST(CheckedGather, TheFirstBadIndexAmongTheValidationThreadsShares) {
  // Thread t of 12 walks t, t + 12, ...: the first bad one in a later thread's share than
  // another bad one, late in a share, the very first and last, and none.
  const uint32_t count = kOneGroup.rows * kOneGroup.perRow;
  ExpectTheCpuError(kOneGroup, {{}, {0}, {count - 1}, {1003, 1500, 1998}, {257, 256}, {2999, 1201, 1200, 13}, {11, 12}},
                    1024);
}

TEST(CheckedGather, TheLastValidationGroupToFinishReportsTheFirstBadIndex) {
  // Thread t of 1024 walks t, t + 1024, ...; group g holds threads 64g .. 64g + 63. The first
  // bad one in the last group with later ones in the first (which may finish before it), in a
  // middle group only, in the first group only, and at the very end.
  const uint32_t count = kManyGroups.rows * kManyGroups.perRow;
  ExpectTheCpuError(kManyGroups, {{1000, 1029, 2048 + 3}, {200000 + 320, 261000}, {5}, {count - 1}, {70000, 102407, 63}},
                    1 << 16);
}

}  // namespace
