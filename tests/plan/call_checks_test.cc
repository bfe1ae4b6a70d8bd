// The checks both engines make before touching memory (src/plan/call_checks.h) and the
// bad-index error they share (src/plan/bad_index.h): one rule, the same verdict for host
// addresses and D3D12 resources, each worded in its engine's terms.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <tuple>

#include "desc_builder.h"
#include "plan/bad_index.h"
#include "plan/call_checks.h"
#include "plan/plan.h"

namespace gs::test {
namespace {

using plan::BindingSpace;
using plan::BoundTensor;
using ::testing::HasSubstr;

// SCATTER_ELEMENTS on Float32 {4}: Input, Indices (Int32 {2}), Updates {2}, Output: 16, 8, 8, 16 bytes.
struct Scatter {
  Tensor data{DataType::Float32, {4}};
  Tensor indices{DataType::Int32, {2}};
  Tensor updates{DataType::Float32, {2}};
  CompiledOperator op;
  Scatter() {
    const ScatterElementsOperatorDesc desc{&data.desc, &indices.desc, &updates.desc, &data.desc, 0};
    EXPECT_TRUE(Compile(OperatorType::ScatterElements, &desc, &op).ok());
  }
  const plan::Plan& plan() const { return *op.plan(); }
};

// The four tensors at these offsets of one memory: a host address space (resource nullptr) or
// one D3D12 resource.
struct Layout {
  uint64_t input = 0x1000, indices = 0x2000, updates = 0x3000, output = 0x4000;
};

Status Check(const plan::Plan& plan, BindingSpace space, const Layout& at, bool* inPlace) {
  static const int kResource = 0;
  const void* memory = space == BindingSpace::HostAddresses ? nullptr : &kResource;
  const BoundTensor tensors[plan::kTensorRoleCount] = {
      {memory, at.input, 16}, {memory, at.indices, 8}, {memory, at.updates, 8}, {memory, at.output, 16}};
  return plan::CheckBoundTensors(plan, space, tensors, inPlace);
}

TEST(CallChecks, InPlaceAndOverlapAreOneRuleInBothSpaces) {
  const Scatter s;
  for (const BindingSpace space : {BindingSpace::HostAddresses, BindingSpace::D3D12Resources}) {
    bool inPlace = true;
    EXPECT_TRUE(Check(s.plan(), space, Layout{}, &inPlace).ok());
    EXPECT_FALSE(inPlace);
    Layout same;
    same.output = same.input;
    EXPECT_TRUE(Check(s.plan(), space, same, &inPlace).ok());
    EXPECT_TRUE(inPlace);
    Layout shifted;
    shifted.output = shifted.input + 4;  // overlapping, not the same view
    const Status status = Check(s.plan(), space, shifted, &inPlace);
    EXPECT_EQ(status.code(), StatusCode::InvalidArgument);
    EXPECT_THAT(status.message(), HasSubstr("SCATTER_ELEMENTS: OutputTensor"));
    EXPECT_THAT(status.message(), HasSubstr("an output must not overlap an input"));
    Layout onIndices;
    onIndices.output = onIndices.indices;
    EXPECT_THAT(Check(s.plan(), space, onIndices, &inPlace).message(), HasSubstr("overlaps IndicesTensor"));
  }
}

TEST(CallChecks, SameOffsetsInDifferentResourcesDoNotOverlap) {
  const Scatter s;
  const int a = 0, b = 0;
  const BoundTensor tensors[plan::kTensorRoleCount] = {{&a, 0, 16}, {&a, 16, 8}, {&a, 24, 8}, {&b, 0, 16}};
  bool inPlace = true;
  EXPECT_TRUE(plan::CheckBoundTensors(s.plan(), BindingSpace::D3D12Resources, tensors, &inPlace).ok());
  EXPECT_FALSE(inPlace);
}

TEST(CallChecks, EachSpaceNamesThePlaceItsOwnWay) {
  const Scatter s;
  bool inPlace = false;
  Layout misaligned;
  misaligned.updates = 0x3002;
  EXPECT_EQ(Check(s.plan(), BindingSpace::HostAddresses, misaligned, &inPlace).message(),
            "SCATTER_ELEMENTS: UpdatesTensor is bound at address 0x3002, which is not aligned to its 4-byte elements");
  EXPECT_EQ(Check(s.plan(), BindingSpace::D3D12Resources, misaligned, &inPlace).message(),
            "SCATTER_ELEMENTS: UpdatesTensor starts at offset 12290, not a multiple of its 4-byte elements");
  Layout missing;
  missing.indices = 0;
  EXPECT_THAT(Check(s.plan(), BindingSpace::HostAddresses, missing, &inPlace).message(),
              HasSubstr("IndicesTensor is bound to a null pointer"));
  Layout wrapping;
  wrapping.input = UINT64_MAX - 7;
  EXPECT_THAT(Check(s.plan(), BindingSpace::D3D12Resources, wrapping, &inPlace).message(),
              HasSubstr("InputTensor at offset 18446744073709551608 with 16 bytes wraps"));
}

// A D3D12 binding must lie inside its resource: up to its last byte, not one past, and an
// offset near 2^64 does not wrap around into it.
TEST(CallChecks, D3D12BindingsLieInsideTheirResource) {
  const Scatter s;
  const int resource = 0;
  auto check = [&](uint64_t outputOffset, uint64_t outputBytes, uint64_t resourceBytes) {
    BoundTensor tensors[plan::kTensorRoleCount] = {
        {&resource, 0, 16}, {&resource, 16, 8}, {&resource, 24, 8}, {&resource, outputOffset, outputBytes}};
    for (BoundTensor& t : tensors) t.resourceSizeInBytes = resourceBytes;
    bool inPlace = false;
    return plan::CheckBoundTensors(s.plan(), BindingSpace::D3D12Resources, tensors, &inPlace);
  };
  EXPECT_TRUE(check(48, 16, 64).ok());
  EXPECT_EQ(check(48, 20, 64).message(),
            "SCATTER_ELEMENTS: OutputTensor is bound at offset 48 with SizeInBytes 20, past the end of its resource "
            "of 64 bytes; Offset + SizeInBytes must lie inside the resource");
  EXPECT_EQ(check(UINT64_MAX - 63, 16, 64).message(),
            "SCATTER_ELEMENTS: OutputTensor is bound at offset 18446744073709551552 with SizeInBytes 16, past the "
            "end of its resource of 64 bytes; Offset + SizeInBytes must lie inside the resource");
}

TEST(CallChecks, AnUnknownCheckingModeNamesTheCallersField) {
  const Scatter s;
  EXPECT_TRUE(plan::CheckIndexChecking(s.plan(), IndexChecking::Unchecked, "IndexChecking").ok());
  const Status status = plan::CheckIndexChecking(s.plan(), static_cast<IndexChecking>(7), "Options.Checking");
  EXPECT_EQ(status.code(), StatusCode::InvalidArgument);
  EXPECT_EQ(status.message(), "SCATTER_ELEMENTS: Options.Checking is not a known mode");
}

// The index's bits read as the plan's index type (the GPU hands back raw words).
TEST(BadIndex, ReadsTheBitsAsTheIndexType) {
  Tensor data{DataType::Float32, {4}};
  for (const auto& [type, bits, text, range] :
       {std::tuple{DataType::Int32, uint64_t{0xfffffff9}, "-7", "[-4, 4)"},
        std::tuple{DataType::UInt32, uint64_t{0xfffffff9}, "4294967289", "[0, 4)"},
        std::tuple{DataType::Int64, ~uint64_t{0}, "-1", "[-4, 4)"},
        std::tuple{DataType::UInt64, uint64_t{1} << 40, "1099511627776", "[0, 4)"}}) {
    Tensor indices{type, {2}};
    Tensor output{DataType::Float32, {2}};
    const GatherElementsOperatorDesc gather{&data.desc, &indices.desc, &output.desc, 0};
    CompiledOperator op;
    ASSERT_TRUE(Compile(OperatorType::GatherElements, &gather, &op).ok());
    const Status status = plan::BadIndexStatus(*op.plan(), 1, bits);
    EXPECT_EQ(status.code(), StatusCode::InvalidArgument);
    EXPECT_EQ(status.message(), std::string("GATHER_ELEMENTS: IndicesTensor element at flat row-major position 1 is ") +
                                    text + ", outside the valid range " + range + " of a dimension of size 4");
  }
}

}  // namespace
}  // namespace gs::test
