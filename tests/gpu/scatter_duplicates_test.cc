// Scatters whose updates all land on a few elements: the D3D12 path and the CPU engine must
// both give the independent reference's bytes (last update in row-major order wins; reductions
// folded in row-major order), with thousands of updates per destination.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "gpu_test_environment.h"
#include "gs/gs.h"
#include "plan/gpu_dispatch.h"
#include "reference.h"

namespace {

struct Result {
  gs::Status status;
  std::vector<uint8_t> output;
};

// The reference's output of a compiled-from desc on the same buffers (it shares no code with
// the engines).
std::vector<uint8_t> ReferenceOutput(const gs::OperatorDesc& desc, const void* input, const void* indices,
                                     const void* updates, size_t outputBytes) {
  std::vector<uint8_t> output(outputBytes, 0xcd);
  std::string error;
  const bool ok = gs_reference::RunReference(
      desc, {static_cast<const uint8_t*>(input), static_cast<const uint8_t*>(indices),
             static_cast<const uint8_t*>(updates), output.data()},
      gs::IndexChecking::Checked, &error);
  EXPECT_TRUE(ok) << error;
  return output;
}

// ScatterElements on 1-D tensors: `destinations` output elements, `updates` updates, update i
// goes to element i % destinations. Returns the CPU's and the GPU's output, each checked
// against the reference. viewLimit: the engine's view windows for the run (elements).
template <typename T>
void RunBoth(gs::DataType type, gs::Reduction reduction, uint32_t destinations,
             const std::vector<T>& updateValues, Result* cpu, Result* gpu,
             uint64_t viewLimit = gs::plan::kGpuViewElementLimit) {
  const uint32_t count = static_cast<uint32_t>(updateValues.size());
  const uint32_t outputSizes[] = {destinations};
  const uint32_t updateSizes[] = {count};
  gs::TensorDesc data{type, 1, outputSizes, nullptr, destinations * sizeof(T)};
  gs::TensorDesc indices{gs::DataType::UInt32, 1, updateSizes, nullptr, count * 4ull};
  gs::TensorDesc updates{type, 1, updateSizes, nullptr, count * sizeof(T)};
  gs::ScatterElementsOperatorDesc scatter{&data, &indices, &updates, &data, 0, reduction};
  gs::CompiledOperator op;
  ASSERT_TRUE(gs::CompileOperator({gs::OperatorType::ScatterElements, &scatter}, &op).ok());

  std::vector<T> input(destinations);
  for (uint32_t i = 0; i < destinations; ++i) input[i] = updateValues[i % count];
  std::vector<uint32_t> index(count);
  for (uint32_t i = 0; i < count; ++i) index[i] = i % destinations;
  for (Result* result : {cpu, gpu}) {
    result->output.assign(destinations * sizeof(T), 0xcd);
    gs::TensorBindings b;
    b.InputTensor = {input.data(), input.size() * sizeof(T)};
    b.IndicesTensor = {index.data(), index.size() * 4};
    b.UpdatesTensor = {updateValues.data(), count * sizeof(T)};
    b.OutputTensor = {result->output.data(), result->output.size()};
    if (result == cpu) {
      result->status = gs::ExecuteOnCpu(op, b);
    } else {
      std::string why;
      gs::D3D12Engine* engine = gs_gpu_test::SharedEngine(&why);
      ASSERT_NE(engine, nullptr) << why;
      ASSERT_TRUE(engine->SetViewElementLimit(viewLimit).ok());
      result->status = engine->ExecuteOnHost(op, b);
      ASSERT_TRUE(engine->SetViewElementLimit(gs::plan::kGpuViewElementLimit).ok());
    }
    ASSERT_TRUE(result->status.ok()) << result->status.message();
  }
  const std::vector<uint8_t> expected = ReferenceOutput({gs::OperatorType::ScatterElements, &scatter}, input.data(),
                                                        index.data(), updateValues.data(), destinations * sizeof(T));
  EXPECT_TRUE(cpu->output == expected) << "the CPU engine differs from the reference";
  EXPECT_TRUE(gpu->output == expected) << "the D3D12 path differs from the reference";
}

TEST(ScatterDuplicates, LastUpdateWinsAmongThousands) {
  std::vector<uint32_t> values(20000);
  for (uint32_t i = 0; i < values.size(); ++i) values[i] = i * 2654435761u;
  Result cpu, gpu;
  RunBoth(gs::DataType::UInt32, gs::Reduction::None, 3, values, &cpu, &gpu);
  EXPECT_EQ(cpu.output, gpu.output);
}

// Beyond the plan's limit of updates on one element, a reduction (whose fold walks each
// element's list) answers Unsupported on the D3D12 path and writes nothing (the caller falls
// back to the CPU engine). Overwrites have no such limit (scatter_winners_test.cc).
TEST(ScatterDuplicates, TooManyOnOneElementIsUnsupported) {
  const uint32_t count = gs::plan::kGpuMaxUpdatesPerElement + 1;
  const uint32_t outputSizes[] = {2}, updateSizes[] = {count};
  gs::TensorDesc data{gs::DataType::Int32, 1, outputSizes, nullptr, 8};
  gs::TensorDesc indices{gs::DataType::Int32, 1, updateSizes, nullptr, count * 4ull};
  gs::TensorDesc updates{gs::DataType::Int32, 1, updateSizes, nullptr, count * 4ull};
  gs::ScatterElementsOperatorDesc scatter{&data, &indices, &updates, &data, 0, gs::Reduction::Add};
  gs::CompiledOperator op;
  ASSERT_TRUE(gs::CompileOperator({gs::OperatorType::ScatterElements, &scatter}, &op).ok());
  const std::vector<int32_t> input = {5, 6}, index(count, 1), values(count, 3);
  std::vector<int32_t> output = {-7, -7};
  std::string why;
  gs::D3D12Engine* engine = gs_gpu_test::SharedEngine(&why);
  ASSERT_NE(engine, nullptr) << why;
  const gs::Status status = engine->ExecuteOnHost(
      op, {{input.data(), 8}, {index.data(), count * 4ull}, {values.data(), count * 4ull}, {output.data(), 8}});
  EXPECT_EQ(status.code(), gs::StatusCode::Unsupported);
  EXPECT_EQ(status.message(), "SCATTER_ELEMENTS: D3D12: more than 16384 updates land on one output element, "
                              "more than the D3D12 path folds on one thread; nothing was written "
                              "(ExecuteOnCpu runs it)");
  EXPECT_EQ(output, (std::vector<int32_t>{-7, -7}));
}

// Through view windows of 5008 elements: the 20000 updates' lists fill all 4 list windows,
// the updates span 4 tensor windows and the 7000 output elements 2, with 2 or 3 updates each.
TEST(ScatterDuplicates, LastUpdateWinsAcrossViewWindows) {
  std::vector<uint32_t> values(20000);
  for (uint32_t i = 0; i < values.size(); ++i) values[i] = i * 2654435761u;
  Result cpu, gpu;
  RunBoth(gs::DataType::UInt32, gs::Reduction::None, 7000, values, &cpu, &gpu, 5008);
  EXPECT_EQ(cpu.output, gpu.output);
  RunBoth(gs::DataType::UInt32, gs::Reduction::Add, 7000, values, &cpu, &gpu, 5008);
  EXPECT_EQ(cpu.output, gpu.output);
}

TEST(ScatterDuplicates, IntegerAddOfThousands) {
  std::vector<uint8_t> values(5000);
  for (uint32_t i = 0; i < values.size(); ++i) values[i] = static_cast<uint8_t>(i * 7 + 3);
  Result cpu, gpu;
  RunBoth(gs::DataType::UInt8, gs::Reduction::Add, 2, values, &cpu, &gpu);
  EXPECT_EQ(cpu.output, gpu.output);
}

// Float addition is not associative: only the row-major order gives the CPU's bits.
TEST(ScatterDuplicates, FloatAddInRowMajorOrder) {
  std::vector<float> values(3000);
  for (uint32_t i = 0; i < values.size(); ++i) values[i] = (i % 3 == 0 ? 1e8f : 1.0f) * (i % 2 ? -1.f : 1.f) + i * 0.37f;
  Result cpu, gpu;
  RunBoth(gs::DataType::Float32, gs::Reduction::Add, 1, values, &cpu, &gpu);
  EXPECT_EQ(cpu.output, gpu.output);
}

}  // namespace

namespace {

// Random bit patterns biased to the hard parts: subnormals, zeros, infinities, NaNs, near
// overflow, and operands that cancel.
template <typename Bits>
std::vector<Bits> HardFloats(uint32_t count, uint64_t seed) {
  constexpr int kBits = sizeof(Bits) * 8;
  constexpr int kMantissa = kBits == 64 ? 52 : kBits == 32 ? 23 : 10;
  constexpr uint64_t kExponentMask = ((uint64_t{1} << (kBits - 1 - kMantissa)) - 1);
  std::vector<Bits> values(count);
  uint64_t state = seed * 0x9e3779b97f4a7c15ull + 1;
  auto next = [&state] {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
  };
  for (uint32_t i = 0; i < count; ++i) {
    uint64_t r = next();
    uint64_t exponent;
    switch (r % 8) {
      case 0: exponent = 0; break;                       // zero or subnormal
      case 1: exponent = kExponentMask; break;           // inf or NaN
      case 2: exponent = 1 + (next() % 3); break;        // smallest normals
      case 3: exponent = kExponentMask - 1 - (next() % 3); break;  // near overflow
      default: exponent = (kExponentMask / 2) + (next() % 40) - 20; break;
    }
    uint64_t mantissa = next() & ((uint64_t{1} << kMantissa) - 1);
    if (r % 16 == 9) mantissa = 0;
    const uint64_t sign = (next() & 1) << (kBits - 1);
    values[i] = static_cast<Bits>(sign | (exponent << kMantissa) | mantissa);
    // Every fourth pair cancels or nearly does: the next value is this one negated, tweaked.
    if (i + 1 < count && r % 4 == 3) {
      values[i + 1] = static_cast<Bits>((values[i] ^ (uint64_t{1} << (kBits - 1))) + (next() % 3));
      ++i;
    }
  }
  return values;
}

// One update per output element (a permutation), so each element is one operation of the
// reduction's arithmetic: acc (the input) op update.
template <typename Bits>
void CheckArithmetic(gs::DataType type, gs::Reduction reduction) {
  constexpr uint32_t kCount = 4096;
  const std::vector<Bits> input = HardFloats<Bits>(kCount, 1), updates = HardFloats<Bits>(kCount, 2);
  const uint32_t sizes[] = {kCount};
  gs::TensorDesc data{type, 1, sizes, nullptr, kCount * sizeof(Bits)};
  gs::TensorDesc indicesDesc{gs::DataType::Int32, 1, sizes, nullptr, kCount * 4ull};
  gs::ScatterElementsOperatorDesc scatter{&data, &indicesDesc, &data, &data, 0, reduction};
  gs::CompiledOperator op;
  ASSERT_TRUE(gs::CompileOperator({gs::OperatorType::ScatterElements, &scatter}, &op).ok());
  std::vector<int32_t> indices(kCount);
  for (uint32_t i = 0; i < kCount; ++i) indices[i] = static_cast<int32_t>((i * 2654435761u) % kCount) - (i % 2 ? kCount : 0);
  std::vector<Bits> cpu(kCount), gpu(kCount);
  for (std::vector<Bits>* out : {&cpu, &gpu}) {
    gs::TensorBindings b;
    b.InputTensor = {input.data(), kCount * sizeof(Bits)};
    b.IndicesTensor = {indices.data(), kCount * 4ull};
    b.UpdatesTensor = {updates.data(), kCount * sizeof(Bits)};
    b.OutputTensor = {out->data(), kCount * sizeof(Bits)};
    gs::Status status;
    if (out == &cpu) {
      status = gs::ExecuteOnCpu(op, b);
    } else {
      std::string why;
      gs::D3D12Engine* engine = gs_gpu_test::SharedEngine(&why);
      ASSERT_NE(engine, nullptr) << why;
      status = engine->ExecuteOnHost(op, b);
    }
    ASSERT_TRUE(status.ok()) << status.message();
  }
  const std::vector<uint8_t> expected = ReferenceOutput({gs::OperatorType::ScatterElements, &scatter}, input.data(),
                                                        indices.data(), updates.data(), kCount * sizeof(Bits));
  EXPECT_EQ(std::memcmp(cpu.data(), expected.data(), expected.size()), 0)
      << gs::DataTypeName(type) << " " << gs::ReductionName(reduction) << ": the CPU engine differs from the reference";
  std::vector<uint32_t> updateOf(kCount);  // which update lands on each element
  for (uint32_t i = 0; i < kCount; ++i) updateOf[(indices[i] + static_cast<int64_t>(kCount)) % kCount] = i;
  for (uint32_t x = 0; x < kCount; ++x) {
    if (cpu[x] != gpu[x]) {
      ADD_FAILURE() << gs::DataTypeName(type) << " " << gs::ReductionName(reduction) << " element " << x
                    << ": CPU 0x" << std::hex << +cpu[x] << ", D3D12 0x" << +gpu[x] << " (input 0x"
                    << +input[x] << ", update 0x" << +updates[updateOf[x]] << ")";
      return;
    }
  }
}

TEST(ReductionArithmetic, Float16) {
  for (gs::Reduction r : {gs::Reduction::Add, gs::Reduction::Multiply, gs::Reduction::Min, gs::Reduction::Max}) {
    CheckArithmetic<uint16_t>(gs::DataType::Float16, r);
  }
}
TEST(ReductionArithmetic, Float32) {
  for (gs::Reduction r : {gs::Reduction::Add, gs::Reduction::Multiply, gs::Reduction::Min, gs::Reduction::Max}) {
    CheckArithmetic<uint32_t>(gs::DataType::Float32, r);
  }
}
TEST(ReductionArithmetic, Float64) {
  for (gs::Reduction r : {gs::Reduction::Add, gs::Reduction::Multiply, gs::Reduction::Min, gs::Reduction::Max}) {
    CheckArithmetic<uint64_t>(gs::DataType::Float64, r);
  }
}

}  // namespace
