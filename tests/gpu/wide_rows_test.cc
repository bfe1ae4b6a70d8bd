// Gathers of whole 16-, 8- and 4-byte words (plan/gpu_dispatch.cc, GatherWordBytes): which word
// the plan picks, and the D3D12 path's bytes on each word against the CPU engine's, with and
// without view windows, unchecked and checked with bad indices. (The caller's offsets that rule
// a word out: record_test.cc, Record.WordsFollowTheCallersOffsets.)
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "gpu_test_environment.h"
#include "gs/gs.h"
#include "plan/gpu_dispatch.h"

namespace {

using gs::plan::GpuKernel;

// GATHER_ND of `rows` x `cols` elements by n one-component tuples: rows of cols elements.
struct RowGather {
  gs::DataType type;
  uint32_t cols;
  uint32_t rows, n;
  bool index64;

  uint32_t ElementBytes() const { return gs::ElementSizeInBytes(type); }
  uint64_t InputBytes() const { return uint64_t{rows} * cols * ElementBytes(); }
  uint64_t OutputBytes() const { return uint64_t{n} * cols * ElementBytes(); }
  uint64_t IndexBytes() const { return uint64_t{n} * (index64 ? 8 : 4); }

  gs::CompiledOperator Compile() const {
    const uint32_t inputSizes[] = {rows, cols}, indexSizes[] = {n, 1}, outputSizes[] = {n, cols};
    const gs::TensorDesc input{type, 2, inputSizes, nullptr, InputBytes()};
    const gs::TensorDesc indices{index64 ? gs::DataType::Int64 : gs::DataType::Int32, 2, indexSizes, nullptr,
                                 IndexBytes()};
    const gs::TensorDesc output{type, 2, outputSizes, nullptr, OutputBytes()};
    const gs::GatherNdOperatorDesc desc{&input, &indices, &output, 2, 2};
    gs::CompiledOperator op;
    const gs::Status status = gs::CompileOperator({gs::OperatorType::GatherNd, &desc}, &op);
    EXPECT_TRUE(status.ok()) << status.message();
    return op;
  }
};

// Indices as the buffer's bytes: row (i * 7 + 3) % rows, every third one negative (from the
// end); `bad` (if < n) gets rows + bad, out of range, and so does every later fourth one.
std::vector<uint8_t> Indices(const RowGather& g, uint32_t bad) {
  std::vector<uint8_t> bytes(g.IndexBytes());
  for (uint32_t i = 0; i < g.n; ++i) {
    int64_t row = (i * 7 + 3) % g.rows - (i % 3 == 0 ? int64_t{g.rows} : 0);
    if (i == bad || (i > bad && (i - bad) % 4 == 0)) row = g.rows + i;
    if (g.index64) {
      std::memcpy(&bytes[i * 8], &row, 8);
    } else {
      const int32_t low = static_cast<int32_t>(row);
      std::memcpy(&bytes[i * 4], &low, 4);
    }
  }
  return bytes;
}

std::vector<uint8_t> Input(const RowGather& g) {
  std::vector<uint8_t> bytes(g.InputBytes());
  for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<uint8_t>(i * 131 + (i >> 8) * 17 + 1);
  return bytes;
}

uint32_t WordBytes(const RowGather& g, uint64_t inputOffset = 0, uint64_t outputOffset = 0) {
  gs::CompiledOperator op = g.Compile();
  uint64_t offsets[gs::plan::kTensorRoleCount] = {};
  offsets[static_cast<uint32_t>(gs::plan::TensorRole::Input)] = inputOffset;
  offsets[static_cast<uint32_t>(gs::plan::TensorRole::Output)] = outputOffset;
  return gs::plan::GatherWordBytes(*op.plan(), offsets);
}

TEST(WideRows, ThePlanPicksTheWidestWholeWord) {
  using gs::DataType;
  EXPECT_EQ(WordBytes({DataType::Float32, 64, 10, 5, true}), 16u);   // 256-byte rows
  EXPECT_EQ(WordBytes({DataType::Float32, 6, 10, 5, true}), 8u);     // 24-byte rows
  EXPECT_EQ(WordBytes({DataType::Float32, 3, 10, 5, true}), 4u);     // 12: its own elements
  EXPECT_EQ(WordBytes({DataType::Float16, 6, 10, 5, false}), 4u);    // 12-byte rows
  EXPECT_EQ(WordBytes({DataType::Int8, 8, 10, 5, false}), 8u);
  EXPECT_EQ(WordBytes({DataType::Int8, 3, 10, 5, false}), 1u);
  EXPECT_EQ(WordBytes({DataType::Float64, 2, 10, 5, false}), 16u);
  EXPECT_EQ(WordBytes({DataType::Float64, 1, 10, 5, false}), 8u);
  // A view must start on a whole word: the caller's offsets narrow it.
  EXPECT_EQ(WordBytes({DataType::Float32, 64, 10, 5, true}, 8, 0), 8u);
  EXPECT_EQ(WordBytes({DataType::Float32, 64, 10, 5, true}, 0, 4), 4u);
  EXPECT_EQ(WordBytes({DataType::Int8, 64, 10, 5, true}, 4, 0), 4u);
  EXPECT_EQ(WordBytes({DataType::Int8, 64, 10, 5, true}, 2, 0), 1u);  // no 2-byte words
  EXPECT_EQ(WordBytes({DataType::Int8, 64, 10, 5, true}, 0, 1), 1u);
}

TEST(WideRows, TheScheduleWalksWords) {
  const RowGather g{gs::DataType::Float32, 64, 10, 5, true};
  gs::CompiledOperator op = g.Compile();
  gs::plan::GpuSchedule s;
  gs::plan::GpuOptions checked;
  ASSERT_EQ(gs::plan::ScheduleGpuPasses(*op.plan(), checked, &s), "");
  ASSERT_EQ(s.passCount, 2u);  // the gather, then its validation
  EXPECT_EQ(s.passes[0].kernel, GpuKernel::GatherWide);
  EXPECT_EQ(s.passes[0].threads, 5u * 16u);
  EXPECT_EQ(s.passes[0].constants.elementBytes, 16u);
  EXPECT_EQ(s.passes[1].constants.elementBytes, 4u);  // the validation reads no element
  EXPECT_EQ(s.elementBytes, 16u);
  EXPECT_EQ(s.walk.blockElements, 16u);
  EXPECT_EQ(s.walk.indexedStrides[0], 16u);  // one input row: 64 elements, 16 words
  EXPECT_EQ(s.passes[0].constants.viewElements, gs::plan::kGpuViewElementLimit);
  // 8-byte words are stored as two 32-bit words: half the elements a window.
  checked.offsets[static_cast<uint32_t>(gs::plan::TensorRole::Output)] = 8;
  ASSERT_EQ(gs::plan::ScheduleGpuPasses(*op.plan(), checked, &s), "");
  EXPECT_EQ(s.passes[0].kernel, GpuKernel::Gather);
  EXPECT_EQ(s.passes[0].constants.elementBytes, 8u);
  EXPECT_EQ(s.passes[0].threads, 5u * 32u);
  EXPECT_EQ(s.viewWindow, gs::plan::kGpuViewElementLimit / 2);
}

// The D3D12 path (ExecuteOnHost) against the CPU engine: same status and message, and the
// same output buffer, sentinel-filled before; the plan's word checked first.
struct WideCase {
  RowGather gather;
  uint32_t word;  // what the plan must pick
};

std::string CheckWide(gs::D3D12Engine* engine, const WideCase& c, bool windowed, gs::IndexChecking checking,
                      uint32_t bad) {
  const RowGather& g = c.gather;
  gs::CompiledOperator op = g.Compile();
  const std::string name = std::to_string(g.ElementBytes()) + "-byte elements, rows of " + std::to_string(g.cols) +
                           (windowed ? ", windowed" : "") + (bad < g.n ? ", bad index at " + std::to_string(bad) : "");
  if (WordBytes(g) != c.word) return name + ": the plan picked " + std::to_string(WordBytes(g)) + "-byte words";
  const std::vector<uint8_t> input = Input(g), indices = Indices(g, bad);
  std::vector<uint8_t> cpu(g.OutputBytes() + 64, 0xab), gpu(g.OutputBytes() + 64, 0xab);
  const gs::TensorBindings cpuBindings{{input.data(), input.size()}, {indices.data(), indices.size()}, {},
                                       {cpu.data() + 32, g.OutputBytes()}};
  gs::CpuExecuteOptions options;
  options.Checking = checking;
  const gs::Status cpuStatus = gs::ExecuteOnCpu(op, cpuBindings, options);
  // 16 elements a window: every tensor spans several windows.
  if (windowed && !engine->SetViewElementLimit(16).ok()) return name + ": setting the view limit failed";
  const gs::Status gpuStatus = engine->ExecuteOnHost(
      op, {{input.data(), input.size()}, {indices.data(), indices.size()}, {}, {gpu.data() + 32, g.OutputBytes()}},
      checking);
  if (!engine->SetViewElementLimit(gs::plan::kGpuViewElementLimit).ok()) return name + ": restoring the limit failed";
  if (gpuStatus.code() != cpuStatus.code() || gpuStatus.message() != cpuStatus.message()) {
    return name + ": D3D12 said '" + gpuStatus.message() + "', the CPU '" + cpuStatus.message() + "'";
  }
  if (bad < g.n && checking == gs::IndexChecking::Checked) {
    if (cpuStatus.ok()) return name + ": the CPU took the bad index";
    return "";  // a failed gather may have written its view; the host path writes nothing back
  }
  if (!cpuStatus.ok()) return name + ": the CPU failed: " + cpuStatus.message();
  if (gpu != cpu) return name + ": output bytes differ from the CPU engine's";
  return "";
}

// Windowed, each tensor spans several windows of 16 view elements, at most the 8 windows (128).
const WideCase kWideCases[] = {
    {{gs::DataType::Float32, 64, 7, 6, true}, 16},   // 256-byte rows: 16 words each
    {{gs::DataType::Float64, 2, 40, 50, false}, 16},
    {{gs::DataType::Float16, 24, 9, 11, false}, 16},  // 48-byte rows
    {{gs::DataType::Int8, 48, 20, 30, true}, 16},
    {{gs::DataType::Float32, 6, 30, 40, false}, 8},  // 24-byte rows
    {{gs::DataType::Float16, 4, 60, 60, true}, 8},
    {{gs::DataType::Int8, 24, 20, 30, false}, 8},
    {{gs::DataType::Float16, 6, 40, 40, false}, 4},  // 12-byte rows
    {{gs::DataType::Int8, 4, 100, 60, true}, 4},
    {{gs::DataType::Int8, 3, 40, 40, false}, 1},  // none: as before
    {{gs::DataType::Float32, 3, 40, 40, true}, 4},
};

class WideRowsOnGpu : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string why;
    engine_ = gs_gpu_test::SharedEngine(&why);
    ASSERT_NE(engine_, nullptr) << "no D3D12 device: " << why;
  }
  void Sweep(bool windowed, gs::IndexChecking checking, bool withBad) {
    for (const WideCase& c : kWideCases) {
      const uint32_t bad = withBad ? c.gather.n / 2 : c.gather.n;
      const std::string problem = CheckWide(engine_, c, windowed, checking, bad);
      EXPECT_EQ(problem, "");
    }
  }
  gs::D3D12Engine* engine_ = nullptr;
};

TEST_F(WideRowsOnGpu, Unchecked) { Sweep(false, gs::IndexChecking::Unchecked, false); }
TEST_F(WideRowsOnGpu, Checked) { Sweep(false, gs::IndexChecking::Checked, false); }
TEST_F(WideRowsOnGpu, Windowed) { Sweep(true, gs::IndexChecking::Checked, false); }
// Out-of-range rows: zeros unchecked (as on the CPU); checked, the CPU's error for the first.
TEST_F(WideRowsOnGpu, UncheckedBadIndicesGiveZeros) { Sweep(false, gs::IndexChecking::Unchecked, true); }
TEST_F(WideRowsOnGpu, CheckedBadIndexSameError) { Sweep(false, gs::IndexChecking::Checked, true); }
TEST_F(WideRowsOnGpu, WindowedCheckedBadIndexSameError) { Sweep(true, gs::IndexChecking::Checked, true); }
TEST_F(WideRowsOnGpu, WindowedUncheckedBadIndicesGiveZeros) { Sweep(true, gs::IndexChecking::Unchecked, true); }

}  // namespace
