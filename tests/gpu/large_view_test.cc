// Tensors that really cross one typed view (2^27 elements) on the default view limit: a
// gather reading a UINT8 input of 2^27 + 2^20 elements and a scatter into an output that large
// (its list of updates per output element, one word each, crosses 2^27 words too). The
// indices land on both sides of the boundary. Labelled `large` in ctest (ctest -L large).
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "gpu_test_environment.h"
#include "gs/gs.h"
#include "plan/gpu_dispatch.h"

namespace {

constexpr uint32_t kElements = (1u << 27) + (1u << 20);
constexpr uint32_t kIndexCount = 4096;

std::vector<uint8_t> LargeInput() {
  std::vector<uint8_t> input(kElements);
  for (uint32_t i = 0; i < kElements; ++i) input[i] = static_cast<uint8_t>((i * 2654435761u) >> 24);
  return input;
}

// Spread over the whole tensor, with the elements around 2^27 and the last one, and repeats.
std::vector<uint32_t> Positions() {
  std::vector<uint32_t> positions(kIndexCount);
  const uint32_t boundary = 1u << 27;
  for (uint32_t i = 0; i < kIndexCount; ++i) positions[i] = static_cast<uint32_t>(uint64_t{i} * 2654435761u % kElements);
  const uint32_t edges[] = {0, boundary - 1, boundary, boundary + 1, kElements - 1, boundary, boundary - 1};
  for (uint32_t i = 0; i < sizeof edges / sizeof edges[0]; ++i) positions[i * 97] = edges[i];
  return positions;
}

gs::D3D12Engine* Engine() {
  std::string why;
  gs::D3D12Engine* engine = gs_gpu_test::SharedEngine(&why);
  EXPECT_NE(engine, nullptr) << why;
  return engine;
}

TEST(LargeView, GatherElementsReadsAcrossTheFirstView) {
  gs::D3D12Engine* engine = Engine();
  ASSERT_NE(engine, nullptr);
  const uint32_t inputSizes[] = {kElements}, indexSizes[] = {kIndexCount};
  const gs::TensorDesc input{gs::DataType::UInt8, 1, inputSizes, nullptr, kElements};
  const gs::TensorDesc indices{gs::DataType::UInt32, 1, indexSizes, nullptr, kIndexCount * 4};
  const gs::TensorDesc output{gs::DataType::UInt8, 1, indexSizes, nullptr, kIndexCount};
  const gs::GatherElementsOperatorDesc gather{&input, &indices, &output, 0};
  gs::CompiledOperator op;
  ASSERT_TRUE(gs::CompileOperator({gs::OperatorType::GatherElements, &gather}, &op).ok());
  static_assert(kElements > gs::plan::kGpuViewElementLimit, "the input spans two views");

  const std::vector<uint8_t> data = LargeInput();
  const std::vector<uint32_t> positions = Positions();
  std::vector<uint8_t> cpu(kIndexCount, 0xcd), gpu(kIndexCount, 0xcd);
  gs::TensorBindings b;
  b.InputTensor = {data.data(), data.size()};
  b.IndicesTensor = {positions.data(), positions.size() * 4};
  b.OutputTensor = {cpu.data(), cpu.size()};
  ASSERT_TRUE(gs::ExecuteOnCpu(op, b).ok());
  b.OutputTensor = {gpu.data(), gpu.size()};
  const gs::Status status = engine->ExecuteOnHost(op, b);
  ASSERT_TRUE(status.ok()) << status.message();
  EXPECT_EQ(gpu, cpu);
  for (uint32_t i = 0; i < kIndexCount; ++i) ASSERT_EQ(gpu[i], data[positions[i]]) << "output element " << i;
}

TEST(LargeView, ScatterElementsWritesAcrossTheFirstView) {
  gs::D3D12Engine* engine = Engine();
  ASSERT_NE(engine, nullptr);
  const uint32_t dataSizes[] = {kElements}, indexSizes[] = {kIndexCount};
  const gs::TensorDesc data{gs::DataType::UInt8, 1, dataSizes, nullptr, kElements};
  const gs::TensorDesc indices{gs::DataType::UInt32, 1, indexSizes, nullptr, kIndexCount * 4};
  const gs::TensorDesc updates{gs::DataType::UInt8, 1, indexSizes, nullptr, kIndexCount};
  const gs::ScatterElementsOperatorDesc scatter{&data, &indices, &updates, &data, 0, gs::Reduction::None};
  gs::CompiledOperator op;
  ASSERT_TRUE(gs::CompileOperator({gs::OperatorType::ScatterElements, &scatter}, &op).ok());

  const std::vector<uint8_t> input = LargeInput();
  const std::vector<uint32_t> positions = Positions();
  std::vector<uint8_t> updateValues(kIndexCount);
  for (uint32_t i = 0; i < kIndexCount; ++i) updateValues[i] = static_cast<uint8_t>(i * 7 + 1);
  std::vector<uint8_t> cpu(kElements, 0xcd), gpu(kElements, 0xcd);
  gs::TensorBindings b;
  b.InputTensor = {input.data(), input.size()};
  b.IndicesTensor = {positions.data(), positions.size() * 4};
  b.UpdatesTensor = {updateValues.data(), updateValues.size()};
  b.OutputTensor = {cpu.data(), cpu.size()};
  ASSERT_TRUE(gs::ExecuteOnCpu(op, b).ok());
  b.OutputTensor = {gpu.data(), gpu.size()};
  const gs::Status status = engine->ExecuteOnHost(op, b);
  ASSERT_TRUE(status.ok()) << status.message();
  EXPECT_TRUE(gpu == cpu);
  // Independently: the input, with each position's last update in row-major order.
  std::vector<uint8_t> expected = input;
  for (uint32_t i = 0; i < kIndexCount; ++i) expected[positions[i]] = updateValues[i];
  EXPECT_TRUE(gpu == expected);
}

}  // namespace
