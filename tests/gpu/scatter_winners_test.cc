// Overwrite scatters (reduction NONE) on the D3D12 path: each destination is claimed by its
// last update in row-major order (InterlockedMax) and only the claimed updates write. Many
// updates per destination, ScatterND rows and ScatterElements, every element size, in place
// and copy+scatter, through view windows; the bytes equal the CPU engine's and the independent
// reference's. A bad index in checked mode fails with the CPU's message and leaves the output
// as it was (all or nothing); unchecked, its update is dropped.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "gpu_test_environment.h"
#include "gs/gs.h"
#include "plan/gpu_dispatch.h"
#include "reference.h"

namespace {

enum class Binding { InPlace, CopyScatter };
constexpr uint8_t kSentinel = 0xcd;

// An operator, its desc (the reference reads it) and its host tensors (Output is Input's
// shape). Made in place by MakeRows or MakeElements, never copied: desc points into it.
struct Scatter {
  uint32_t inputSizes[2] = {}, updateSizes[2] = {}, indexSizes[2] = {};
  gs::TensorDesc input, indices, updates;
  gs::ScatterNdOperatorDesc nd;
  gs::ScatterElementsOperatorDesc elements;
  gs::OperatorDesc desc;
  gs::CompiledOperator op;
  std::vector<uint8_t> inputBytes, indexBytes, updateBytes;
  Scatter() = default;
  Scatter(const Scatter&) = delete;
};

struct Outcome {
  gs::Status status;
  std::vector<uint8_t> output;
};

// Runs on the CPU engine or the D3D12 path. In place, Output is Input's buffer (a copy of the
// case's input); otherwise Output starts as sentinels.
Outcome Execute(bool gpu, const Scatter& s, Binding binding, gs::IndexChecking checking, uint64_t viewLimit) {
  Outcome out;
  std::vector<uint8_t> input = s.inputBytes;
  out.output = binding == Binding::InPlace ? s.inputBytes : std::vector<uint8_t>(s.inputBytes.size(), kSentinel);
  gs::TensorBindings b;
  b.InputTensor = {binding == Binding::InPlace ? out.output.data() : input.data(), input.size()};
  b.IndicesTensor = {s.indexBytes.data(), s.indexBytes.size()};
  b.UpdatesTensor = {s.updateBytes.data(), s.updateBytes.size()};
  b.OutputTensor = {out.output.data(), out.output.size()};
  if (!gpu) {
    gs::CpuExecuteOptions options;
    options.Checking = checking;
    out.status = gs::ExecuteOnCpu(s.op, b, options);
    return out;
  }
  std::string why;
  gs::D3D12Engine* engine = gs_gpu_test::SharedEngine(&why);
  if (engine == nullptr) {
    out.status = gs::Status(gs::StatusCode::Unsupported, why);
    return out;
  }
  EXPECT_TRUE(engine->SetViewElementLimit(viewLimit).ok());
  out.status = engine->ExecuteOnHost(s.op, b, checking);
  EXPECT_TRUE(engine->SetViewElementLimit(gs::plan::kGpuViewElementLimit).ok());
  return out;
}

// The D3D12 path against the CPU engine and the reference, byte for byte, for both bindings.
// windowed: the engine's view limit lowered to the smallest the case fits, so that Output and
// its claim words span several windows. Bad indices: the same status on both engines, and the
// output as it was before the call.
void CheckBothBindings(const Scatter& s, gs::IndexChecking checking, bool windowed, const std::string& what) {
  const uint64_t viewLimit = windowed ? gs::plan::SmallestGpuViewLimit(*s.op.plan()) : gs::plan::kGpuViewElementLimit;
  if (windowed) {
    gs::plan::GpuSchedule schedule;
    gs::plan::GpuOptions options;
    options.viewElementLimit = viewLimit;
    ASSERT_EQ(gs::plan::ScheduleGpuPasses(*s.op.plan(), options, &schedule), "");
    ASSERT_TRUE(schedule.windowed) << what;
  }
  std::vector<uint8_t> expected(s.inputBytes.size(), kSentinel);
  std::string referenceError;
  const bool referenceOk = gs_reference::RunReference(
      s.desc, {s.inputBytes.data(), s.indexBytes.data(), s.updateBytes.data(), expected.data()}, checking, &referenceError);
  for (const Binding binding : {Binding::InPlace, Binding::CopyScatter}) {
    const std::string where = what + (binding == Binding::InPlace ? " in place" : " copy+scatter") +
                              (windowed ? " windowed" : "");
    const Outcome cpu = Execute(false, s, binding, checking, viewLimit);
    const Outcome gpu = Execute(true, s, binding, checking, viewLimit);
    EXPECT_EQ(gpu.status.code(), cpu.status.code()) << where << ": " << gpu.status.message();
    EXPECT_EQ(gpu.status.message(), cpu.status.message()) << where;
    if (referenceOk) {
      ASSERT_TRUE(cpu.status.ok()) << where << ": " << cpu.status.message();
      EXPECT_EQ(std::memcmp(cpu.output.data(), expected.data(), expected.size()), 0)
          << where << ": the CPU engine differs from the reference";
      EXPECT_EQ(std::memcmp(gpu.output.data(), expected.data(), expected.size()), 0)
          << where << ": the D3D12 path differs from the reference";
      continue;
    }
    EXPECT_EQ(gpu.status.code(), gs::StatusCode::InvalidArgument) << where;
    const std::vector<uint8_t> untouched =
        binding == Binding::InPlace ? s.inputBytes : std::vector<uint8_t>(s.inputBytes.size(), kSentinel);
    EXPECT_TRUE(cpu.output == untouched) << where << ": the failed CPU scatter wrote its output";
    EXPECT_TRUE(gpu.output == untouched) << where << ": the failed D3D12 scatter wrote its output";
  }
}

// Element bytes of a value made from a position (any pattern that differs per update).
void Fill(std::vector<uint8_t>* bytes, uint32_t salt) {
  for (size_t i = 0; i < bytes->size(); ++i) (*bytes)[i] = static_cast<uint8_t>((i * 2654435761u + salt) >> 13);
}

gs::DataType TypeOfSize(uint32_t bytes) {
  switch (bytes) {
    case 1: return gs::DataType::UInt8;
    case 2: return gs::DataType::Float16;
    case 4: return gs::DataType::Float32;
    default: return gs::DataType::Int64;
  }
}

// ScatterND of rows: Input {rows, width}, INT64 indices {count, 1}, Updates {count, width};
// update u goes to row (u * 7) % rows, counted from the end on odd u (negative indices).
void MakeRows(uint32_t elementBytes, uint32_t rows, uint32_t width, uint32_t count, Scatter* s) {
  s->inputSizes[0] = rows, s->inputSizes[1] = width;
  s->indexSizes[0] = count, s->indexSizes[1] = 1;
  s->updateSizes[0] = count, s->updateSizes[1] = width;
  const gs::DataType type = TypeOfSize(elementBytes);
  s->input = {type, 2, s->inputSizes, nullptr, uint64_t{rows} * width * elementBytes};
  s->indices = {gs::DataType::Int64, 2, s->indexSizes, nullptr, count * 8ull};
  s->updates = {type, 2, s->updateSizes, nullptr, uint64_t{count} * width * elementBytes};
  s->nd = {&s->input, &s->indices, &s->updates, &s->input, 2, 2, gs::Reduction::None};
  s->desc = {gs::OperatorType::ScatterNd, &s->nd};
  ASSERT_TRUE(gs::CompileOperator(s->desc, &s->op).ok());
  s->inputBytes.resize(s->input.TotalTensorSizeInBytes);
  s->updateBytes.resize(s->updates.TotalTensorSizeInBytes);
  Fill(&s->inputBytes, 1);
  Fill(&s->updateBytes, 2);
  std::vector<int64_t> index(count);
  for (uint32_t u = 0; u < count; ++u) index[u] = int64_t{(u * 7) % rows} - (u % 2 ? rows : 0);
  s->indexBytes.resize(count * 8);
  std::memcpy(s->indexBytes.data(), index.data(), s->indexBytes.size());
}

// ScatterElements on axis 1: Input {4, width}, INT32 indices and Updates {4, count}; update
// (i, j) goes to column (j * 5 + i) % width.
void MakeElements(uint32_t elementBytes, uint32_t width, uint32_t count, Scatter* s) {
  s->inputSizes[0] = 4, s->inputSizes[1] = width;
  s->updateSizes[0] = 4, s->updateSizes[1] = count;
  const gs::DataType type = TypeOfSize(elementBytes);
  s->input = {type, 2, s->inputSizes, nullptr, 4ull * width * elementBytes};
  s->indices = {gs::DataType::Int32, 2, s->updateSizes, nullptr, 4ull * count * 4};
  s->updates = {type, 2, s->updateSizes, nullptr, 4ull * count * elementBytes};
  s->elements = {&s->input, &s->indices, &s->updates, &s->input, 1, gs::Reduction::None};
  s->desc = {gs::OperatorType::ScatterElements, &s->elements};
  ASSERT_TRUE(gs::CompileOperator(s->desc, &s->op).ok());
  s->inputBytes.resize(s->input.TotalTensorSizeInBytes);
  s->updateBytes.resize(s->updates.TotalTensorSizeInBytes);
  Fill(&s->inputBytes, 3);
  Fill(&s->updateBytes, 4);
  std::vector<int32_t> index(4 * count);
  for (uint32_t i = 0; i < 4; ++i) {
    for (uint32_t j = 0; j < count; ++j) index[i * count + j] = static_cast<int32_t>((j * 5 + i) % width);
  }
  s->indexBytes.resize(index.size() * 4);
  std::memcpy(s->indexBytes.data(), index.data(), s->indexBytes.size());
}

// ScatterElements along axis 0: Input {rows, columns}, INT32 indices and Updates {count,
// columns}, the reduction given; update (u, c) goes to row ((u / 2) * 7 + c * 3) % rows,
// counted from the end on odd u: updates 2k and 2k + 1 of a line (column) land on one row, and
// a long line comes back to each of its rows.
void MakeLines(uint32_t elementBytes, uint32_t rows, uint32_t columns, uint32_t count, gs::Reduction reduction,
               Scatter* s) {
  s->inputSizes[0] = rows, s->inputSizes[1] = columns;
  s->updateSizes[0] = count, s->updateSizes[1] = columns;
  const gs::DataType type = TypeOfSize(elementBytes);
  s->input = {type, 2, s->inputSizes, nullptr, uint64_t{rows} * columns * elementBytes};
  s->indices = {gs::DataType::Int32, 2, s->updateSizes, nullptr, uint64_t{count} * columns * 4};
  s->updates = {type, 2, s->updateSizes, nullptr, uint64_t{count} * columns * elementBytes};
  s->elements = {&s->input, &s->indices, &s->updates, &s->input, 0, reduction};
  s->desc = {gs::OperatorType::ScatterElements, &s->elements};
  ASSERT_TRUE(gs::CompileOperator(s->desc, &s->op).ok());
  s->inputBytes.resize(s->input.TotalTensorSizeInBytes);
  s->updateBytes.resize(s->updates.TotalTensorSizeInBytes);
  Fill(&s->inputBytes, 5);
  Fill(&s->updateBytes, 6);
  std::vector<int32_t> index(uint64_t{count} * columns);
  for (uint32_t u = 0; u < count; ++u) {
    for (uint32_t c = 0; c < columns; ++c) {
      const int32_t row = static_cast<int32_t>(((u / 2) * 7 + c * 3) % rows);
      index[uint64_t{u} * columns + c] = u % 2 ? row - static_cast<int32_t>(rows) : row;
    }
  }
  s->indexBytes.resize(index.size() * 4);
  std::memcpy(s->indexBytes.data(), index.data(), s->indexBytes.size());
}

// Writes an INT64 (rows) or INT32 (elements) index value at a flat position.
void SetIndex(Scatter* s, uint32_t position, int64_t value) {
  if (s->desc.Type == gs::OperatorType::ScatterNd) {
    std::memcpy(s->indexBytes.data() + position * 8, &value, 8);
  } else {
    const int32_t narrow = static_cast<int32_t>(value);
    std::memcpy(s->indexBytes.data() + position * 4, &narrow, 4);
  }
}

// 500 rows of 48 onto 37 rows: 13 or 14 updates per row, the last one wins.
TEST(ScatterWinners, RowsLastUpdateWins) {
  for (const uint32_t bytes : {1u, 2u, 4u, 8u}) {
    Scatter s;
    MakeRows(bytes, 37, 48, 500, &s);
    CheckBothBindings(s, gs::IndexChecking::Checked, false, "rows of " + std::to_string(bytes) + "-byte elements");
  }
}

// 4 x 300 updates onto 4 x 50 elements: 6 per element.
TEST(ScatterWinners, ElementsLastUpdateWins) {
  for (const uint32_t bytes : {1u, 2u, 4u, 8u}) {
    Scatter s;
    MakeElements(bytes, 50, 300, &s);
    CheckBothBindings(s, gs::IndexChecking::Unchecked, false, "elements of " + std::to_string(bytes) + " bytes");
  }
}

// Output and its claim words across several view windows; few updates into a larger output,
// so that only the claimed words are cleared and nothing else is written.
TEST(ScatterWinners, AcrossViewWindows) {
  for (const uint32_t bytes : {1u, 4u, 8u}) {
    Scatter rows, elements;
    MakeRows(bytes, 400, 64, 150, &rows);
    CheckBothBindings(rows, gs::IndexChecking::Checked, true, "rows of " + std::to_string(bytes) + " bytes");
    MakeElements(bytes, 3000, 700, &elements);
    CheckBothBindings(elements, gs::IndexChecking::Checked, true, "elements of " + std::to_string(bytes) + " bytes");
  }
}

// Checked: two bad indices; the first in row-major order is reported with the CPU's message
// and the host output is left as it was, in place too (record_test.cc's
// Record.InPlaceScatterOnTheCallersBufferIsAllOrNothing checks the GPU buffer itself).
// Unchecked: their updates are dropped.
TEST(ScatterWinners, BadIndexChecked) {
  for (const bool windowed : {false, true}) {
    Scatter rows, elements;
    MakeRows(4, 37, 48, 500, &rows);
    SetIndex(&rows, 301, 37);
    SetIndex(&rows, 123, -38);
    CheckBothBindings(rows, gs::IndexChecking::Checked, windowed, "rows, bad index");
    CheckBothBindings(rows, gs::IndexChecking::Unchecked, windowed, "rows, bad index unchecked");
    MakeElements(2, 50, 300, &elements);
    SetIndex(&elements, 777, 50);
    SetIndex(&elements, 900, -51);
    CheckBothBindings(elements, gs::IndexChecking::Checked, windowed, "elements, bad index");
    CheckBothBindings(elements, gs::IndexChecking::Unchecked, windowed, "elements, bad index unchecked");
  }
  // The message itself, as the CPU words it (the comparison above holds it equal on the GPU).
  Scatter rows;
  MakeRows(4, 37, 48, 500, &rows);
  SetIndex(&rows, 301, 37);
  SetIndex(&rows, 123, -38);
  const Outcome gpu = Execute(true, rows, Binding::InPlace, gs::IndexChecking::Checked, gs::plan::kGpuViewElementLimit);
  EXPECT_EQ(gpu.status.code(), gs::StatusCode::InvalidArgument);
  for (const char* part : {"IndicesTensor", "123", "-38"}) {
    EXPECT_NE(gpu.status.message().find(part), std::string::npos) << gpu.status.message();
  }
}

// A validation of up to kGpuSelfReportingValidationThreads threads (a scatter's thread takes
// kGpuScatterValidationElementsPerThread indices) reports the first bad one's value from its last
// group to finish, a longer one has a pass after it that does: both give the CPU's error, with
// bad indices in many groups and in each of a thread's positions.
TEST(ScatterWinners, BadIndexCheckedWhereTheValidationReportsAndWhereAPassDoes) {
  const uint32_t share = gs::plan::kGpuScatterValidationElementsPerThread;
  const uint32_t most = static_cast<uint32_t>(gs::plan::kGpuSelfReportingValidationThreads) * share;
  for (const uint32_t count : {most, most + 100}) {
    const std::string what = std::to_string(count) + " rows";
    Scatter rows;
    MakeRows(4, 37, 2, count, &rows);
    gs::plan::GpuSchedule schedule;
    ASSERT_EQ(gs::plan::ScheduleGpuPasses(*rows.op.plan(), {}, &schedule), "");
    ASSERT_EQ(schedule.passes[0].kernel, gs::plan::GpuKernel::Validate) << what;
    EXPECT_EQ(schedule.passes[0].threads, (count + share - 1) / share) << what;
    EXPECT_EQ(schedule.passes[0].constants.reportsBadIndex, count == most ? 1u : 0u) << what;
    EXPECT_EQ(schedule.passes[1].kernel == gs::plan::GpuKernel::ReportBadIndex, count != most) << what;
    CheckBothBindings(rows, gs::IndexChecking::Checked, false, what);
    // Thread t validates positions t, t + threads, ...: the first bad one is in a thread's
    // second position, with later ones in the third and fourth, and in the first position of
    // threads after it.
    const uint32_t threads = schedule.passes[0].threads;
    SetIndex(&rows, count - 1, 38);
    SetIndex(&rows, 2 * threads + 3, -39);
    SetIndex(&rows, threads + 70, 37);
    SetIndex(&rows, threads + 70 + GS_THREADS_PER_GROUP, -40);
    CheckBothBindings(rows, gs::IndexChecking::Checked, false, what + ", bad indices");
  }
}

// Claims cleared only where units target them (an Output of many more claim words than 4 a
// unit): checked, the validation's pass clears them (scatter_validate_clear_claims.hlsl), with
// its last group reporting (500 indices) or a pass after it (70000). Bad indices in several
// groups, the first one in row-major order reported; clean runs write as the CPU does.
TEST(ScatterWinners, TheValidationClearsTheTargetedClaims) {
  struct ClaimsCase {
    uint32_t rows, width, count;
  };
  for (const ClaimsCase c : {ClaimsCase{4096, 48, 500}, ClaimsCase{300000, 2, 70000}}) {
    const std::string what = std::to_string(c.count) + " rows into " + std::to_string(c.rows);
    Scatter rows;
    MakeRows(4, c.rows, c.width, c.count, &rows);
    gs::plan::GpuSchedule schedule;
    ASSERT_EQ(gs::plan::ScheduleGpuPasses(*rows.op.plan(), {}, &schedule), "");
    ASSERT_EQ(schedule.passes[0].kernel, gs::plan::GpuKernel::ScatterValidateClearClaims) << what;
    for (const bool windowed : {false, true}) CheckBothBindings(rows, gs::IndexChecking::Checked, windowed, what);
    SetIndex(&rows, c.count - 1, c.rows);
    SetIndex(&rows, 301, -static_cast<int64_t>(c.rows) - 1);
    SetIndex(&rows, 123 + GS_THREADS_PER_GROUP, c.rows + 5);
    CheckBothBindings(rows, gs::IndexChecking::Checked, false, what + ", bad indices");
  }
}

// Element overwrites by lines: a thread per column walks its updates in order
// (scatter_lines.hlsl), or a group per column a chunk of 64 at a time (scatter_line_groups.hlsl).
// Many lines (2048 columns of 100 updates: a group each; updates 2k and 2k + 1 land on one row,
// in one chunk, and update u and u + 74 too, across chunks) and a few short ones (5 columns of
// 64: a thread each), every element size, in one view and in windows; then bad indices, checked
// and dropped. Reductions keep their lists.
TEST(ScatterLines, EachLineInRowMajorOrder) {
  struct LinesCase {
    uint32_t columns, count;
  };
  for (const LinesCase c : {LinesCase{2048, 100}, LinesCase{5, 64}}) {
    for (const uint32_t bytes : {1u, 2u, 4u, 8u}) {
      const std::string what = std::to_string(c.columns) + " lines of " + std::to_string(c.count) + ", " +
                               std::to_string(bytes) + "-byte elements";
      Scatter s;
      MakeLines(bytes, 37, c.columns, c.count, gs::Reduction::None, &s);
      gs::plan::GpuSchedule schedule;
      ASSERT_EQ(gs::plan::ScheduleGpuPasses(*s.op.plan(), {}, &schedule), "");
      // Lines longer than short ones take a group each.
      const bool groups = c.count > gs::plan::kGpuShortScatterLine;
      ASSERT_EQ(schedule.passes[schedule.passCount - 1].kernel,
                groups ? gs::plan::GpuKernel::ScatterLineGroups : gs::plan::GpuKernel::ScatterLines)
          << what;
      EXPECT_EQ(schedule.passes[schedule.passCount - 1].threads,
                groups ? c.columns * gs::plan::kGpuThreadsPerGroup : c.columns)
          << what;
      for (const bool windowed : {false, true}) CheckBothBindings(s, gs::IndexChecking::Checked, windowed, what);
    }
  }
  // 2048 lines of 600 (at least kGpuLargeElements updates): a group of GS_LARGE_GROUP_THREADS
  // a line, three chunks each (scatter_line_groups_large.hlsl).
  for (const uint32_t bytes : {1u, 4u}) {
    const std::string what = "2048 lines of 600, " + std::to_string(bytes) + "-byte elements";
    Scatter s;
    MakeLines(bytes, 37, 2048, 600, gs::Reduction::None, &s);
    gs::plan::GpuSchedule schedule;
    ASSERT_EQ(gs::plan::ScheduleGpuPasses(*s.op.plan(), {}, &schedule), "");
    ASSERT_EQ(schedule.passes[schedule.passCount - 1].kernel, gs::plan::GpuKernel::ScatterLineGroupsLarge) << what;
    EXPECT_EQ(schedule.passes[schedule.passCount - 1].threads, 2048u * GS_LARGE_GROUP_THREADS) << what;
    CheckBothBindings(s, gs::IndexChecking::Checked, false, what);
  }
  Scatter reduction;
  MakeLines(4, 37, 2048, 100, gs::Reduction::Add, &reduction);
  gs::plan::GpuSchedule schedule;
  ASSERT_EQ(gs::plan::ScheduleGpuPasses(*reduction.op.plan(), {}, &schedule), "");
  EXPECT_EQ(schedule.passes[schedule.passCount - 1].kernel, gs::plan::GpuKernel::ScatterCombine);
  Scatter s;
  MakeLines(4, 37, 2048, 100, gs::Reduction::None, &s);
  SetIndex(&s, 5000, 37);
  SetIndex(&s, 150000, -38);
  for (const gs::IndexChecking checking : {gs::IndexChecking::Checked, gs::IndexChecking::Unchecked}) {
    CheckBothBindings(s, checking, false, "lines, bad indices");
  }
}

// Rows in every word the plan picks (plan/gpu_dispatch.cc, ScatterWordBytes): the claims per
// destination word, the copy and the winners in words; with and without view windows, and
// checked and unchecked with bad indices. Widths that hold no word run on their elements.
TEST(ScatterWinners, RowsInWords) {
  struct RowsCase {
    uint32_t bytes, width, word;
  };
  const RowsCase cases[] = {{4, 48, 16}, {4, 6, 8}, {4, 3, 4},  {1, 4, 4},  {1, 8, 8}, {1, 32, 16}, {2, 4, 8},
                            {2, 2, 4},   {2, 24, 16}, {8, 3, 8}, {8, 2, 16}, {1, 3, 1}, {2, 3, 2}};
  const uint64_t atTheStart[gs::plan::kTensorRoleCount] = {};
  for (const RowsCase& c : cases) {
    const std::string what = std::to_string(c.width) + " elements of " + std::to_string(c.bytes) + " bytes";
    for (const bool windowed : {false, true}) {
      Scatter s;
      MakeRows(c.bytes, 37, c.width, 500, &s);
      ASSERT_EQ(gs::plan::GatherWordBytes(*s.op.plan(), atTheStart), c.word) << what;
      CheckBothBindings(s, gs::IndexChecking::Checked, windowed, "rows of " + what);
      SetIndex(&s, 301, 37);
      SetIndex(&s, 123, -38);
      CheckBothBindings(s, gs::IndexChecking::Checked, windowed, "rows of " + what + ", bad index");
      CheckBothBindings(s, gs::IndexChecking::Unchecked, windowed, "rows of " + what + ", bad index unchecked");
    }
  }
}

// The claim walks nothing: far more updates on one element than a reduction's list walk takes
// (kGpuMaxUpdatesPerElement) run, and the last one wins.
TEST(ScatterWinners, NoLimitOnUpdatesPerElement) {
  Scatter s;
  MakeElements(4, 2, 3 * gs::plan::kGpuMaxUpdatesPerElement, &s);
  CheckBothBindings(s, gs::IndexChecking::Checked, false, "elements onto 2 columns");
}

}  // namespace
