// Gathers of elements narrower than a word written a whole 32-bit (GatherPacked) or 16-byte
// (GatherPackedWide) word a thread, where plan/gpu_dispatch.cc's GatherPackedWordBytes allows,
// stepping along the innermost dim or seeking each element: the plan's choice, and the bytes in the
// caller's own buffers against the CPU engine's, sentinels around (and, for strided outputs,
// between) the output's elements, at word-aligned and unaligned offsets, with ragged tails, in
// view windows, unchecked and checked with a bad index early, late or nowhere.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "callers_list.h"
#include "gpu_test_environment.h"
#include "gs/gs.h"
#include "plan/gpu_dispatch.h"

namespace {

constexpr uint64_t kIndicesAt = 1024;  // in the inputs buffer; the input at NarrowCase::inputAt
constexpr uint64_t kInputsBytes = 2048;
constexpr uint64_t kOutputBufferBytes = 512;  // over 16 16-byte words: Output's windows too

// GATHER_ELEMENTS along axis 1 of a rows x cols input by rows x k indices, or (rowsOf > 0)
// GATHER_ND of rows x rowsOf by k one-component tuples: rows of rowsOf elements each.
struct NarrowCase {
  const char* name;
  gs::DataType type;
  uint32_t rows, cols, k;
  uint32_t rowsOf;
  bool index64;
  uint64_t inputAt, outputAt;  // the caller's offsets (inputs buffer, output buffer)
  uint32_t outputRowStride;    // GATHER_ELEMENTS: elements between output rows (k: packed)
  uint32_t word;               // what the plan must pick: Output's packed word (16, 4) or none (0)
  bool steps;                  // and whether a word's elements step along the innermost dim

  uint32_t ElementBytes() const { return gs::ElementSizeInBytes(type); }
  uint32_t IndexCount() const { return rowsOf > 0 ? k : rows * k; }
  uint32_t Bound() const { return rowsOf > 0 ? rows : cols; }  // of each index
  uint64_t InputBytes() const { return uint64_t{rows} * (rowsOf > 0 ? rowsOf : cols) * ElementBytes(); }
  uint64_t IndexBytes() const { return uint64_t{IndexCount()} * (index64 ? 8 : 4); }
  uint64_t OutputBytes() const {
    if (rowsOf > 0) return uint64_t{k} * rowsOf * ElementBytes();
    return (uint64_t{rows - 1} * outputRowStride + k) * ElementBytes();
  }

  gs::CompiledOperator Compile() const {
    static uint32_t inputSizes[2], indexSizes[2], outputSizes[2], outputStrides[2];
    static gs::TensorDesc input, indices, output;
    const gs::DataType indexType = index64 ? gs::DataType::Int64 : gs::DataType::Int32;
    gs::CompiledOperator op;
    gs::Status status;
    if (rowsOf > 0) {
      inputSizes[0] = rows, inputSizes[1] = rowsOf, indexSizes[0] = k, indexSizes[1] = 1;
      outputSizes[0] = k, outputSizes[1] = rowsOf;
      input = {type, 2, inputSizes, nullptr, InputBytes()};
      indices = {indexType, 2, indexSizes, nullptr, IndexBytes()};
      output = {type, 2, outputSizes, nullptr, OutputBytes()};
      const gs::GatherNdOperatorDesc desc{&input, &indices, &output, 2, 2};
      status = gs::CompileOperator({gs::OperatorType::GatherNd, &desc}, &op);
    } else {
      inputSizes[0] = rows, inputSizes[1] = cols, indexSizes[0] = rows, indexSizes[1] = k;
      outputStrides[0] = outputRowStride, outputStrides[1] = 1;
      input = {type, 2, inputSizes, nullptr, InputBytes()};
      indices = {indexType, 2, indexSizes, nullptr, IndexBytes()};
      output = {type, 2, indexSizes, outputStrides, OutputBytes()};
      const gs::GatherElementsOperatorDesc desc{&input, &indices, &output, 1};
      status = gs::CompileOperator({gs::OperatorType::GatherElements, &desc}, &op);
    }
    EXPECT_TRUE(status.ok()) << name << ": " << status.message();
    return op;
  }
};

// Indices as bytes: in [-bound, bound), a third negative; `bad` (if < count) out of range.
std::vector<uint8_t> Indices(const NarrowCase& c, uint32_t bad) {
  std::vector<uint8_t> bytes(c.IndexBytes());
  const int64_t bound = c.Bound();
  for (uint32_t i = 0; i < c.IndexCount(); ++i) {
    int64_t index = (i * 7 + 3) % bound - (i % 3 == 0 ? bound : 0);
    if (i == bad) index = bound + i;
    if (c.index64) {
      std::memcpy(&bytes[i * 8], &index, 8);
    } else {
      const int32_t low = static_cast<int32_t>(index);
      std::memcpy(&bytes[i * 4], &low, 4);
    }
  }
  return bytes;
}

struct Outcome {
  gs::Status status;
  std::vector<uint8_t> outputBuffer;  // the output's buffer after the call
};

Outcome OnCpu(const NarrowCase& c, const std::vector<uint8_t>& input, const std::vector<uint8_t>& indices,
              gs::IndexChecking checking) {
  Outcome cpu{gs::Status::Ok(), std::vector<uint8_t>(kOutputBufferBytes, 0xab)};
  gs::CpuExecuteOptions options;
  options.Checking = checking;
  cpu.status = gs::ExecuteOnCpu(
      c.Compile(),
      {{input.data(), input.size()}, {indices.data(), indices.size()}, {}, {&cpu.outputBuffer[c.outputAt], c.OutputBytes()}},
      options);
  return cpu;
}

Outcome OnGpu(gs::D3D12Engine* engine, const NarrowCase& c, const std::vector<uint8_t>& input,
              const std::vector<uint8_t>& indices, gs::IndexChecking checking, uint64_t viewLimit) {
  Outcome gpu{gs::Status(gs::StatusCode::Internal, "not recorded"), {}};
  std::vector<uint8_t> staging(kInputsBytes + kOutputBufferBytes, 0xab);  // the inputs buffer, then the output's
  std::memcpy(&staging[c.inputAt], input.data(), input.size());
  std::memcpy(&staging[kIndicesAt], indices.data(), indices.size());
  const gs::CompiledOperator op = c.Compile();
  std::unique_ptr<gs::D3D12Recording> recording;
  gs_gpu_test::RunInCallersList(
      engine->device(), staging, &gpu.outputBuffer,
      [&](ID3D12GraphicsCommandList* list, ID3D12Resource* inputs, ID3D12Resource* outputs) {
        gs::D3D12Bindings bindings;
        bindings.InputTensor = {inputs, c.inputAt, input.size()};
        bindings.IndicesTensor = {inputs, kIndicesAt, indices.size()};
        bindings.OutputTensor = {outputs, c.outputAt, c.OutputBytes()};
        EXPECT_TRUE(engine->SetViewElementLimit(viewLimit).ok());
        gpu.status = engine->Record(op, list, bindings, checking, &recording);
        EXPECT_TRUE(engine->SetViewElementLimit(gs::plan::kGpuViewElementLimit).ok());
        return gpu.status.ok();
      },
      kOutputBufferBytes);
  if (recording != nullptr) gpu.status = recording->Result();
  return gpu;
}

// The output's view: the bytes a failed gather may have written.
bool InOutputView(const NarrowCase& c, uint64_t at) {
  return at >= c.outputAt && at < c.outputAt + c.OutputBytes();
}

// Every case fits the output buffer and 16-element windows x 8 (128 elements a tensor);
// the Windowed sweeps cross windows in every tensor, Output's words included where it has over 16.
const NarrowCase kCases[] = {
    // name, type, rows, cols, k, rowsOf, index64, inputAt, outputAt, outputRowStride, word, steps
    {"i8, 40 outputs", gs::DataType::Int8, 5, 7, 8, 0, false, 64, 32, 8, 4, true},
    {"i8, 100 outputs: 25 words, more than a window", gs::DataType::Int8, 10, 11, 10, 0, false, 64, 32, 10, 4, false},
    {"u8, 36 outputs, input at an odd offset", gs::DataType::UInt8, 4, 9, 9, 0, true, 65, 36, 9, 4, false},
    {"i8, 45 outputs: a ragged tail", gs::DataType::Int8, 5, 7, 9, 0, false, 64, 32, 9, 0, false},
    {"i8, output at offset 33", gs::DataType::Int8, 5, 7, 8, 0, false, 64, 33, 8, 0, false},
    {"u8, output at offset 34", gs::DataType::UInt8, 5, 7, 8, 0, true, 64, 34, 8, 0, false},
    {"i8, output rows 11 apart", gs::DataType::Int8, 5, 7, 8, 0, false, 64, 32, 11, 0, false},
    {"f16, 30 outputs", gs::DataType::Float16, 6, 11, 5, 0, true, 64, 32, 5, 4, false},
    {"f16, 40 outputs across rows of 5", gs::DataType::Float16, 8, 9, 5, 0, false, 64, 64, 5, 4, false},
    {"f16, 35 outputs: a ragged tail", gs::DataType::Float16, 7, 11, 5, 0, false, 64, 32, 5, 0, false},
    {"f16, output at offset 34", gs::DataType::Float16, 6, 11, 5, 0, true, 64, 34, 5, 0, false},
    {"i16, 42 outputs", gs::DataType::Int16, 6, 5, 7, 0, false, 66, 40, 7, 4, false},
    {"i16, output rows 9 apart", gs::DataType::Int16, 6, 5, 7, 0, false, 64, 40, 9, 0, false},
    {"i8, rows of 3 across words", gs::DataType::Int8, 10, 0, 8, 3, true, 64, 32, 0, 4, false},
    {"f16, rows of 3 across words", gs::DataType::Float16, 10, 0, 6, 3, false, 64, 32, 0, 4, false},
    {"i8, rows of 3, 7 rows: a ragged tail", gs::DataType::Int8, 10, 0, 7, 3, false, 64, 32, 0, 0, false},
    // 16-byte words (GatherPackedWide) for 4- and 8-byte elements, 32-bit words for narrower ones
    // (at most 4 elements a word): a word within a row of k (steps) or across rows (seeks).
    {"f32, rows of 8: 4 a word, in its row", gs::DataType::Float32, 4, 5, 8, 0, true, 64, 32, 8, 16, true},
    {"f32, rows of 6: words across rows", gs::DataType::Float32, 6, 7, 6, 0, false, 64, 16, 6, 16, false},
    {"f32, 25 outputs: a ragged tail", gs::DataType::Float32, 5, 7, 5, 0, false, 64, 32, 5, 0, false},
    {"f32, output at offset 40", gs::DataType::Float32, 4, 5, 8, 0, false, 64, 40, 8, 0, false},
    {"f32, output rows 9 apart", gs::DataType::Float32, 4, 5, 8, 0, false, 64, 16, 9, 0, false},
    {"f16, rows of 16: 2 a word, in its row", gs::DataType::Float16, 4, 9, 16, 0, false, 64, 48, 16, 4, true},
    {"f16, rows of 4: 2 a word, in its row", gs::DataType::Float16, 6, 5, 4, 0, true, 64, 32, 4, 4, true},
    {"f16, 64 outputs at offset 36: 32-bit words", gs::DataType::Float16, 4, 9, 16, 0, false, 64, 36, 16, 4, true},
    {"i8, rows of 32: 4 a word, in its row", gs::DataType::Int8, 4, 7, 32, 0, false, 64, 64, 32, 4, true},
    {"i8, rows of 8: 4 a word, in its row", gs::DataType::Int8, 12, 9, 8, 0, false, 64, 32, 8, 4, true},
    {"i8, 128 outputs at offset 40: 32-bit words", gs::DataType::Int8, 4, 7, 32, 0, false, 64, 40, 32, 4, true},
    {"i8, 16 rows of 3 in 32-bit words", gs::DataType::Int8, 10, 0, 16, 3, true, 64, 32, 0, 4, false},
    {"i64, rows of 4: 2 a word, in its row", gs::DataType::Int64, 4, 5, 4, 0, true, 64, 32, 4, 16, true},
    {"f32, 96 outputs: 24 words, more than a window", gs::DataType::Float32, 8, 13, 12, 0, false, 64, 48, 12, 16, true},
    {"f32, 120 outputs: 30 words across rows of 5", gs::DataType::Float32, 24, 5, 5, 0, false, 64, 16, 5, 16, false},
    {"i64, rows of 3: words across rows", gs::DataType::Int64, 6, 5, 3, 0, false, 64, 32, 3, 16, false},
};

// GATHER_ELEMENTS along `axis` of an inputRows x inputCols input by indexRows x indexCols indices
// (Output dense; Indices too unless indexRowStride, its elements between rows, is set).
struct ElementGather {
  gs::DataType type;
  uint32_t inputRows, inputCols, indexRows, indexCols, axis;
  bool index64 = true;
  uint32_t indexRowStride = 0;
  uint32_t Count() const { return indexRows * indexCols; }
  uint32_t Bound() const { return axis == 0 ? inputRows : inputCols; }
  uint32_t IndexSize() const { return index64 ? 8 : 4; }
  uint64_t IndexAt(uint32_t i) const {  // byte offset of the i-th index in row-major order
    const uint64_t stride = indexRowStride != 0 ? indexRowStride : indexCols;
    return (i / indexCols * stride + i % indexCols) * IndexSize();
  }
  uint64_t InputBytes() const { return uint64_t{inputRows} * inputCols * gs::ElementSizeInBytes(type); }
  uint64_t IndexBytes() const { return IndexAt(Count() - 1) + IndexSize(); }
  uint64_t OutputBytes() const { return uint64_t{Count()} * gs::ElementSizeInBytes(type); }
  std::vector<uint8_t> Input() const {
    std::vector<uint8_t> bytes(InputBytes());
    for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<uint8_t>(i * 37 + (i >> 9) + 11);
    return bytes;
  }
  // In [-bound, bound), a third negative; where badAt < Count(), `bad` there. Bytes between
  // index rows hold 0xcd.
  std::vector<uint8_t> Indices(uint32_t badAt = ~0u, int64_t bad = 0) const {
    std::vector<uint8_t> bytes(IndexBytes(), 0xcd);
    const int64_t bound = Bound();
    for (uint32_t i = 0; i < Count(); ++i) {
      const int64_t index = i == badAt ? bad : (i * 7 + i / 5) % bound - (i % 3 == 0 ? bound : 0);
      std::memcpy(&bytes[IndexAt(i)], &index, IndexSize());  // little-endian: the low bytes
    }
    return bytes;
  }
  std::string Name() const {
    return std::to_string(gs::ElementSizeInBytes(type)) + "-byte elements, " + std::to_string(inputRows) + " x " +
           std::to_string(inputCols) + " by " + std::to_string(indexRows) + " x " + std::to_string(indexCols) +
           (index64 ? " int64" : " int32") + (indexRowStride != 0 ? " indices rows " + std::to_string(indexRowStride) + " apart" : "") +
           " along axis " + std::to_string(axis);
  }
  gs::CompiledOperator Compile() const {
    static uint32_t inputSizes[2], indexSizes[2], indexStrides[2];
    static gs::TensorDesc input, indices, output;
    inputSizes[0] = inputRows, inputSizes[1] = inputCols, indexSizes[0] = indexRows, indexSizes[1] = indexCols;
    indexStrides[0] = indexRowStride, indexStrides[1] = 1;
    input = {type, 2, inputSizes, nullptr, InputBytes()};
    indices = {index64 ? gs::DataType::Int64 : gs::DataType::Int32, 2, indexSizes,
               indexRowStride != 0 ? indexStrides : nullptr, IndexBytes()};
    output = {type, 2, indexSizes, nullptr, OutputBytes()};
    const gs::GatherElementsOperatorDesc desc{&input, &indices, &output, axis};
    gs::CompiledOperator op;
    const gs::Status status = gs::CompileOperator({gs::OperatorType::GatherElements, &desc}, &op);
    EXPECT_TRUE(status.ok()) << Name() << ": " << status.message();
    return op;
  }
};

// Gathers of at least kGpuLargeElements run groups of GS_LARGE_GROUP_THREADS; there Float32
// reads that may lie more than kGpuNearReadBytes apart (along axis 1: a row of inputCols) go a
// thread an element, 16 a thread, instead of 4 a 16-byte word. Smaller gathers keep the packing,
// and so do large ones whose words do not step the innermost dim (the large packed kernels
// assume it).
TEST(NarrowWords, LargeGathersRunLargeGroupsAndFarReadsAreNotPacked) {
  using gs::DataType;
  using gs::plan::GpuKernel;
  const uint32_t nearCols = gs::plan::kGpuNearReadBytes / 4 + 1;  // a row of 16385 floats: 64 KiB apart at most
  const uint32_t wide = gs::plan::kGpuLargeElements / 64;
  const struct {
    ElementGather gather;
    GpuKernel kernel;
    uint32_t threads, outputBytes;
  } cases[] = {
      {{DataType::Float32, 64, nearCols, 64, wide, 1}, GpuKernel::GatherPackedWideLargeQuads, 1u << 18, 16},
      {{DataType::Float32, 64, nearCols + 1, 64, wide, 1}, GpuKernel::GatherLarge, 1u << 20, 4},  // 4 bytes further
      {{DataType::Float32, 64, nearCols + 1, 63, wide, 1}, GpuKernel::GatherPackedWide, 63u << 12, 16},  // not large
      {{DataType::Float32, 4096, 256, 4096, 256, 0}, GpuKernel::GatherLarge, 1u << 20, 4},
      {{DataType::Float32, 4096, 256, 4096, 256, 1}, GpuKernel::GatherPackedWideLargeQuads, 1u << 18, 16},
      {{DataType::Float16, 4096, 256, 4096, 256, 0}, GpuKernel::GatherPackedLargeQuads, 1u << 19, 4},
      {{DataType::Int8, 4096, 256, 4096, 256, 1}, GpuKernel::GatherPackedLargeQuads, 1u << 18, 4},
      {{DataType::Int8, 4096, 258, 4096, 258, 1}, GpuKernel::GatherPacked, 258u << 10, 4},  // 258 % 4: no steps
  };
  for (const auto& c : cases) {
    const gs::CompiledOperator op = c.gather.Compile();
    ASSERT_NE(op.plan(), nullptr) << c.gather.Name();
    gs::plan::GpuSchedule s;
    ASSERT_EQ(gs::plan::ScheduleGpuPasses(*op.plan(), gs::plan::GpuOptions(), &s), "") << c.gather.Name();
    EXPECT_EQ(s.passes[0].kernel, c.kernel) << c.gather.Name();
    EXPECT_EQ(s.passes[0].threads, c.threads) << c.gather.Name();
    EXPECT_EQ(s.outputBytes, c.outputBytes) << c.gather.Name();
  }
  const gs::CompiledOperator nearest = cases[0].gather.Compile();
  EXPECT_EQ(gs::plan::IndexedReachBytes(*nearest.plan()), gs::plan::kGpuNearReadBytes);

  // Tuples of two components: GatherND pairs of 1-byte elements are packed by the kernel that
  // reads the tuple size from its constants.
  uint32_t inputSizes[] = {2048, 2048}, indexSizes[] = {1u << 20, 2}, outputSizes[] = {1, 1u << 20};
  const gs::TensorDesc input{DataType::Int8, 2, inputSizes, nullptr, 2048 * 2048};
  const gs::TensorDesc indices{DataType::Int64, 2, indexSizes, nullptr, uint64_t{16} << 20};
  const gs::TensorDesc output{DataType::Int8, 2, outputSizes, nullptr, 1u << 20};
  const gs::GatherNdOperatorDesc pairs{&input, &indices, &output, 2, 2};
  gs::CompiledOperator op;
  ASSERT_TRUE(gs::CompileOperator({gs::OperatorType::GatherNd, &pairs}, &op).ok());
  gs::plan::GpuSchedule s;
  ASSERT_EQ(gs::plan::ScheduleGpuPasses(*op.plan(), gs::plan::GpuOptions(), &s), "");
  EXPECT_EQ(op.plan()->walk.tupleSize, 2u);
  EXPECT_EQ(s.passes[0].kernel, GpuKernel::GatherPacked);
  EXPECT_EQ(s.passes[0].constants.stepsInnermost, 1u);

  // Units of three floats read far apart (an embedding of 12-byte rows): GatherLarge takes units
  // of one element only, so these stay packed, four floats a 16-byte word.
  uint32_t tableSizes[] = {100000, 3}, idSizes[] = {1, 400000}, rowsSizes[] = {400000, 3};
  const gs::TensorDesc table{DataType::Float32, 2, tableSizes, nullptr, 1200000};
  const gs::TensorDesc ids{DataType::Int64, 2, idSizes, nullptr, 3200000};
  const gs::TensorDesc rows{DataType::Float32, 2, rowsSizes, nullptr, 4800000};
  const gs::GatherOperatorDesc embedding{&table, &ids, &rows, 0, 1};
  ASSERT_TRUE(gs::CompileOperator({gs::OperatorType::Gather, &embedding}, &op).ok());
  ASSERT_EQ(gs::plan::ScheduleGpuPasses(*op.plan(), gs::plan::GpuOptions(), &s), "");
  EXPECT_EQ(s.walk.blockElements, 3u);
  EXPECT_EQ(s.passes[0].kernel, GpuKernel::GatherPackedWide);
  EXPECT_EQ(s.passes[0].threads, 300000u);
}

// The large packed kernels read a word's indices 16 bytes a load only where each word's indices
// start on 16 bytes (Indices' start, its rows' stride) and fill whole 16-byte words; elsewhere
// they keep their 32-bit loads, and smaller gathers their own kernels.
TEST(NarrowWords, LargePackedGathersReadIndicesInQuadsOnlyWhereTheirWordsAlign) {
  using gs::DataType;
  using gs::plan::GpuKernel;
  const struct {
    ElementGather gather;
    uint64_t indicesAt;
    GpuKernel kernel;
  } cases[] = {
      {{DataType::Int8, 4096, 256, 4096, 256, 1}, 0, GpuKernel::GatherPackedLargeQuads},
      {{DataType::Int8, 4096, 256, 4096, 256, 1}, 48, GpuKernel::GatherPackedLargeQuads},
      {{DataType::Int8, 4096, 256, 4096, 256, 1}, 8, GpuKernel::GatherPackedLarge},  // not on 16 bytes
      {{DataType::Int8, 4096, 256, 4096, 256, 1, false}, 0, GpuKernel::GatherPackedLargeQuads},
      {{DataType::Int8, 4096, 256, 4096, 256, 1, true, 260}, 0, GpuKernel::GatherPackedLargeQuads},  // 2080 bytes
      {{DataType::Int8, 4096, 256, 4096, 256, 1, true, 257}, 0, GpuKernel::GatherPackedLarge},       // 2056 bytes
      {{DataType::Int8, 4096, 256, 4096, 256, 1, false, 260}, 0, GpuKernel::GatherPackedLargeQuads},
      {{DataType::Int8, 4096, 256, 4096, 256, 1, false, 258}, 0, GpuKernel::GatherPackedLarge},
      {{DataType::Float16, 4096, 256, 4096, 256, 1}, 0, GpuKernel::GatherPackedLargeQuads},
      {{DataType::Float16, 4096, 256, 4096, 256, 1, false}, 0, GpuKernel::GatherPackedLarge},  // 8 bytes a word
      {{DataType::Float32, 4096, 256, 4096, 256, 1}, 0, GpuKernel::GatherPackedWideLargeQuads},
      {{DataType::Float32, 4096, 256, 4096, 256, 1, false}, 16, GpuKernel::GatherPackedWideLargeQuads},
      {{DataType::Float32, 4096, 256, 4096, 256, 1, false}, 4, GpuKernel::GatherPackedWideLarge},
      {{DataType::Int8, 4096, 256, 4095, 256, 1}, 0, GpuKernel::GatherPacked},  // not large
  };
  for (const auto& c : cases) {
    const gs::CompiledOperator op = c.gather.Compile();
    ASSERT_NE(op.plan(), nullptr) << c.gather.Name();
    gs::plan::GpuOptions options;
    options.offsets[static_cast<uint32_t>(gs::plan::TensorRole::Indices)] = c.indicesAt;
    gs::plan::GpuSchedule s;
    ASSERT_EQ(gs::plan::ScheduleGpuPasses(*op.plan(), options, &s), "") << c.gather.Name();
    const std::string name = c.gather.Name() + ", indices at " + std::to_string(c.indicesAt);
    EXPECT_EQ(s.passes[0].kernel, c.kernel) << name;
    EXPECT_EQ(s.indexQuads, c.kernel == GpuKernel::GatherPackedLargeQuads ||
                                c.kernel == GpuKernel::GatherPackedWideLargeQuads)
        << name;
  }
}

TEST(NarrowWords, ThePlanPacksOnlyDenseAlignedWholeWords) {
  for (const NarrowCase& c : kCases) {
    const gs::CompiledOperator op = c.Compile();
    uint64_t offsets[gs::plan::kTensorRoleCount] = {c.inputAt, kIndicesAt, 0, c.outputAt};
    EXPECT_EQ(gs::plan::GatherPackedWordBytes(*op.plan(), offsets), c.word) << c.name;
    gs::plan::GpuOptions options;
    for (uint32_t r = 0; r < gs::plan::kTensorRoleCount; ++r) options.offsets[r] = offsets[r];
    gs::plan::GpuSchedule s;
    ASSERT_EQ(gs::plan::ScheduleGpuPasses(*op.plan(), options, &s), "") << c.name;
    const uint32_t perWord = c.word / c.ElementBytes();
    const uint64_t elements = uint64_t{c.IndexCount()} * (c.rowsOf > 0 ? c.rowsOf : 1);
    const gs::plan::GpuKernel kernel = c.word == 16  ? gs::plan::GpuKernel::GatherPackedWide
                                       : c.word == 4 ? gs::plan::GpuKernel::GatherPacked
                                                     : gs::plan::GpuKernel::Gather;
    EXPECT_EQ(s.passes[0].kernel, kernel) << c.name;
    EXPECT_EQ(s.passes[0].threads, c.word != 0 ? elements / perWord : elements) << c.name;
    EXPECT_EQ(s.passes[0].constants.stepsInnermost, c.steps ? 1u : 0u) << c.name;
    EXPECT_EQ(s.outputBytes, c.word != 0 ? c.word : c.ElementBytes()) << c.name;
    EXPECT_EQ(s.elementBytes, c.ElementBytes()) << c.name;  // Input stays viewed by its elements
  }
}

class NarrowWordsOnGpu : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string why;
    engine_ = gs_gpu_test::SharedEngine(&why);
    ASSERT_NE(engine_, nullptr) << "no D3D12 device: " << why;
  }

  // Each case with the bad index at `bad(case)` (none when past the indices).
  template <typename Bad>
  void Sweep(gs::IndexChecking checking, uint64_t viewLimit, Bad bad) {
    for (const NarrowCase& c : kCases) {
      const std::vector<uint8_t> input = [&] {
        std::vector<uint8_t> bytes(c.InputBytes());
        for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<uint8_t>(i * 37 + 11);
        return bytes;
      }();
      const uint32_t at = bad(c);
      const std::vector<uint8_t> indices = Indices(c, at);
      const std::string name = std::string(c.name) + (at < c.IndexCount() ? ", bad index at " + std::to_string(at) : "");
      const Outcome cpu = OnCpu(c, input, indices, checking);
      Outcome gpu = OnGpu(engine_, c, input, indices, checking, viewLimit);
      EXPECT_EQ(gpu.status.code(), cpu.status.code()) << name << ": " << gpu.status.message();
      EXPECT_EQ(gpu.status.message(), cpu.status.message()) << name;
      ASSERT_EQ(gpu.outputBuffer.size(), kOutputBufferBytes) << name;
      if (!cpu.status.ok()) {
        // A failed gather may have written its output's view, and not one byte else.
        for (uint64_t i = 0; i < kOutputBufferBytes; ++i) {
          if (!InOutputView(c, i)) EXPECT_EQ(gpu.outputBuffer[i], 0xab) << name << ": byte " << i;
        }
        continue;
      }
      EXPECT_EQ(std::memcmp(gpu.outputBuffer.data(), cpu.outputBuffer.data(), kOutputBufferBytes), 0) << name;
    }
  }
  gs::D3D12Engine* engine_ = nullptr;
};

// The large kernels' bytes against the CPU engine's, sentinels around Output, with 64- and 32-bit
// indices, unchecked (with a bad index near the end or none) and checked with that bad index.
TEST_F(NarrowWordsOnGpu, LargeGathers) {
  using gs::DataType;
  const ElementGather gathers[] = {
      {DataType::Float32, 4096, 256, 4096, 256, 0},               // GatherLarge
      {DataType::Float32, 4096, 300, 4096, 256, 1},               // GatherPackedWideLargeQuads
      {DataType::Float32, 4096, 300, 4096, 256, 1, false},        // the same, 32-bit indices
      {DataType::Float16, 4096, 256, 4096, 256, 0},               // GatherPackedLargeQuads
      {DataType::Float16, 4096, 256, 4096, 256, 0, false},        // GatherPackedLarge
      {DataType::Int8, 4096, 256, 4096, 256, 1},                  // GatherPackedLargeQuads
      {DataType::Int8, 4096, 256, 4096, 256, 1, false},           // the same, 32-bit indices
      {DataType::Int8, 4096, 256, 4096, 256, 1, true, 260},       // GatherPackedLargeQuads: rows apart
      {DataType::Int8, 4096, 256, 4096, 256, 1, true, 257},       // GatherPackedLarge: rows off 16 bytes
      {DataType::Int8, 4096, 258, 4096, 258, 1}};                 // GatherPacked
  for (const ElementGather& g : gathers) {
    const int64_t bound = g.Bound();
    const std::vector<uint8_t> input = g.Input();
    // A bad index near the end: checked, the error (a failed gather may have written its view);
    // unchecked, zeros there.
    for (const int bad : {0, 1, 2}) {
      const std::vector<uint8_t> indices =
          bad == 0 ? g.Indices() : g.Indices(g.Count() - 3, bad == 1 ? bound : -bound - 1);
      const gs::IndexChecking checking = bad == 1 ? gs::IndexChecking::Checked : gs::IndexChecking::Unchecked;
      const std::string name = g.Name() + (bad == 1 ? ", checked, a bad index" : bad == 2 ? ", unchecked, a bad index" : "");
      const gs::CompiledOperator op = g.Compile();
      std::vector<uint8_t> cpu(g.OutputBytes() + 64, 0xab), gpu(g.OutputBytes() + 64, 0xab);
      gs::CpuExecuteOptions options;
      options.Checking = checking;
      const gs::Status cpuStatus = gs::ExecuteOnCpu(
          op, {{input.data(), input.size()}, {indices.data(), indices.size()}, {}, {cpu.data() + 32, g.OutputBytes()}},
          options);
      const gs::Status gpuStatus = engine_->ExecuteOnHost(
          op, {{input.data(), input.size()}, {indices.data(), indices.size()}, {}, {gpu.data() + 32, g.OutputBytes()}},
          checking);
      EXPECT_EQ(gpuStatus.code(), cpuStatus.code()) << name;
      EXPECT_EQ(gpuStatus.message(), cpuStatus.message()) << name;
      EXPECT_EQ(cpuStatus.ok(), bad != 1) << name;
      if (bad != 1) EXPECT_EQ(std::memcmp(gpu.data(), cpu.data(), gpu.size()), 0) << name;
    }
  }
}

// A large gather recorded on the caller's buffers, Indices 48 bytes (16-byte index loads) or 40
// bytes (32-bit ones) into the inputs buffer after Input, Output 16 bytes into its own: the bytes
// against the CPU engine's, sentinels around Output.
TEST_F(NarrowWordsOnGpu, LargeGathersOnTheCallersBuffers) {
  const ElementGather g{gs::DataType::Int8, 4096, 256, 4096, 256, 1};
  const std::vector<uint8_t> input = g.Input(), indices = g.Indices();
  const gs::CompiledOperator op = g.Compile();
  constexpr uint64_t kOutputAt = 16;
  const uint64_t outputBufferBytes = kOutputAt + g.OutputBytes() + 48;
  std::vector<uint8_t> cpu(outputBufferBytes, 0xab);
  gs::CpuExecuteOptions options;
  options.Checking = gs::IndexChecking::Checked;
  ASSERT_TRUE(gs::ExecuteOnCpu(op,
                               {{input.data(), input.size()},
                                {indices.data(), indices.size()},
                                {},
                                {&cpu[kOutputAt], g.OutputBytes()}},
                               options)
                  .ok());
  for (const uint64_t indicesAt : {input.size() + 48, input.size() + 40}) {
    std::vector<uint8_t> staging(indicesAt + indices.size() + outputBufferBytes, 0xab);
    std::memcpy(staging.data(), input.data(), input.size());
    std::memcpy(&staging[indicesAt], indices.data(), indices.size());
    std::vector<uint8_t> gpu;
    gs::Status status(gs::StatusCode::Internal, "not recorded");
    std::unique_ptr<gs::D3D12Recording> recording;
    gs_gpu_test::RunInCallersList(
        engine_->device(), staging, &gpu,
        [&](ID3D12GraphicsCommandList* list, ID3D12Resource* inputs, ID3D12Resource* outputs) {
          gs::D3D12Bindings bindings;
          bindings.InputTensor = {inputs, 0, input.size()};
          bindings.IndicesTensor = {inputs, indicesAt, indices.size()};
          bindings.OutputTensor = {outputs, kOutputAt, g.OutputBytes()};
          status = engine_->Record(op, list, bindings, gs::IndexChecking::Checked, &recording);
          return status.ok();
        },
        outputBufferBytes);
    if (recording != nullptr) status = recording->Result();
    const std::string name = g.Name() + ", indices at byte " + std::to_string(indicesAt);
    EXPECT_TRUE(status.ok()) << name << ": " << status.message();
    ASSERT_EQ(gpu.size(), cpu.size()) << name;
    EXPECT_EQ(std::memcmp(gpu.data(), cpu.data(), cpu.size()), 0) << name;
  }
}

uint32_t None(const NarrowCase& c) { return c.IndexCount(); }
uint32_t Early(const NarrowCase&) { return 1; }
uint32_t Late(const NarrowCase& c) { return c.IndexCount() - 1; }
constexpr uint64_t kOneView = gs::plan::kGpuViewElementLimit;

TEST_F(NarrowWordsOnGpu, Unchecked) { Sweep(gs::IndexChecking::Unchecked, kOneView, None); }
TEST_F(NarrowWordsOnGpu, Checked) { Sweep(gs::IndexChecking::Checked, kOneView, None); }
TEST_F(NarrowWordsOnGpu, Windowed) { Sweep(gs::IndexChecking::Checked, 16, None); }
TEST_F(NarrowWordsOnGpu, UncheckedBadIndexGivesZeros) { Sweep(gs::IndexChecking::Unchecked, kOneView, Early); }
TEST_F(NarrowWordsOnGpu, CheckedBadIndexEarly) { Sweep(gs::IndexChecking::Checked, kOneView, Early); }
TEST_F(NarrowWordsOnGpu, CheckedBadIndexLate) { Sweep(gs::IndexChecking::Checked, kOneView, Late); }
TEST_F(NarrowWordsOnGpu, WindowedCheckedBadIndexLate) { Sweep(gs::IndexChecking::Checked, 16, Late); }

}  // namespace
