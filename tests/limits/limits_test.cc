// Bad input at the limits, each its own error with its own message, beside the one test per
// rule in tests/plan/validation_test.cc: pointers, byte sizes that overflow only through the
// element size, address-space wrap, aliasing the spec forbids, index values at the extremes
// of their types. Every failing call must leave the output untouched.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <vector>

#include "desc_builder.h"

namespace gs::test {
namespace {

using ::testing::HasSubstr;

void ExpectInvalid(const Status& s, std::initializer_list<const char*> parts) {
  EXPECT_EQ(s.code(), StatusCode::InvalidArgument) << s.message();
  for (const char* part : parts) EXPECT_THAT(s.message(), HasSubstr(part));
}

// A valid SCATTER_ND on Input {4,3} INT32 with Indices {2,1} of `indexType`, bound to
// buffers; each test breaks one thing.
struct ScatterNd {
  Tensor input{DataType::Int32, {4, 3}};
  Tensor indices;
  Tensor updates{DataType::Int32, {2, 3}};
  Tensor output{DataType::Int32, {4, 3}};
  ScatterNdOperatorDesc desc{&input.desc, &indices.desc, &updates.desc, &output.desc, 2, 2,
                             Reduction::None};
  CompiledOperator op;
  std::vector<int32_t> in = std::vector<int32_t>(12, 7);
  std::vector<uint64_t> idx = {1, 3};  // wide enough for every index type
  std::vector<int32_t> upd = std::vector<int32_t>(6, 9);
  std::vector<int32_t> out = std::vector<int32_t>(12, -1);
  TensorBindings b;

  explicit ScatterNd(DataType indexType = DataType::Int64) : indices(indexType, {2, 1}) {
    EXPECT_TRUE(Compile(OperatorType::ScatterNd, &desc, &op).ok());
    b.InputTensor = {in.data(), 48};
    b.IndicesTensor = {idx.data(), indices.desc.TotalTensorSizeInBytes};
    b.UpdatesTensor = {upd.data(), 24};
    b.OutputTensor = {out.data(), 48};
  }
  bool OutputUntouched() const { return out == std::vector<int32_t>(12, -1); }
};

TEST(Limits, CompileIntoNullOutput) {
  ScatterNd t;
  ExpectInvalid(CompileOperator({OperatorType::ScatterNd, &t.desc}, nullptr),
                {"CompileOperator", "output pointer is null"});
}

// The element count fits in 64 bits; only the byte size (x 8 bytes) does not.
TEST(Limits, ByteSizeOverflowsThroughTheElementSize) {
  Tensor input(DataType::Float64, {1u << 31, 1u << 31, 2});  // 2^63 elements, 2^66 bytes
  Tensor indices(DataType::Int32, {1, 1, 1});
  Tensor output(DataType::Float64, {1, 1, 1});
  GatherElementsOperatorDesc d{&input.desc, &indices.desc, &output.desc, 0};
  CompiledOperator op;
  ExpectInvalid(Compile(OperatorType::GatherElements, &d, &op),
                {"GATHER_ELEMENTS", "InputTensor.Sizes {2147483648,2147483648,2}",
                 "reach beyond 64-bit byte offsets"});
  EXPECT_FALSE(op.valid());
}

TEST(Limits, UnknownCheckingMode) {
  ScatterNd t;
  CpuExecuteOptions options;
  options.Checking = static_cast<IndexChecking>(7);
  ExpectInvalid(ExecuteOnCpu(t.op, t.b, options), {"SCATTER_ND", "Checking is not a known mode"});
  EXPECT_TRUE(t.OutputUntouched());
}

TEST(Limits, NullOutputBinding) {
  ScatterNd t;
  t.b.OutputTensor.Data = nullptr;
  ExpectInvalid(ExecuteOnCpu(t.op, t.b), {"OutputTensor is bound to a null pointer"});
}

TEST(Limits, ZeroSizedBindingOfAValidPointer) {
  ScatterNd t;
  t.b.UpdatesTensor.SizeInBytes = 0;
  ExpectInvalid(ExecuteOnCpu(t.op, t.b),
                {"UpdatesTensor is bound to 0 bytes", "TotalTensorSizeInBytes is 24"});
  EXPECT_TRUE(t.OutputUntouched());
}

TEST(Limits, MisalignedOutput) {
  ScatterNd t;
  std::vector<int32_t> raw(14, -1);
  t.b.OutputTensor.Data = reinterpret_cast<uint8_t*>(raw.data()) + 2;
  ExpectInvalid(ExecuteOnCpu(t.op, t.b), {"OutputTensor is bound at address", "4-byte elements"});
  EXPECT_EQ(raw, std::vector<int32_t>(14, -1));
}

// An aligned address so close to the top that the buffer would wrap: refused before any use.
TEST(Limits, BufferWrapsTheAddressSpace) {
  ScatterNd t;
  const uintptr_t top = (std::numeric_limits<uintptr_t>::max() & ~uintptr_t{7}) - 8;
  t.b.InputTensor.Data = reinterpret_cast<const void*>(top);
  ExpectInvalid(ExecuteOnCpu(t.op, t.b), {"InputTensor at 0x", "wraps the address space"});
  EXPECT_TRUE(t.OutputUntouched());
}

// A gather's output over its indices: aliasing the spec forbids.
TEST(Limits, GatherOutputOverlapsIndices) {
  Tensor input(DataType::Int32, {3, 4});
  Tensor indices(DataType::Int32, {3, 2});
  Tensor output(DataType::Int32, {3, 2});
  GatherElementsOperatorDesc d{&input.desc, &indices.desc, &output.desc, 1};
  CompiledOperator op;
  ASSERT_TRUE(Compile(OperatorType::GatherElements, &d, &op).ok());
  std::vector<int32_t> in(12, 5), shared(6, 0);
  const TensorBindings b{{in.data(), 48}, {shared.data(), 24}, {}, {shared.data(), 24}};
  ExpectInvalid(ExecuteOnCpu(op, b),
                {"GATHER_ELEMENTS", "overlaps IndicesTensor's buffer", "must not overlap an input"});
  EXPECT_EQ(shared, std::vector<int32_t>(6, 0));
}

// In place needs the same view: Output at Input's address with other strides is an overlap.
TEST(Limits, InPlaceWithAnotherViewOverlaps) {
  ScatterNd t;
  Tensor transposed(DataType::Int32, {4, 3}, {1, 4});  // same sizes, column-major
  t.desc.OutputTensor = &transposed.desc;
  CompiledOperator op;
  ASSERT_TRUE(Compile(OperatorType::ScatterNd, &t.desc, &op).ok());
  t.b.OutputTensor = {t.in.data(), 48};
  ExpectInvalid(ExecuteOnCpu(op, t.b), {"overlaps InputTensor's buffer", "same view"});
  EXPECT_EQ(t.in, std::vector<int32_t>(12, 7));
}

// Index values at the ends of their types: no wrap, no overflow when the negative rule adds
// the dim size, each reported with its exact value.
TEST(Limits, IndexValuesAtTheEndsOfTheirTypes) {
  struct Extreme {
    DataType type;
    uint64_t bits;
    const char* text;
  };
  const Extreme extremes[] = {
      {DataType::Int64, uint64_t{1} << 63, "-9223372036854775808"},
      {DataType::Int64, (uint64_t{1} << 63) - 1, "9223372036854775807"},
      {DataType::UInt64, ~uint64_t{0}, "18446744073709551615"},
      {DataType::Int32, 0x80000000u, "-2147483648"},
      {DataType::UInt32, 0xffffffffu, "4294967295"},
  };
  for (const Extreme& e : extremes) {
    ScatterNd t(e.type);
    const bool wide = e.type == DataType::Int64 || e.type == DataType::UInt64;
    if (wide) {
      t.idx = {1, e.bits};
    } else {
      t.idx = {(e.bits << 32) | 1, 0};  // little-endian: element 0 is 1, element 1 is e.bits
    }
    t.b.IndicesTensor.Data = t.idx.data();
    ExpectInvalid(ExecuteOnCpu(t.op, t.b),
                  {"IndicesTensor", "flat row-major position 1", e.text});
    EXPECT_TRUE(t.OutputUntouched()) << e.text;
    // Unchecked: the update is dropped, the other one lands, nothing else is touched.
    CpuExecuteOptions unchecked;
    unchecked.Checking = IndexChecking::Unchecked;
    ASSERT_TRUE(ExecuteOnCpu(t.op, t.b, unchecked).ok()) << e.text;
    for (int i = 0; i < 12; ++i) EXPECT_EQ(t.out[i], i / 3 == 1 ? 9 : 7) << e.text << " " << i;
  }
}

}  // namespace
}  // namespace gs::test
