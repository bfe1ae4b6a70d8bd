// Recording into the caller's command list on the caller's buffers (the way an ML runtime
// uses DirectML), compared with the CPU engine; checked mode's error comes from Result().
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <thread>
#include <vector>

#include "callers_list.h"
#include "d3d12/d3d12_api.h"
#include "d3d12/resources.h"
#include "gpu_test_environment.h"
#include "gs/gs.h"
#include "plan/gpu_dispatch.h"

namespace {

using gs::d3d12::ComPtr;
using gs::d3d12::Transition;
using gs_gpu_test::RunInCallersList;

// GATHER_ELEMENTS of a 3x5 Float16 input along axis 1 with 3x4 Int32 indices.
gs::CompiledOperator CompileGatherElements3x5() {
  const uint32_t inputSizes[] = {3, 5}, indexSizes[] = {3, 4};
  const gs::TensorDesc in{gs::DataType::Float16, 2, inputSizes, nullptr, 30};
  const gs::TensorDesc idx{gs::DataType::Int32, 2, indexSizes, nullptr, 48};
  const gs::TensorDesc out{gs::DataType::Float16, 2, indexSizes, nullptr, 24};
  const gs::GatherElementsOperatorDesc desc{&in, &idx, &out, 1};
  gs::CompiledOperator op;
  EXPECT_TRUE(gs::CompileOperator({gs::OperatorType::GatherElements, &desc}, &op).ok());
  return op;
}

// GATHER_ELEMENTS on one caller buffer holding all three tensors at offsets, recorded into the
// caller's list; returns the output bytes and Result().
gs::Status RunRecorded(const std::vector<int32_t>& indices, std::vector<uint16_t>* output) {
  std::string why;
  gs::D3D12Engine* engine = gs_gpu_test::SharedEngine(&why);
  EXPECT_NE(engine, nullptr) << why;
  if (engine == nullptr) return gs::Status(gs::StatusCode::Internal, why);
  ID3D12Device* device = engine->device();

  const gs::CompiledOperator op = CompileGatherElements3x5();

  // Inputs in one buffer at offsets 256 and 512, the output in another at offset 64.
  std::vector<uint8_t> staging(1024, 0);
  for (uint16_t i = 0; i < 15; ++i) {
    const uint16_t half = static_cast<uint16_t>(0x3c00 + i * 0x111);
    std::memcpy(&staging[256 + i * 2], &half, 2);
  }
  std::memcpy(&staging[512], indices.data(), 48);
  std::memset(&staging[768], 0xab, 256);  // the output's sentinel, at 768 + 64 in the copy below

  std::vector<uint8_t> bytes;
  std::unique_ptr<gs::D3D12Recording> recording;
  gs::Status recorded;
  RunInCallersList(device, staging, &bytes,
                   [&](ID3D12GraphicsCommandList* list, ID3D12Resource* inputs, ID3D12Resource* outputs) {
                     gs::D3D12Bindings bindings;
                     bindings.InputTensor = {inputs, 256, 30};
                     bindings.IndicesTensor = {inputs, 512, 48};
                     bindings.OutputTensor = {outputs, 64, 24};
                     recorded = engine->Record(op, list, bindings, gs::IndexChecking::Checked, &recording);
                     EXPECT_TRUE(recorded.ok()) << recorded.message();
                     return recorded.ok();
                   });
  if (!recorded.ok()) return recorded;
  if (bytes.size() != 256) return gs::Status(gs::StatusCode::Internal, "the caller's list did not run");
  output->assign(128, 0);
  std::memcpy(output->data(), bytes.data(), 256);

  // The CPU engine on the same bytes, for comparison: its output replaces the GPU's region
  // only in the expectation.
  return recording->Result();
}

std::vector<uint16_t> CpuExpectation(const std::vector<int32_t>& indices, gs::Status* cpuStatus) {
  const gs::CompiledOperator op = CompileGatherElements3x5();
  std::vector<uint16_t> input(15), result(128, 0xabab);
  for (uint16_t i = 0; i < 15; ++i) input[i] = static_cast<uint16_t>(0x3c00 + i * 0x111);
  *cpuStatus = gs::ExecuteOnCpu(op, {{input.data(), 30}, {indices.data(), 48}, {}, {result.data() + 32, 24}});
  return result;
}

TEST(Record, CallersListAndBuffersMatchTheCpu) {
  const std::vector<int32_t> indices = {4, 0, -1, 2, 3, 3, -5, 1, 0, 4, 2, -2};
  std::vector<uint16_t> gpu;
  const gs::Status status = RunRecorded(indices, &gpu);
  ASSERT_TRUE(status.ok()) << status.message();
  gs::Status cpuStatus;
  EXPECT_EQ(gpu, CpuExpectation(indices, &cpuStatus));
  EXPECT_TRUE(cpuStatus.ok());
}

// A failed gather may have written its output view (elements [32, 44) of the buffer), and
// nothing else.
TEST(Record, CheckedBadIndexReportsTheCpuErrorAndWritesOnlyItsView) {
  const std::vector<int32_t> indices = {4, 0, -1, 2, 3, 3, 7, 1, 0, 4, -9, -2};
  std::vector<uint16_t> gpu;
  const gs::Status status = RunRecorded(indices, &gpu);
  gs::Status cpuStatus;
  std::vector<uint16_t> cpu = CpuExpectation(indices, &cpuStatus);
  EXPECT_EQ(status.code(), gs::StatusCode::InvalidArgument);
  EXPECT_EQ(status.message(), cpuStatus.message());
  ASSERT_EQ(gpu.size(), 128u);
  std::fill(gpu.begin() + 32, gpu.begin() + 44, 0xabab);
  std::fill(cpu.begin() + 32, cpu.begin() + 44, 0xabab);
  EXPECT_EQ(gpu, std::vector<uint16_t>(128, 0xabab));
  EXPECT_EQ(cpu, std::vector<uint16_t>(128, 0xabab));
}

// An in-place SCATTER_ND (reduction NONE) on the caller's buffer: 8 rows of 6 UINT32 at
// offset 32 of the output buffer, 40 updates with repeated rows (the last one wins), INT64
// indices at offset 0 and the updates at 512 of the inputs buffer. With a bad index in checked
// mode, Result() gives the CPU's error and the caller's buffer is as it was: all or nothing,
// on the buffer itself (ExecuteOnHost would not show a GPU write on failure).
void RunInPlaceRows(const std::vector<int64_t>& rows, std::vector<uint8_t>* gpu, gs::Status* gpuStatus,
                    std::vector<uint32_t>* cpu, gs::Status* cpuStatus) {
  std::string why;
  gs::D3D12Engine* engine = gs_gpu_test::SharedEngine(&why);
  ASSERT_NE(engine, nullptr) << why;
  const uint32_t dataSizes[] = {8, 6}, indexSizes[] = {40, 1}, updateSizes[] = {40, 6};
  const gs::TensorDesc data{gs::DataType::UInt32, 2, dataSizes, nullptr, 8 * 6 * 4};
  const gs::TensorDesc idx{gs::DataType::Int64, 2, indexSizes, nullptr, 40 * 8};
  const gs::TensorDesc upd{gs::DataType::UInt32, 2, updateSizes, nullptr, 40 * 6 * 4};
  const gs::ScatterNdOperatorDesc desc{&data, &idx, &upd, &data, 2, 2, gs::Reduction::None};
  gs::CompiledOperator op;
  ASSERT_TRUE(gs::CompileOperator({gs::OperatorType::ScatterNd, &desc}, &op).ok());
  std::vector<uint32_t> updates(40 * 6);
  for (uint32_t i = 0; i < updates.size(); ++i) updates[i] = 0x1000 + i;
  std::vector<uint8_t> staging(1536 + 256, 0xab);  // inputs [0, 1536), the output buffer after
  std::memcpy(&staging[0], rows.data(), 40 * 8);
  std::memcpy(&staging[512], updates.data(), updates.size() * 4);
  cpu->assign(64, 0xabababab);
  *cpuStatus = gs::ExecuteOnCpu(op, {{cpu->data() + 8, 192}, {rows.data(), 320}, {updates.data(), 960}, {cpu->data() + 8, 192}});
  std::unique_ptr<gs::D3D12Recording> recording;
  RunInCallersList(engine->device(), staging, gpu,
                   [&](ID3D12GraphicsCommandList* list, ID3D12Resource* inputs, ID3D12Resource* outputs) {
                     gs::D3D12Bindings bindings;
                     bindings.InputTensor = {outputs, 32, 192};
                     bindings.IndicesTensor = {inputs, 0, 320};
                     bindings.UpdatesTensor = {inputs, 512, 960};
                     bindings.OutputTensor = {outputs, 32, 192};
                     const gs::Status recorded = engine->Record(op, list, bindings, gs::IndexChecking::Checked, &recording);
                     EXPECT_TRUE(recorded.ok()) << recorded.message();
                     return recorded.ok();
                   });
  ASSERT_TRUE(recording != nullptr);
  *gpuStatus = recording->Result();
}

TEST(Record, InPlaceScatterOnTheCallersBufferIsAllOrNothing) {
  std::vector<int64_t> rows(40);
  for (int64_t u = 0; u < 40; ++u) rows[u] = (u * 3) % 8 - (u % 2 ? 8 : 0);
  std::vector<uint8_t> gpu;
  std::vector<uint32_t> cpu;
  gs::Status gpuStatus, cpuStatus;
  RunInPlaceRows(rows, &gpu, &gpuStatus, &cpu, &cpuStatus);
  ASSERT_TRUE(gpuStatus.ok()) << gpuStatus.message();
  ASSERT_TRUE(cpuStatus.ok()) << cpuStatus.message();
  ASSERT_EQ(gpu.size(), 256u);
  EXPECT_EQ(std::memcmp(gpu.data(), cpu.data(), 256), 0);
  EXPECT_EQ(cpu[8], 0x1000u + 32 * 6) << "row 0's last update is update 32";

  rows[29] = 8;  // out of [-8, 8), and after it one more
  rows[35] = -9;
  RunInPlaceRows(rows, &gpu, &gpuStatus, &cpu, &cpuStatus);
  EXPECT_EQ(gpuStatus.code(), gs::StatusCode::InvalidArgument);
  EXPECT_EQ(gpuStatus.message(), cpuStatus.message());
  ASSERT_EQ(gpu.size(), 256u);
  EXPECT_EQ(gpu, std::vector<uint8_t>(256, 0xab)) << "a failed scatter wrote the caller's buffer";
  EXPECT_EQ(cpu, std::vector<uint32_t>(64, 0xabababab));
}

// Through view windows of 32 elements at the caller's offsets: a GatherElements over 200
// Float16 elements at offset 256 (7 windows), 64 indices at 768 and 64 outputs at 64 (2 each).
TEST(Record, ViewWindowsAtTheCallersOffsets) {
  std::string why;
  gs::D3D12Engine* engine = gs_gpu_test::SharedEngine(&why);
  ASSERT_NE(engine, nullptr) << why;
  ID3D12Device* device = engine->device();
  const uint32_t inputSizes[] = {200}, indexSizes[] = {64};
  const gs::TensorDesc in{gs::DataType::Float16, 1, inputSizes, nullptr, 400};
  const gs::TensorDesc idx{gs::DataType::Int32, 1, indexSizes, nullptr, 256};
  const gs::TensorDesc out{gs::DataType::Float16, 1, indexSizes, nullptr, 128};
  const gs::GatherElementsOperatorDesc desc{&in, &idx, &out, 0};
  gs::CompiledOperator op;
  ASSERT_TRUE(gs::CompileOperator({gs::OperatorType::GatherElements, &desc}, &op).ok());
  std::vector<uint16_t> input(200);
  std::vector<int32_t> indices(64);
  for (uint32_t i = 0; i < 200; ++i) input[i] = static_cast<uint16_t>(0x3c00 + i * 7);
  for (int32_t i = 0; i < 64; ++i) indices[i] = (i * 37 + 5) % 200 - (i % 3 == 0 ? 200 : 0);
  std::vector<uint16_t> expected(64);
  ASSERT_TRUE(gs::ExecuteOnCpu(op, {{input.data(), 400}, {indices.data(), 256}, {}, {expected.data(), 128}}).ok());

  std::vector<uint8_t> staging(1280, 0xab);  // inputs [0, 1024), the output buffer [1024, 1280)
  std::memcpy(&staging[256], input.data(), 400);
  std::memcpy(&staging[768], indices.data(), 256);
  std::vector<uint8_t> gpu;
  std::unique_ptr<gs::D3D12Recording> recording;
  RunInCallersList(device, staging, &gpu,
                   [&](ID3D12GraphicsCommandList* list, ID3D12Resource* inputs, ID3D12Resource* outputs) {
                     gs::D3D12Bindings bindings;
                     bindings.InputTensor = {inputs, 256, 400};
                     bindings.IndicesTensor = {inputs, 768, 256};
                     bindings.OutputTensor = {outputs, 64, 128};
                     EXPECT_TRUE(engine->SetViewElementLimit(32).ok());
                     const gs::Status recorded =
                         engine->Record(op, list, bindings, gs::IndexChecking::Checked, &recording);
                     EXPECT_TRUE(engine->SetViewElementLimit(1u << 27).ok());
                     EXPECT_TRUE(recorded.ok()) << recorded.message();
                     return recorded.ok();
                   });
  ASSERT_NE(recording, nullptr);
  EXPECT_TRUE(recording->Result().ok());
  std::vector<uint8_t> want(256, 0xab);  // the sentinel around the output
  std::memcpy(&want[64], expected.data(), 128);
  EXPECT_EQ(gpu, want);
}

// Rows of 64 bytes (GATHER_ND of a 5x16 Float32 input by 3 rows) move as whole 16-byte words
// only where both views start on one: the caller's offsets narrow the word to 8 or to the
// element itself, and the bytes, written only in the output's view, are the CPU's on each.
struct CallersOffsets {
  uint64_t input, output;
  uint32_t word;  // what the plan picks
};

class RecordWords : public testing::TestWithParam<CallersOffsets> {};

TEST_P(RecordWords, WordsFollowTheCallersOffsets) {
  const CallersOffsets& param = GetParam();
  std::string why;
  gs::D3D12Engine* engine = gs_gpu_test::SharedEngine(&why);
  ASSERT_NE(engine, nullptr) << why;
  const uint32_t inputSizes[] = {5, 16}, indexSizes[] = {3, 1}, outputSizes[] = {3, 16};
  const gs::TensorDesc in{gs::DataType::Float32, 2, inputSizes, nullptr, 320};
  const gs::TensorDesc idx{gs::DataType::Int32, 2, indexSizes, nullptr, 12};
  const gs::TensorDesc out{gs::DataType::Float32, 2, outputSizes, nullptr, 192};
  const gs::GatherNdOperatorDesc desc{&in, &idx, &out, 2, 2};
  gs::CompiledOperator op;
  ASSERT_TRUE(gs::CompileOperator({gs::OperatorType::GatherNd, &desc}, &op).ok());
  uint64_t offsets[gs::plan::kTensorRoleCount] = {param.input, 0, 0, param.output};
  ASSERT_EQ(gs::plan::GatherWordBytes(*op.plan(), offsets), param.word);

  std::vector<uint8_t> input(320);
  for (uint32_t i = 0; i < 320; ++i) input[i] = static_cast<uint8_t>(i * 29 + 7);
  const int32_t indices[] = {3, -5, 4};
  std::vector<uint8_t> want(256, 0xab);  // the sentinel around the output
  ASSERT_TRUE(gs::ExecuteOnCpu(op, {{input.data(), 320}, {indices, 12}, {}, {&want[param.output], 192}}).ok());
  std::vector<uint8_t> staging(1024 + 256, 0xab);  // inputs [0, 1024), the output buffer after
  std::memcpy(&staging[param.input], input.data(), 320);
  std::memcpy(&staging[768], indices, 12);
  std::vector<uint8_t> gpu;
  std::unique_ptr<gs::D3D12Recording> recording;
  RunInCallersList(engine->device(), staging, &gpu,
                   [&](ID3D12GraphicsCommandList* list, ID3D12Resource* inputs, ID3D12Resource* outputs) {
                     gs::D3D12Bindings bindings;
                     bindings.InputTensor = {inputs, param.input, 320};
                     bindings.IndicesTensor = {inputs, 768, 12};
                     bindings.OutputTensor = {outputs, param.output, 192};
                     const gs::Status recorded =
                         engine->Record(op, list, bindings, gs::IndexChecking::Checked, &recording);
                     EXPECT_TRUE(recorded.ok()) << recorded.message();
                     return recorded.ok();
                   });
  ASSERT_NE(recording, nullptr);
  EXPECT_TRUE(recording->Result().ok());
  EXPECT_EQ(gpu, want);
}

INSTANTIATE_TEST_SUITE_P(Record, RecordWords,
                         testing::Values(CallersOffsets{256, 32, 16}, CallersOffsets{264, 32, 8},
                                         CallersOffsets{256, 56, 8}, CallersOffsets{260, 32, 4},
                                         CallersOffsets{256, 36, 4}));

// An overwrite SCATTER_ND (copy+scatter, checked) of Float32 rows in the words the plan picks
// from the caller's offsets and the rows' strides (plan::GatherWordBytes; the copy its own
// where only Updates rules the wider one out): Input and Output {4, 8} with
// `inputStride`/`outputStride` elements between rows (8: contiguous, the copy one block),
// 5 updates with row 1 repeated (the last one wins). The output buffer holds sentinels around
// Output and between its rows; the GPU's 256 bytes must equal the CPU's. With a bad index,
// the CPU's error and not one byte written.
struct ScatterOffsets {
  uint64_t input, updates, output;  // Input and Updates in the inputs buffer, Output in the output one
  uint32_t inputStride, outputStride;
  uint32_t word, copyWord;  // what the plan must pick for the winners and for the copy
};

class RecordScatterWords : public testing::TestWithParam<ScatterOffsets> {};

TEST_P(RecordScatterWords, CopyAndWinnersFollowTheCallersOffsets) {
  const ScatterOffsets& param = GetParam();
  std::string why;
  gs::D3D12Engine* engine = gs_gpu_test::SharedEngine(&why);
  ASSERT_NE(engine, nullptr) << why;
  const uint32_t dataSizes[] = {4, 8}, indexSizes[] = {5, 1}, updateSizes[] = {5, 8};
  const uint32_t inputStrides[] = {param.inputStride, 1}, outputStrides[] = {param.outputStride, 1};
  const uint64_t inputBytes = (3ull * param.inputStride + 8) * 4, outputBytes = (3ull * param.outputStride + 8) * 4;
  const gs::TensorDesc in{gs::DataType::Float32, 2, dataSizes, inputStrides, inputBytes};
  const gs::TensorDesc idx{gs::DataType::Int32, 2, indexSizes, nullptr, 20};
  const gs::TensorDesc upd{gs::DataType::Float32, 2, updateSizes, nullptr, 160};
  const gs::TensorDesc out{gs::DataType::Float32, 2, dataSizes, outputStrides, outputBytes};
  const gs::ScatterNdOperatorDesc desc{&in, &idx, &upd, &out, 2, 2, gs::Reduction::None};
  gs::CompiledOperator op;
  ASSERT_TRUE(gs::CompileOperator({gs::OperatorType::ScatterNd, &desc}, &op).ok());
  const uint64_t offsets[gs::plan::kTensorRoleCount] = {param.input, 0, param.updates, param.output};
  gs::plan::GpuOptions options;
  std::copy(offsets, offsets + gs::plan::kTensorRoleCount, options.offsets);
  gs::plan::GpuSchedule schedule;
  ASSERT_EQ(gs::plan::ScheduleGpuPasses(*op.plan(), options, &schedule), "");
  ASSERT_EQ(schedule.elementBytes, param.word);
  ASSERT_EQ(schedule.copyBytes, param.copyWord);

  std::vector<uint8_t> input(inputBytes);
  for (uint32_t i = 0; i < inputBytes; ++i) input[i] = static_cast<uint8_t>(i * 29 + 7);
  std::vector<uint32_t> updates(40);
  for (uint32_t i = 0; i < 40; ++i) updates[i] = 0x1000 + i;
  // Also through view windows of 16 elements: the 4- and 8-byte cases span several.
  for (const uint64_t viewLimit : {gs::plan::kGpuViewElementLimit, uint64_t{16}}) {
    SCOPED_TRACE(viewLimit == 16 ? "view windows of 16 elements" : "one view a tensor");
    options.viewElementLimit = viewLimit;
    ASSERT_EQ(gs::plan::ScheduleGpuPasses(*op.plan(), options, &schedule), "");
    EXPECT_EQ(schedule.windowed, viewLimit == 16 && param.word < 16);
    ASSERT_TRUE(engine->SetViewElementLimit(viewLimit).ok());
    for (const bool bad : {false, true}) {
      const int32_t indices[] = {1, -1, 1, bad ? 4 : 0, -3};  // rows 1, 3, 1, 0, 1
      std::vector<uint8_t> want(256, 0xab);
      const gs::Status cpu = gs::ExecuteOnCpu(
          op, {{input.data(), inputBytes}, {indices, 20}, {updates.data(), 160}, {&want[param.output], outputBytes}});
      std::vector<uint8_t> staging(1024 + 256, 0xab);  // inputs [0, 1024), the output buffer after
      std::memcpy(&staging[0], indices, 20);
      std::memcpy(&staging[param.input], input.data(), inputBytes);
      std::memcpy(&staging[param.updates], updates.data(), 160);
      std::vector<uint8_t> gpu;
      std::unique_ptr<gs::D3D12Recording> recording;
      RunInCallersList(engine->device(), staging, &gpu,
                       [&](ID3D12GraphicsCommandList* list, ID3D12Resource* inputs, ID3D12Resource* outputs) {
                         gs::D3D12Bindings bindings;
                         bindings.InputTensor = {inputs, param.input, inputBytes};
                         bindings.IndicesTensor = {inputs, 0, 20};
                         bindings.UpdatesTensor = {inputs, param.updates, 160};
                         bindings.OutputTensor = {outputs, param.output, outputBytes};
                         const gs::Status recorded =
                             engine->Record(op, list, bindings, gs::IndexChecking::Checked, &recording);
                         EXPECT_TRUE(recorded.ok()) << recorded.message();
                         return recorded.ok();
                       });
      if (recording == nullptr) {
        ADD_FAILURE() << "not recorded";
        continue;
      }
      const gs::Status status = recording->Result();
      EXPECT_EQ(status.code(), cpu.code()) << status.message();
      EXPECT_EQ(status.message(), cpu.message());
      EXPECT_EQ(cpu.ok(), !bad) << cpu.message();
      EXPECT_EQ(gpu, want) << (bad ? "a failed scatter wrote its output" : "bytes differ from the CPU engine's");
    }
    ASSERT_TRUE(engine->SetViewElementLimit(gs::plan::kGpuViewElementLimit).ok());
  }
}

INSTANTIATE_TEST_SUITE_P(Record, RecordScatterWords,
                         testing::Values(ScatterOffsets{256, 512, 64, 8, 8, 16, 16},   // one block, 16-byte words
                                         ScatterOffsets{264, 512, 64, 8, 8, 8, 8},     // Input on 8 bytes
                                         ScatterOffsets{256, 520, 64, 8, 8, 8, 16},    // Updates on 8
                                         ScatterOffsets{256, 516, 64, 8, 8, 4, 16},    // Updates on 4
                                         ScatterOffsets{256, 512, 36, 8, 8, 4, 4},     // Output on 4
                                         ScatterOffsets{256, 512, 32, 16, 12, 16, 16}, // strided: gaps between rows
                                         ScatterOffsets{256, 512, 32, 10, 8, 8, 8},    // Input rows 40 bytes apart
                                         ScatterOffsets{256, 512, 32, 8, 9, 4, 4}));   // Output rows 36 bytes apart

// A binding outside its resource is refused before anything is recorded: the caller's list then
// runs only its own copies, and the output buffer keeps its sentinel. (Recorded, the first
// two would read past the 256-byte input resource; the third would write nowhere.)
struct OutOfResource {
  const char* what;
  gs::D3D12Buffer gs::D3D12Bindings::*tensor;
  uint64_t offset, sizeInBytes;
  const char* message;
};

class RecordRefuses : public testing::TestWithParam<OutOfResource> {};

TEST_P(RecordRefuses, ABindingOutsideItsResource) {
  const OutOfResource& param = GetParam();
  std::string why;
  gs::D3D12Engine* engine = gs_gpu_test::SharedEngine(&why);
  ASSERT_NE(engine, nullptr) << why;
  const gs::CompiledOperator op = CompileGatherElements3x5();
  std::vector<uint8_t> staging(512, 0);  // a 256-byte input resource, then the output's 256
  std::memset(&staging[256], 0xab, 256);
  std::vector<uint8_t> output;
  std::unique_ptr<gs::D3D12Recording> recording;
  gs::Status recorded;
  RunInCallersList(engine->device(), staging, &output,
                   [&](ID3D12GraphicsCommandList* list, ID3D12Resource* inputs, ID3D12Resource* outputs) {
                     gs::D3D12Bindings bindings;
                     bindings.InputTensor = {inputs, 0, 32};
                     bindings.IndicesTensor = {inputs, 64, 48};
                     bindings.OutputTensor = {outputs, 0, 24};
                     gs::D3D12Buffer& bad = bindings.*param.tensor;
                     bad.Offset = param.offset;
                     bad.SizeInBytes = param.sizeInBytes;
                     recorded = engine->Record(op, list, bindings, gs::IndexChecking::Checked, &recording);
                     return !recorded.ok();  // an accepted binding would run out of bounds
                   });
  EXPECT_EQ(recorded.code(), gs::StatusCode::InvalidArgument) << param.what;
  EXPECT_EQ(recorded.message(), param.message);
  EXPECT_EQ(recording, nullptr);
  EXPECT_EQ(output, std::vector<uint8_t>(256, 0xab)) << "the caller's list ran something of the operator's";
}

INSTANTIATE_TEST_SUITE_P(
    Record, RecordRefuses,
    testing::Values(
        OutOfResource{"input at 1 MiB", &gs::D3D12Bindings::InputTensor, uint64_t{1} << 20, 32,
                      "GATHER_ELEMENTS: InputTensor is bound at offset 1048576 with SizeInBytes 32, past the end "
                      "of its resource of 256 bytes; Offset + SizeInBytes must lie inside the resource"},
        OutOfResource{"indices at 2^64 - 256", &gs::D3D12Bindings::IndicesTensor, ~uint64_t{0} - 255, 48,
                      "GATHER_ELEMENTS: IndicesTensor is bound at offset 18446744073709551360 with SizeInBytes 48, "
                      "past the end of its resource of 256 bytes; Offset + SizeInBytes must lie inside the "
                      "resource"},
        OutOfResource{"output across the end", &gs::D3D12Bindings::OutputTensor, 240, 24,
                      "GATHER_ELEMENTS: OutputTensor is bound at offset 240 with SizeInBytes 24, past the end of "
                      "its resource of 256 bytes; Offset + SizeInBytes must lie inside the resource"},
        OutOfResource{"output past the end", &gs::D3D12Bindings::OutputTensor, 4096, 24,
                      "GATHER_ELEMENTS: OutputTensor is bound at offset 4096 with SizeInBytes 24, past the end of "
                      "its resource of 256 bytes; Offset + SizeInBytes must lie inside the resource"}));

}  // namespace
