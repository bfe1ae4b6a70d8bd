// A 5 GiB UINT8 tensor, {5, 2^30}: beyond 2^32 elements and 4 GiB, so every offset the CPU
// engine computes must be 64-bit. Reads and writes at the far end are checked against a byte
// pattern computed here from the flat position alone. Labelled "large" (ctest -L large).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <new>
#include <vector>

#include "gs/gs.h"

namespace {

constexpr uint32_t kRows = 5;
constexpr uint32_t kColumns = 1u << 30;
constexpr uint64_t kBytes = uint64_t{kRows} * kColumns;  // 5 GiB

// The byte at flat position f: varies within a page, between pages and across each 4 GiB
// boundary, so an offset truncated to 32 bits reads a different value.
uint8_t PatternAt(uint64_t f) {
  return static_cast<uint8_t>(f ^ ((f >> 12) * 0x9d) ^ ((f >> 32) * 0x3b));
}

uint64_t Flat(uint64_t row, uint64_t column) { return row * kColumns + column; }

class LargeTensor : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    data_ = new (std::nothrow) uint8_t[kBytes];
    if (data_ == nullptr) return;
    for (uint64_t page = 0; page < kBytes; page += 4096) {  // one page at a time: vectorises
      const uint8_t high = static_cast<uint8_t>(((page >> 12) * 0x9d) ^ ((page >> 32) * 0x3b));
      for (uint32_t i = 0; i < 4096; ++i) data_[page + i] = static_cast<uint8_t>(i ^ high);
    }
  }
  static void TearDownTestSuite() {
    delete[] data_;
    data_ = nullptr;
  }
  void SetUp() override { ASSERT_NE(data_, nullptr) << "could not allocate 5 GiB"; }

  static gs::TensorDesc InputDesc() {
    return {gs::DataType::UInt8, 2, kSizes, nullptr, kBytes};
  }
  static constexpr uint32_t kSizes[2] = {kRows, kColumns};
  static inline uint8_t* data_ = nullptr;
};

// The checks below can only catch an offset truncated to 32 bits if the byte there differs
// from the byte at the truncated offset: true of the formula for every position past 4 GiB
// (the high part adds a nonzero multiple of 0x3b below 256), and of the buffer as filled.
TEST_F(LargeTensor, TruncatedOffsetsReadOtherBytes) {
  for (uint64_t f : {Flat(4, kColumns - 1), Flat(4, 0), Flat(4, 123456789), uint64_t{1} << 32,
                     (uint64_t{1} << 32) + 4095, kBytes - 1}) {
    const uint64_t truncated = f & 0xffffffffu;
    EXPECT_NE(PatternAt(f), PatternAt(truncated)) << f;
    EXPECT_EQ(data_[f], PatternAt(f)) << f;
    EXPECT_EQ(data_[truncated], PatternAt(truncated)) << truncated;
    EXPECT_NE(data_[f], data_[truncated]) << f;
  }
}

// GATHER_ND with (row, column) tuples at the far end, negative ones included; unchecked, an
// out-of-range tuple gives a zero.
TEST_F(LargeTensor, GatherNdReadsBeyondFourGiB) {
  const gs::TensorDesc input = InputDesc();
  const int64_t tuples[][2] = {{4, kColumns - 1}, {4, 0},  {3, kColumns - 1}, {-1, -2},
                               {0, 0},            {2, 123456789}, {-5, -1}};
  constexpr uint32_t kCount = 7;
  const uint32_t indicesSizes[] = {kCount, 2}, outputSizes[] = {1, kCount};
  const gs::TensorDesc indices{gs::DataType::Int64, 2, indicesSizes, nullptr, sizeof tuples};
  const gs::TensorDesc output{gs::DataType::UInt8, 2, outputSizes, nullptr, kCount};
  const gs::GatherNdOperatorDesc desc{&input, &indices, &output, 2, 2};
  gs::CompiledOperator op;
  ASSERT_TRUE(gs::CompileOperator({gs::OperatorType::GatherNd, &desc}, &op).ok());
  uint8_t out[kCount];
  std::memset(out, 0xee, sizeof out);
  const gs::Status s =
      gs::ExecuteOnCpu(op, {{data_, kBytes}, {tuples, sizeof tuples}, {}, {out, sizeof out}});
  ASSERT_TRUE(s.ok()) << s.message();
  for (uint32_t j = 0; j < kCount; ++j) {
    const uint64_t row = tuples[j][0] < 0 ? tuples[j][0] + kRows : tuples[j][0];
    const uint64_t column = tuples[j][1] < 0 ? tuples[j][1] + kColumns : tuples[j][1];
    EXPECT_EQ(out[j], PatternAt(Flat(row, column))) << "tuple " << j;
  }

  const int64_t outside[][2] = {{4, kColumns - 1}, {5, 0}, {4, kColumns}};
  const uint32_t outsideSizes[] = {3, 2}, outsideOutputSizes[] = {1, 3};
  const gs::TensorDesc outsideIndices{gs::DataType::Int64, 2, outsideSizes, nullptr, sizeof outside};
  const gs::TensorDesc outsideOutput{gs::DataType::UInt8, 2, outsideOutputSizes, nullptr, 3};
  const gs::GatherNdOperatorDesc outsideDesc{&input, &outsideIndices, &outsideOutput, 2, 2};
  ASSERT_TRUE(gs::CompileOperator({gs::OperatorType::GatherNd, &outsideDesc}, &op).ok());
  gs::CpuExecuteOptions unchecked;
  unchecked.Checking = gs::IndexChecking::Unchecked;
  std::memset(out, 0xee, sizeof out);
  ASSERT_TRUE(gs::ExecuteOnCpu(op, {{data_, kBytes}, {outside, sizeof outside}, {}, {out, 3}},
                               unchecked).ok());
  EXPECT_EQ(out[0], PatternAt(kBytes - 1));
  EXPECT_EQ(out[1], 0);
  EXPECT_EQ(out[2], 0);
  EXPECT_EQ(out[3], 0xee);  // past the bound output
  // Checked, the same indices fail on the first bad tuple's row.
  const gs::Status bad =
      gs::ExecuteOnCpu(op, {{data_, kBytes}, {outside, sizeof outside}, {}, {out, 3}});
  EXPECT_EQ(bad.code(), gs::StatusCode::InvalidArgument);
  EXPECT_NE(bad.message().find("position 2"), std::string::npos) << bad.message();
}

// GATHER_ELEMENTS along the 2^30 axis: one column per row, every row past the previous GiB.
TEST_F(LargeTensor, GatherElementsAlongTheLongAxis) {
  const gs::TensorDesc input = InputDesc();
  const uint32_t columns[kRows] = {kColumns - 1, 7, kColumns / 2 + 3, 0, kColumns - 2};
  const uint32_t sizes[] = {kRows, 1};
  const gs::TensorDesc indices{gs::DataType::UInt32, 2, sizes, nullptr, sizeof columns};
  const gs::TensorDesc output{gs::DataType::UInt8, 2, sizes, nullptr, kRows};
  const gs::GatherElementsOperatorDesc desc{&input, &indices, &output, 1};
  gs::CompiledOperator op;
  ASSERT_TRUE(gs::CompileOperator({gs::OperatorType::GatherElements, &desc}, &op).ok());
  for (int threads : {1, 0}) {
    uint8_t out[kRows] = {};
    gs::CpuExecuteOptions options;
    options.ThreadCount = threads;
    ASSERT_TRUE(
        gs::ExecuteOnCpu(op, {{data_, kBytes}, {columns, sizeof columns}, {}, {out, kRows}}, options)
            .ok());
    for (uint32_t r = 0; r < kRows; ++r) {
      EXPECT_EQ(out[r], PatternAt(Flat(r, columns[r]))) << "row " << r << ", threads " << threads;
    }
  }
}

// SCATTER_ND in place into the 5 GiB buffer: writes land at the far end, their neighbours
// keep their bytes. Runs last in this file: it changes the pattern at three positions.
TEST_F(LargeTensor, ScatterNdInPlaceWritesBeyondFourGiB) {
  const gs::TensorDesc io = InputDesc();
  const int64_t tuples[][2] = {{4, kColumns - 1}, {4, kColumns - 3}, {-2, -1}};
  const uint32_t indicesSizes[] = {3, 2}, updatesSizes[] = {1, 3};
  const gs::TensorDesc indices{gs::DataType::Int64, 2, indicesSizes, nullptr, sizeof tuples};
  const gs::TensorDesc updates{gs::DataType::UInt8, 2, updatesSizes, nullptr, 3};
  const gs::ScatterNdOperatorDesc desc{&io, &indices, &updates, &io, 2, 2, gs::Reduction::Add};
  gs::CompiledOperator op;
  ASSERT_TRUE(gs::CompileOperator({gs::OperatorType::ScatterNd, &desc}, &op).ok());
  const uint8_t add[3] = {1, 2, 3};
  ASSERT_TRUE(
      gs::ExecuteOnCpu(op, {{data_, kBytes}, {tuples, sizeof tuples}, {add, 3}, {data_, kBytes}})
          .ok());
  const uint64_t written[3] = {kBytes - 1, kBytes - 3, Flat(3, kColumns - 1)};
  for (int k = 0; k < 3; ++k) {
    EXPECT_EQ(data_[written[k]], static_cast<uint8_t>(PatternAt(written[k]) + add[k])) << k;
  }
  for (uint64_t f : {kBytes - 2, kBytes - 4, Flat(3, kColumns - 2), Flat(4, 0),
                     (kBytes - 1) & 0xffffffffu}) {
    EXPECT_EQ(data_[f], PatternAt(f)) << f;
  }
}

}  // namespace
