// Parallel scatters large enough for a team (256 KiB of updates or more), ScatterND rows:
// whether the rows land on distinct outputs (any order will do) or some repeat (the last in
// row-major order wins), 1 and 2 threads give the bytes of an in-order loop written here,
// in place and into a copy, checked and unchecked. On 2 threads the plan's entry counts the
// destinations first and decides by what it found, the one choice made from index values:
// the test checks that decision as well as the bytes, with repeats inside one counting lane,
// across two, and in a table so sparse that the lanes share one bitmap. Then float additions along the last
// axis, each line's fold split from the others across the threads, and along axis 0 on rows
// too narrow for more than one strip, whose strips are halved for two threads: the bytes of
// the same in-order loop, whose sums depend on the order; and along axis 0 on halves. Last,
// axis-0 strips into a copy: packed from the Input where they are the whole Output (overwrites
// and additions, checked and unchecked), after the copy where they are not (narrower indices,
// another layout, one slab of two), and nothing written when an index is bad; and the same
// with the indices narrowed first (the avx512 and avx2 sets, indices past the cache).
#include <gtest/gtest.h>

#include <cstring>
#include <numeric>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "cpu/implementations.h"
#include "cpu/kernel_set.h"
#include "cpu/machine.h"
#include "cpu/row_walk.h"
#include "fp16.h"
#include "gs/gs.h"
#include "plan/plan.h"

namespace {

constexpr uint32_t kTableRows = 4096, kRowElements = 64, kUpdateRows = 2048;  // 512 KiB of updates

using gs::cpu::Destinations;
using gs::plan::CpuImplementation;

struct Scatter {
  std::vector<int64_t> indices;  // one row index per update row; negative ones count from the end
  std::string label;
  Destinations destinations;     // what counting them must find
};

// Distinct rows (some named from the end), then the same with repeats and, unchecked, rows out
// of bounds (skipped).
std::vector<Scatter> Scatters() {
  std::mt19937_64 rng(7);
  std::vector<int64_t> rows(kTableRows);
  std::iota(rows.begin(), rows.end(), 0);
  std::shuffle(rows.begin(), rows.end(), rng);
  Scatter distinct{{rows.begin(), rows.begin() + kUpdateRows}, "distinct rows", Destinations::Distinct};
  for (uint32_t j = 0; j < kUpdateRows; j += 5) distinct.indices[j] -= kTableRows;
  Scatter repeated = distinct;
  repeated.label = "repeated rows";
  repeated.destinations = Destinations::Repeated;
  for (uint32_t j = 1; j < kUpdateRows; j += 97) repeated.indices[j] = repeated.indices[rng() % j];
  Scatter outOfBounds = distinct;
  outOfBounds.label = "rows out of bounds";
  for (uint32_t j = 3; j < kUpdateRows; j += 101) outOfBounds.indices[j] = kTableRows + j;
  return {distinct, repeated, outOfBounds};
}

// A ScatterND of rows of 64 floats (int64 indices, one per row of updates) into a table,
// compiled (the descs point into it: not copied).
struct RowsScatter {
  uint32_t tableSizes[2], indexSizes[2], updateSizes[2];
  uint64_t tableBytes, updateBytes;
  gs::TensorDesc table, indexDesc, updateDesc;
  gs::ScatterNdOperatorDesc desc;
  gs::CompiledOperator op;
  gs::Status compiled;

  RowsScatter(uint32_t tableRows, uint32_t updateRows)
      : tableSizes{tableRows, kRowElements},
        indexSizes{updateRows, 1},
        updateSizes{updateRows, kRowElements},
        tableBytes(uint64_t{tableRows} * kRowElements * 4),
        updateBytes(uint64_t{updateRows} * kRowElements * 4),
        table{gs::DataType::Float32, 2, tableSizes, nullptr, tableBytes},
        indexDesc{gs::DataType::Int64, 2, indexSizes, nullptr, uint64_t{updateRows} * 8},
        updateDesc{gs::DataType::Float32, 2, updateSizes, nullptr, updateBytes},
        desc{&table, &indexDesc, &updateDesc, &table, 2, 2, gs::Reduction::None},
        compiled(gs::CompileOperator({gs::OperatorType::ScatterNd, &desc}, &op)) {}
};

TEST(ParallelScatter, RowsMatchAnInOrderLoop) {
  const RowsScatter scatter(kTableRows, kUpdateRows);
  ASSERT_TRUE(scatter.compiled.ok());
  const gs::CompiledOperator& op = scatter.op;
  const uint64_t tableBytes = scatter.tableBytes, updateBytes = scatter.updateBytes;
  ASSERT_EQ(op.plan()->cpu.oneThread, CpuImplementation::ScatterUnits);
  ASSERT_EQ(op.plan()->cpu.manyThreads, CpuImplementation::ScatterUnitsByDestination);

  std::vector<float> input(uint64_t{kTableRows} * kRowElements), updates(uint64_t{kUpdateRows} * kRowElements);
  for (size_t i = 0; i < input.size(); ++i) input[i] = static_cast<float>(i);
  for (size_t i = 0; i < updates.size(); ++i) updates[i] = -static_cast<float>(i) - 1;
  for (const Scatter& s : Scatters()) {
    std::vector<float> expected = input;
    bool inBounds = true;
    for (uint32_t j = 0; j < kUpdateRows; ++j) {
      const int64_t row = s.indices[j] < 0 ? s.indices[j] + kTableRows : s.indices[j];
      if (row < 0 || row >= kTableRows) {
        inBounds = false;
        continue;
      }
      std::memcpy(&expected[row * kRowElements], &updates[uint64_t{j} * kRowElements], kRowElements * 4);
    }
    for (const int threads : {1, 2}) {
      for (const bool checked : {false, true}) {
        for (const bool inPlace : {false, true}) {
          std::vector<float> output = inPlace ? input : std::vector<float>(input.size(), 7.0f);
          gs::CpuExecuteOptions options;
          options.ThreadCount = threads;
          options.Checking = checked ? gs::IndexChecking::Checked : gs::IndexChecking::Unchecked;
          const gs::Status status = gs::ExecuteOnCpu(
              op, {{inPlace ? output.data() : input.data(), tableBytes}, {s.indices.data(), uint64_t{kUpdateRows} * 8},
                   {updates.data(), updateBytes}, {output.data(), tableBytes}},
              options);
          const std::string where = s.label + ", threads " + std::to_string(threads) + (checked ? ", checked" : "") +
                                    (inPlace ? ", in place" : "");
          const gs::cpu::ImplementationRun ran = gs::cpu::LastImplementationRun();
          EXPECT_EQ(ran.implementation, threads == 1 ? CpuImplementation::ScatterUnits
                                                     : CpuImplementation::ScatterUnitsByDestination)
              << where << ": ran " << gs::plan::CpuImplementationName(ran.implementation);
          EXPECT_EQ(ran.destinations, threads == 1 ? Destinations::NotCounted : s.destinations) << where;
          if (checked && !inBounds) {
            // Scatters are all or nothing: refused, the output as it was.
            EXPECT_FALSE(status.ok()) << where;
            EXPECT_TRUE(output == (inPlace ? input : std::vector<float>(input.size(), 7.0f))) << where;
            continue;
          }
          ASSERT_TRUE(status.ok()) << where << ": " << status.message();
          EXPECT_TRUE(std::memcmp(output.data(), expected.data(), tableBytes) == 0) << where;
        }
      }
    }
  }
}

// In-place ScatterND rows of 64 floats into a table of `tableRows`, on 2 threads: what
// counting the destinations found, and whether the bytes are an in-order loop's.
void ExpectRowsCounted(uint32_t tableRows, const std::vector<int64_t>& indices, Destinations expected,
                       const std::string& where) {
  const uint32_t updateRows = static_cast<uint32_t>(indices.size());
  const RowsScatter scatter(tableRows, updateRows);
  ASSERT_TRUE(scatter.compiled.ok()) << where;
  const uint64_t tableBytes = scatter.tableBytes, updateBytes = scatter.updateBytes;
  std::vector<float> output(uint64_t{tableRows} * kRowElements), updates(uint64_t{updateRows} * kRowElements);
  for (size_t i = 0; i < output.size(); ++i) output[i] = static_cast<float>(i);
  for (size_t i = 0; i < updates.size(); ++i) updates[i] = -static_cast<float>(i) - 1;
  std::vector<float> expectedBytes = output;
  for (uint32_t j = 0; j < updateRows; ++j) {
    std::memcpy(&expectedBytes[indices[j] * kRowElements], &updates[uint64_t{j} * kRowElements], kRowElements * 4);
  }
  gs::CpuExecuteOptions options;
  options.ThreadCount = 2;
  ASSERT_TRUE(gs::ExecuteOnCpu(scatter.op, {{output.data(), tableBytes}, {indices.data(), uint64_t{updateRows} * 8},
                                    {updates.data(), updateBytes}, {output.data(), tableBytes}},
                               options)
                  .ok())
      << where;
  const gs::cpu::ImplementationRun ran = gs::cpu::LastImplementationRun();
  ASSERT_EQ(ran.implementation, CpuImplementation::ScatterUnitsByDestination) << where;
  EXPECT_EQ(ran.destinations, expected) << where;
  EXPECT_TRUE(std::memcmp(output.data(), expectedBytes.data(), tableBytes) == 0) << where;
}

// The count splits the units into one lane per thread, each with a bitmap of its own unless
// the table is so much larger than the updates that the lanes share one: a repeat is found
// inside one lane, across two, and in a shared bitmap.
TEST(ParallelScatter, RepeatedRowsAreFoundInALaneAcrossLanesAndInASparseTable) {
  for (const uint32_t tableRows : {kTableRows, 20 * kTableRows}) {  // 20: one bitmap, not two, fits the units
    const std::string table = tableRows == kTableRows ? "a table of a bitmap per lane" : "a sparse table";
    std::vector<int64_t> rows(tableRows);
    std::iota(rows.begin(), rows.end(), 0);
    std::shuffle(rows.begin(), rows.end(), std::mt19937_64(11));
    const std::vector<int64_t> distinct(rows.begin(), rows.begin() + kUpdateRows);
    ExpectRowsCounted(tableRows, distinct, Destinations::Distinct, table + ", distinct rows");
    std::vector<int64_t> inOneLane = distinct;
    inOneLane[kUpdateRows / 4 + 1] = inOneLane[kUpdateRows / 4];
    ExpectRowsCounted(tableRows, inOneLane, Destinations::Repeated, table + ", a repeat inside the first lane");
    std::vector<int64_t> acrossLanes = distinct;
    acrossLanes[kUpdateRows - 1] = acrossLanes[0];
    ExpectRowsCounted(tableRows, acrossLanes, Destinations::Repeated, table + ", the last row repeating the first");
  }
}

// A float ScatterElements ADD in place (FLOAT32 unless `type` says FLOAT16), updates of
// updateRows x updateColumns into an output of outputRows x outputColumns along `axis`, compiled
// (the descs point into it: not copied).
struct FloatAdd {
  uint32_t outputSizes[2], updateSizes[2];
  uint64_t outputBytes, updateBytes, indexBytes;
  gs::TensorDesc data, indices, updates;
  gs::ScatterElementsOperatorDesc desc;
  gs::CompiledOperator op;
  gs::Status compiled;

  FloatAdd(uint32_t outputRows, uint32_t outputColumns, uint32_t updateRows, uint32_t updateColumns,
           gs::DataType indexType, uint32_t axis, gs::DataType type = gs::DataType::Float32)
      : outputSizes{outputRows, outputColumns},
        updateSizes{updateRows, updateColumns},
        outputBytes(uint64_t{outputRows} * outputColumns * gs::ElementSizeInBytes(type)),
        updateBytes(uint64_t{updateRows} * updateColumns * gs::ElementSizeInBytes(type)),
        indexBytes(uint64_t{updateRows} * updateColumns * (indexType == gs::DataType::Int64 ? 8 : 4)),
        data{type, 2, outputSizes, nullptr, outputBytes},
        indices{indexType, 2, updateSizes, nullptr, indexBytes},
        updates{type, 2, updateSizes, nullptr, updateBytes},
        desc{&data, &indices, &updates, &data, axis, gs::Reduction::Add},
        compiled(gs::CompileOperator({gs::OperatorType::ScatterElements, &desc}, &op)) {}
  FloatAdd(const FloatAdd&) = delete;
};

// ScatterElements ADD along the last axis, 1 MiB of float updates: about 128 updates on each
// output element, of magnitudes far apart, so that any other order gives other sums. One index
// out of bounds: checked refuses the call (the output untouched), unchecked drops that update.
TEST(ParallelScatter, LastAxisAdditionsFoldEachLineInOrder) {
  constexpr uint32_t kRows = 64, kLine = 32, kUpdates = 4096;
  const FloatAdd add(kRows, kLine, kRows, kUpdates, gs::DataType::Int32, 1);
  ASSERT_TRUE(add.compiled.ok()) << add.compiled.message();
  const gs::CompiledOperator& op = add.op;
  const uint64_t outputBytes = add.outputBytes, updateBytes = add.updateBytes;
  ASSERT_EQ(op.plan()->cpu.oneThread, CpuImplementation::ScatterLines);
  ASSERT_EQ(op.plan()->cpu.manyThreads, CpuImplementation::ScatterLines);

  std::mt19937 rng(11);
  std::vector<int32_t> indices(uint64_t{kRows} * kUpdates);
  std::vector<float> updates(indices.size()), input(uint64_t{kRows} * kLine);
  for (size_t i = 0; i < indices.size(); ++i) {
    indices[i] = static_cast<int32_t>(rng() % (2 * kLine)) - static_cast<int32_t>(kLine);  // half from the end
    updates[i] = static_cast<float>(rng() % 1000) * (i % 3 == 0 ? 1e6f : 1e-3f) * (i % 2 ? -1.0f : 1.0f);
  }
  for (size_t i = 0; i < input.size(); ++i) input[i] = static_cast<float>(i) * 0.5f;
  const uint64_t bad = uint64_t{kRows / 2} * kUpdates + 77;
  indices[bad] = kLine;
  std::vector<float> expected = input;
  for (uint64_t r = 0; r < kRows; ++r) {
    for (uint64_t j = 0; j < kUpdates; ++j) {
      const uint64_t u = r * kUpdates + j;
      if (u == bad) continue;
      const int64_t p = indices[u] < 0 ? indices[u] + kLine : indices[u];
      expected[r * kLine + p] += updates[u];
    }
  }
  for (const int threads : {1, 2}) {
    for (const bool checked : {false, true}) {
      for (const bool inPlace : {false, true}) {
        const std::vector<float> before = inPlace ? input : std::vector<float>(input.size(), 7.0f);
        std::vector<float> output = before;
        gs::CpuExecuteOptions options;
        options.ThreadCount = threads;
        options.Checking = checked ? gs::IndexChecking::Checked : gs::IndexChecking::Unchecked;
        const gs::Status status = gs::ExecuteOnCpu(
            op, {{inPlace ? output.data() : input.data(), outputBytes}, {indices.data(), indices.size() * 4},
                 {updates.data(), updateBytes}, {output.data(), outputBytes}},
            options);
        const std::string where = "threads " + std::to_string(threads) + (checked ? ", checked" : "") +
                                  (inPlace ? ", in place" : "");
        EXPECT_EQ(gs::cpu::LastImplementationRun().implementation, CpuImplementation::ScatterLines) << where;
        if (checked) {
          EXPECT_FALSE(status.ok()) << where;
          EXPECT_TRUE(output == before) << where;
          continue;
        }
        ASSERT_TRUE(status.ok()) << where << ": " << status.message();
        EXPECT_TRUE(std::memcmp(output.data(), expected.data(), outputBytes) == 0) << where;
      }
    }
  }
}

// Runs `add` in place on a copy of `input`, int64 indices, at 1 and 2 threads: the strips must
// run and give `expected`.
template <typename T>
void ExpectStripsInPlaceOnOneAndTwoThreads(const FloatAdd& add, const std::vector<int64_t>& indices,
                                           const std::vector<T>& updates, const std::vector<T>& input,
                                           const std::vector<T>& expected) {
  for (const int threads : {1, 2}) {
    std::vector<T> output = input;
    gs::CpuExecuteOptions options;
    options.ThreadCount = threads;
    const gs::Status status = gs::ExecuteOnCpu(
        add.op, {{output.data(), add.outputBytes}, {indices.data(), indices.size() * 8}, {updates.data(), add.updateBytes},
                 {output.data(), add.outputBytes}},
        options);
    ASSERT_TRUE(status.ok()) << status.message();
    EXPECT_EQ(gs::cpu::LastImplementationRun().implementation, CpuImplementation::ScatterStrips);
    EXPECT_TRUE(std::memcmp(output.data(), expected.data(), add.outputBytes) == 0) << "threads " << threads;
  }
}

// ScatterElements ADD along axis 0: 65536 rows of 64 float updates into 4096 x 64, about 16 on
// each element. The plan's one strip covers the 64 columns; for two threads it is halved, a
// cache line of columns each.
TEST(ParallelScatter, AxisZeroAdditionsOnNarrowRowsSplitTheirStripAcrossThreads) {
  constexpr uint32_t kOutputRows = 4096, kColumns = 64, kUpdateRows = 65536;
  const FloatAdd add(kOutputRows, kColumns, kUpdateRows, kColumns, gs::DataType::Int64, 0);
  ASSERT_TRUE(add.compiled.ok()) << add.compiled.message();
  const gs::CompiledOperator& op = add.op;
  ASSERT_EQ(op.plan()->cpu.oneThread, CpuImplementation::ScatterStrips);
  ASSERT_EQ(op.plan()->cpu.manyThreads, CpuImplementation::ScatterStrips);
  EXPECT_EQ(gs::cpu::TileScatterStrips(*op.plan(), 1).strips, 1u);
  EXPECT_EQ(gs::cpu::TileScatterStrips(*op.plan(), 2).strips, 2u);

  std::mt19937 rng(13);
  std::vector<int64_t> indices(uint64_t{kUpdateRows} * kColumns);
  std::vector<float> updates(indices.size()), input(uint64_t{kOutputRows} * kColumns);
  for (size_t i = 0; i < indices.size(); ++i) {
    indices[i] = static_cast<int64_t>(rng() % kOutputRows);
    updates[i] = static_cast<float>(rng() % 1000) * (i % 3 == 0 ? 1e6f : 1e-3f) * (i % 2 ? -1.0f : 1.0f);
  }
  for (size_t i = 0; i < input.size(); ++i) input[i] = static_cast<float>(i) * 0.25f;
  std::vector<float> expected = input;
  for (uint64_t u = 0; u < indices.size(); ++u) expected[indices[u] * kColumns + u % kColumns] += updates[u];
  ExpectStripsInPlaceOnOneAndTwoThreads(add, indices, updates, input, expected);
}

// The same on halves: rows of 64 are two cache lines, which a reduction also folds in strips
// (one strip, halved for two threads). Each step rounds to binary16, so the sums depend on the
// order; the in-order loop rounds with the reference's conversions.
TEST(ParallelScatter, AxisZeroHalfAdditionsOnRowsOfTwoLinesRunStrips) {
  constexpr uint32_t kOutputRows = 4096, kColumns = 64, kUpdateRows = 65536;
  const FloatAdd add(kOutputRows, kColumns, kUpdateRows, kColumns, gs::DataType::Int64, 0, gs::DataType::Float16);
  ASSERT_TRUE(add.compiled.ok()) << add.compiled.message();
  const gs::CompiledOperator& op = add.op;
  ASSERT_EQ(op.plan()->cpu.oneThread, CpuImplementation::ScatterStrips);
  ASSERT_EQ(op.plan()->cpu.manyThreads, CpuImplementation::ScatterStrips);
  EXPECT_EQ(gs::cpu::TileScatterStrips(*op.plan(), 2).strips, 2u);

  std::mt19937 rng(17);
  std::vector<int64_t> indices(uint64_t{kUpdateRows} * kColumns);
  std::vector<uint16_t> updates(indices.size()), input(uint64_t{kOutputRows} * kColumns);
  for (size_t i = 0; i < indices.size(); ++i) {
    indices[i] = static_cast<int64_t>(rng() % kOutputRows);
    updates[i] = gs_reference::FloatToHalf(static_cast<float>(static_cast<int>(rng() % 2001) - 1000) / 64.0f);
  }
  for (size_t i = 0; i < input.size(); ++i) input[i] = gs_reference::FloatToHalf(static_cast<float>(i % 1000) * 0.125f);
  std::vector<uint16_t> expected = input;
  for (uint64_t u = 0; u < indices.size(); ++u) {
    uint16_t& acc = expected[indices[u] * kColumns + u % kColumns];
    acc = gs_reference::FloatToHalf(gs_reference::HalfToFloat(acc) + gs_reference::HalfToFloat(updates[u]));
  }
  ExpectStripsInPlaceOnOneAndTwoThreads(add, indices, updates, input, expected);
}

}  // namespace

// ScatterElements into a copy (not in place), 2-D floats, the Output first filled with a
// sentinel NaN, so that a walk that read it, or an element left uncopied, shows. Along axis 0
// the strips (4096 x 640: ten strips of 64 columns, 10 MiB, streamed wherever the plan reads
// the LLC), along axis 1 additions by lines (512 lines of 1024). Where the walk's elements are
// the whole Output and Input and Output share one dense layout, the walk takes them from the
// Input and no copy runs; otherwise the copy runs first.
struct IntoCopy {
  uint32_t outputSizes[2], inputStrides[2], updateSizes[2];
  gs::TensorDesc input, output, indices, updates;
  gs::ScatterElementsOperatorDesc desc;
  gs::CompiledOperator op;
  gs::Status compiled;

  // Compiled for this machine, or for `machine`.
  IntoCopy(uint32_t rows, uint32_t columns, uint32_t updateRows, uint32_t updateColumns, uint32_t inputRowStride,
           uint32_t axis, gs::Reduction reduction, const gs::plan::MachineInfo* machine = nullptr)
      : outputSizes{rows, columns},
        inputStrides{inputRowStride, 1},
        updateSizes{updateRows, updateColumns},
        input{gs::DataType::Float32, 2, outputSizes, inputStrides, uint64_t{rows} * inputRowStride * 4},
        output{gs::DataType::Float32, 2, outputSizes, nullptr, uint64_t{rows} * columns * 4},
        indices{gs::DataType::Int64, 2, updateSizes, nullptr, uint64_t{updateRows} * updateColumns * 8},
        updates{gs::DataType::Float32, 2, updateSizes, nullptr, uint64_t{updateRows} * updateColumns * 4},
        desc{&input, &indices, &updates, &output, axis, reduction},
        compiled(machine != nullptr
                     ? gs::plan::CompileOperatorFor({gs::OperatorType::ScatterElements, &desc}, *machine, &op)
                     : gs::CompileOperator({gs::OperatorType::ScatterElements, &desc}, &op)) {}
  IntoCopy(const IntoCopy&) = delete;

  // Runs the scatter at 1 and 2 threads, checked and unchecked, on indices in [-bound, bound)
  // (unchecked: some out of bounds too, dropped), against an in-order loop.
  void ExpectTheLoopsBytes(CpuImplementation implementation) const {
    const uint64_t rows = outputSizes[0], columns = outputSizes[1], rowStride = inputStrides[0];
    const uint64_t updateColumns = updateSizes[1], bound = outputSizes[desc.Axis];
    std::mt19937 rng(29);
    std::vector<float> in(input.TotalTensorSizeInBytes / 4), up(uint64_t{updateSizes[0]} * updateColumns);
    for (size_t i = 0; i < in.size(); ++i) in[i] = static_cast<float>(i % 100000) * 0.5f;
    for (size_t i = 0; i < up.size(); ++i) up[i] = static_cast<float>(rng() % 2001) * (i % 3 ? 1e-3f : 1e3f) - 7.0f;
    for (const gs::IndexChecking checking : {gs::IndexChecking::Checked, gs::IndexChecking::Unchecked}) {
      std::vector<int64_t> idx(up.size());
      for (size_t i = 0; i < idx.size(); ++i) {
        idx[i] = static_cast<int64_t>(rng() % (2 * bound)) - static_cast<int64_t>(bound);
      }
      if (checking == gs::IndexChecking::Unchecked) {
        for (size_t i = 5; i < idx.size(); i += 97) idx[i] = static_cast<int64_t>(bound + i);
      }
      std::vector<float> expected(rows * columns);
      for (uint64_t r = 0; r < rows; ++r) {
        for (uint64_t j = 0; j < columns; ++j) expected[r * columns + j] = in[r * rowStride + j];
      }
      for (uint64_t u = 0; u < idx.size(); ++u) {
        const int64_t p = idx[u] < 0 ? idx[u] + static_cast<int64_t>(bound) : idx[u];
        if (p < 0 || static_cast<uint64_t>(p) >= bound) continue;
        const uint64_t r = desc.Axis == 0 ? static_cast<uint64_t>(p) : u / updateColumns;
        const uint64_t j = desc.Axis == 0 ? u % updateColumns : static_cast<uint64_t>(p);
        float& to = expected[r * columns + j];
        to = desc.Reduction == gs::Reduction::Add ? to + up[u] : up[u];
      }
      for (const int threads : {1, 2}) {
        std::vector<uint32_t> out(rows * columns, 0x7fa5a5a5u);  // a NaN no result has
        gs::CpuExecuteOptions options;
        options.ThreadCount = threads;
        options.Checking = checking;
        const gs::Status status = gs::ExecuteOnCpu(
            op, {{in.data(), input.TotalTensorSizeInBytes}, {idx.data(), indices.TotalTensorSizeInBytes},
                 {up.data(), updates.TotalTensorSizeInBytes}, {out.data(), output.TotalTensorSizeInBytes}},
            options);
        const std::string where = "threads " + std::to_string(threads) +
                                  (checking == gs::IndexChecking::Checked ? " checked" : " unchecked");
        ASSERT_TRUE(status.ok()) << where << ": " << status.message();
        EXPECT_EQ(gs::cpu::LastImplementationRun().implementation, implementation) << where;
        EXPECT_TRUE(std::memcmp(out.data(), expected.data(), output.TotalTensorSizeInBytes) == 0) << where;
      }
    }
  }

  // Checked, an index out of bounds (and another after it): refused before anything is
  // written, naming the first in row-major order.
  void ExpectNothingWrittenOnABadIndex() const {
    std::vector<float> in(input.TotalTensorSizeInBytes / 4, 1.0f), up(uint64_t{updateSizes[0]} * updateSizes[1], 2.0f);
    std::vector<int64_t> idx(up.size(), 3);
    const uint64_t firstBad = idx.size() * 2 / 3 + 5;
    idx[firstBad] = -1 - static_cast<int64_t>(outputSizes[desc.Axis]);
    idx.back() = outputSizes[desc.Axis];
    for (const int threads : {1, 2}) {
      const std::vector<uint32_t> sentinel(uint64_t{outputSizes[0]} * outputSizes[1], 0x7fa5a5a5u);
      std::vector<uint32_t> out = sentinel;
      gs::CpuExecuteOptions options;
      options.ThreadCount = threads;
      const gs::Status status = gs::ExecuteOnCpu(
          op, {{in.data(), in.size() * 4}, {idx.data(), idx.size() * 8}, {up.data(), up.size() * 4},
               {out.data(), out.size() * 4}},
          options);
      EXPECT_EQ(status.code(), gs::StatusCode::InvalidArgument) << "threads " << threads;
      EXPECT_NE(status.message().find("position " + std::to_string(firstBad) + " is " + std::to_string(idx[firstBad])),
                std::string::npos)
          << status.message();
      EXPECT_TRUE(out == sentinel) << "threads " << threads << ": the output was written";
    }
  }
};

constexpr uint32_t kStripRows = 4096, kStripColumns = 640, kStripUpdateRows = 80;

TEST(ParallelScatter, AxisZeroStripsIntoACopyPackTheirColumnsFromTheInput) {
  for (const gs::Reduction reduction : {gs::Reduction::None, gs::Reduction::Add}) {
    const IntoCopy s(kStripRows, kStripColumns, kStripUpdateRows, kStripColumns, kStripColumns, 0, reduction);
    ASSERT_TRUE(s.compiled.ok()) << s.compiled.message();
    ASSERT_EQ(s.op.plan()->cpu.oneThread, CpuImplementation::ScatterStrips);
    EXPECT_TRUE(s.op.plan()->cpu.rows.walkCopiesInput);
    EXPECT_EQ(gs::cpu::TileScatterStrips(*s.op.plan(), 1).strips, 10u);
    s.ExpectTheLoopsBytes(CpuImplementation::ScatterStrips);
  }
}

TEST(ParallelScatter, AxisZeroStripsIntoACopyOfNarrowerIndicesCopyTheOtherColumns) {
  const IntoCopy s(kStripRows, kStripColumns, kStripUpdateRows, 600, kStripColumns, 0, gs::Reduction::None);
  ASSERT_TRUE(s.compiled.ok()) << s.compiled.message();
  ASSERT_EQ(s.op.plan()->cpu.oneThread, CpuImplementation::ScatterStrips);
  EXPECT_FALSE(s.op.plan()->cpu.rows.walkCopiesInput);
  s.ExpectTheLoopsBytes(CpuImplementation::ScatterStrips);
}

TEST(ParallelScatter, AxisZeroStripsIntoACopyOfAnotherLayoutCopyFirst) {
  const IntoCopy s(kStripRows, kStripColumns, kStripUpdateRows, kStripColumns, kStripColumns + 16, 0,
                   gs::Reduction::None);
  ASSERT_TRUE(s.compiled.ok()) << s.compiled.message();
  ASSERT_EQ(s.op.plan()->cpu.oneThread, CpuImplementation::ScatterStrips);
  EXPECT_FALSE(s.op.plan()->cpu.rows.walkCopiesInput);
  s.ExpectTheLoopsBytes(CpuImplementation::ScatterStrips);
}

TEST(ParallelScatter, AxisZeroStripsIntoACopyWriteNothingOnABadIndex) {
  const IntoCopy s(kStripRows, kStripColumns, kStripUpdateRows, kStripColumns, kStripColumns, 0, gs::Reduction::None);
  ASSERT_TRUE(s.compiled.ok()) << s.compiled.message();
  ASSERT_TRUE(s.op.plan()->cpu.rows.walkCopiesInput);
  s.ExpectNothingWrittenOnABadIndex();
}

// Checked overwrites by strips on the avx512 and avx2 sets narrow their indices first where
// those are past a core's share of the LLC: here, on a machine of 256 KiB of it. The same loops
// (the second call of each mode reuses the narrowed block the first kept), a bad index, and the
// loops on two threads of the caller's at once (one takes the kept block, one allocates).
TEST(ParallelScatter, AxisZeroStripsNarrowTheirIndicesPastTheCache) {
  bool ran = false;
  for (const gs::plan::KernelSet set : {gs::plan::KernelSet::Avx512, gs::plan::KernelSet::Avx2}) {
    if (!gs::cpu::KernelSetSupported(set)) continue;
    SCOPED_TRACE(gs::cpu::KernelSetName(set));
    ran = true;
    gs::plan::MachineInfo machine = gs::cpu::ThisMachine();
    machine.kernelSet = set;
    machine.llcBytes = 256 << 10;
    // Packed from the Input, or copied first; rows of updates in whole blocks of narrowed rows
    // (8 rows of 64 columns: 1 KiB of narrowed indices a strip), or not.
    for (const auto& [inputRowStride, updateRows] : {std::pair{kStripColumns, kStripUpdateRows},
                                                     std::pair{kStripColumns + 16, kStripUpdateRows},
                                                     std::pair{kStripColumns, kStripUpdateRows + 3}}) {
      const IntoCopy s(kStripRows, kStripColumns, updateRows, kStripColumns, inputRowStride, 0, gs::Reduction::None,
                       &machine);
      ASSERT_TRUE(s.compiled.ok()) << s.compiled.message();
      ASSERT_EQ(s.op.plan()->cpu.oneThread, CpuImplementation::ScatterStrips);
      ASSERT_TRUE(s.op.plan()->cpu.rows.narrowIndices);
      ASSERT_EQ(gs::cpu::TileScatterStrips(*s.op.plan(), 1).narrowRows, 8u);
      s.ExpectTheLoopsBytes(CpuImplementation::ScatterStrips);
      s.ExpectNothingWrittenOnABadIndex();
      std::thread other([&] { s.ExpectTheLoopsBytes(CpuImplementation::ScatterStrips); });
      s.ExpectTheLoopsBytes(CpuImplementation::ScatterStrips);
      other.join();
    }
  }
  if (!ran) GTEST_SKIP() << "neither the avx512 nor the avx2 set here";
}

// Additions along the last axis into a copy: 512 lines of 1024 floats, 300 updates a line.
constexpr uint32_t kLines = 512, kLineLength = 1024, kLineUpdates = 300;

TEST(ParallelScatter, LastAxisLinesIntoACopyCopyEachLineFromTheInput) {
  const IntoCopy s(kLines, kLineLength, kLines, kLineUpdates, kLineLength, 1, gs::Reduction::Add);
  ASSERT_TRUE(s.compiled.ok()) << s.compiled.message();
  ASSERT_EQ(s.op.plan()->cpu.oneThread, CpuImplementation::ScatterLines);
  ASSERT_EQ(s.op.plan()->cpu.manyThreads, CpuImplementation::ScatterLines);
  EXPECT_TRUE(s.op.plan()->cpu.rows.walkCopiesInput);
  s.ExpectTheLoopsBytes(CpuImplementation::ScatterLines);
  s.ExpectNothingWrittenOnABadIndex();
}

TEST(ParallelScatter, LastAxisLinesIntoACopyOfFewerRowsOrAnotherLayoutCopyFirst) {
  const IntoCopy fewer(kLines, kLineLength, kLines - 100, kLineUpdates, kLineLength, 1, gs::Reduction::Add);
  const IntoCopy padded(kLines, kLineLength, kLines, kLineUpdates, kLineLength + 16, 1, gs::Reduction::Add);
  for (const IntoCopy* s : {&fewer, &padded}) {
    ASSERT_TRUE(s->compiled.ok()) << s->compiled.message();
    ASSERT_EQ(s->op.plan()->cpu.oneThread, CpuImplementation::ScatterLines);
    EXPECT_FALSE(s->op.plan()->cpu.rows.walkCopiesInput);
    s->ExpectTheLoopsBytes(CpuImplementation::ScatterLines);
  }
}

// Axis 1 of 2 x 512 x 64 floats whose two slabs lie apart (a padded outer stride), indices of
// one slab: the strips cover the first slab only, which the copy moves as one of two blocks.
// The copy must still run, or the second slab keeps the Output's sentinel.
TEST(ParallelScatter, AxisOneStripsOfOneSlabIntoACopyCopyTheOtherSlab) {
  constexpr uint32_t kSlab = 512 * 64, kSlabStride = kSlab + 16;
  const uint32_t sizes[] = {2, 512, 64}, strides[] = {kSlabStride, 64, 1}, indexSizes[] = {1, 80, 64};
  const uint64_t viewBytes = (uint64_t{kSlabStride} + kSlab) * 4;
  const gs::TensorDesc data{gs::DataType::Float32, 3, sizes, strides, viewBytes};
  const gs::TensorDesc indices{gs::DataType::Int32, 3, indexSizes, nullptr, 80 * 64 * 4};
  const gs::TensorDesc updates{gs::DataType::Float32, 3, indexSizes, nullptr, 80 * 64 * 4};
  const gs::ScatterElementsOperatorDesc desc{&data, &indices, &updates, &data, 1, gs::Reduction::None};
  gs::CompiledOperator op;
  ASSERT_TRUE(gs::CompileOperator({gs::OperatorType::ScatterElements, &desc}, &op).ok());
  ASSERT_EQ(op.plan()->cpu.oneThread, CpuImplementation::ScatterStrips);
  EXPECT_FALSE(op.plan()->cpu.rows.walkCopiesInput);
  std::vector<float> in(viewBytes / 4), up(80 * 64);
  std::vector<int32_t> idx(80 * 64);
  for (size_t i = 0; i < in.size(); ++i) in[i] = static_cast<float>(i);
  for (size_t i = 0; i < up.size(); ++i) {
    up[i] = -static_cast<float>(i) - 1;
    idx[i] = static_cast<int32_t>((i * 37) % 512);
  }
  std::vector<uint32_t> expected(in.size(), 0x7fa5a5a5u);  // the gap between the slabs is not the view's
  for (uint32_t slab = 0; slab < 2; ++slab) {
    std::memcpy(&expected[uint64_t{slab} * kSlabStride], &in[uint64_t{slab} * kSlabStride], uint64_t{kSlab} * 4);
  }
  for (size_t u = 0; u < up.size(); ++u) std::memcpy(&expected[static_cast<uint64_t>(idx[u]) * 64 + u % 64], &up[u], 4);
  for (const int threads : {1, 2}) {
    std::vector<uint32_t> out(in.size(), 0x7fa5a5a5u);
    gs::CpuExecuteOptions options;
    options.ThreadCount = threads;
    const gs::Status status = gs::ExecuteOnCpu(
        op, {{in.data(), viewBytes}, {idx.data(), idx.size() * 4}, {up.data(), up.size() * 4}, {out.data(), viewBytes}},
        options);
    ASSERT_TRUE(status.ok()) << status.message();
    EXPECT_EQ(gs::cpu::LastImplementationRun().implementation, CpuImplementation::ScatterStrips);
    EXPECT_TRUE(out == expected) << "threads " << threads;
  }
}
