// Golden tests of the CPU implementation list (src/plan/cpu_choice.cc): which implementation
// the plan records for representative descs, with its geometry and streaming.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <string>

#include "cpu/kernel_set.h"
#include "cpu/machine.h"
#include "desc_builder.h"
#include "plan/plan.h"

namespace gs::test {
namespace {

using plan::CpuImplementation;

// The machine these goldens are compiled for: AVX2, 1 MiB of L2, 32 MiB of last-level cache,
// 2 threads. Nothing of the machine the test runs on enters a plan.
plan::MachineInfo TestMachine(uint64_t llcBytes = 32 << 20) {
  plan::MachineInfo machine;
  machine.kernelSet = plan::KernelSet::Avx2;
  machine.l2Bytes = 1 << 20;
  machine.llcBytes = llcBytes;
  machine.cores = 2;
  return machine;
}

plan::CpuChoice ChoiceOf(OperatorType type, const void* desc, const plan::MachineInfo& machine = TestMachine()) {
  CompiledOperator op;
  const Status status = plan::CompileOperatorFor(OperatorDesc{type, desc}, machine, &op);
  EXPECT_TRUE(status.ok()) << status.message();
  return status.ok() ? op.plan()->cpu : plan::CpuChoice();
}

TEST(CpuChoice, LastAxisGatherElementsIsElementRowsWithoutStrips) {
  Tensor input(DataType::Float32, {256, 512});
  Tensor indices(DataType::Int64, {256, 512});
  Tensor output(DataType::Float32, {256, 512});
  GatherElementsOperatorDesc d{&input.desc, &indices.desc, &output.desc, 1};
  const plan::CpuChoice choice = ChoiceOf(OperatorType::GatherElements, &d);
  EXPECT_EQ(choice.oneThread, CpuImplementation::GatherElementRows);
  EXPECT_EQ(choice.rows.inner, 1u);
  EXPECT_EQ(choice.rows.rowLength, 512u);
  EXPECT_EQ(choice.rows.rowCount, 256u);
  EXPECT_EQ(choice.rows.stripWidth, 512u);
  EXPECT_FALSE(choice.rows.packed);
  EXPECT_TRUE(choice.rows.offsetsFit31);
  EXPECT_EQ(choice.nextRowHintBytes, 0u);  // a 2 KiB data row: no hint
}

// Rows of 1- and 2-byte elements gather 32-bit words on the avx2 set only on a machine where
// that was measured faster (avx2WordGathers); 4-byte rows, and the avx512 set's narrow rows,
// take the lanes wherever their offsets fit.
TEST(CpuChoice, Avx2GathersNarrowRowsOnlyWhereTheMachineSaysSo) {
  for (const DataType type : {DataType::Int8, DataType::Float16, DataType::Float32}) {
    Tensor input(type, {256, 2048});
    Tensor indices(DataType::Int64, {256, 512});
    Tensor output(type, {256, 512});
    GatherElementsOperatorDesc d{&input.desc, &indices.desc, &output.desc, 1};
    const bool narrow = type != DataType::Float32;
    plan::MachineInfo machine = TestMachine();
    for (const bool wordGathers : {false, true}) {
      machine.avx2WordGathers = wordGathers;
      machine.kernelSet = plan::KernelSet::Avx2;
      EXPECT_EQ(ChoiceOf(OperatorType::GatherElements, &d, machine).rows.offsetsFit31, wordGathers || !narrow)
          << static_cast<int>(type) << ", word gathers " << wordGathers;
      machine.kernelSet = plan::KernelSet::Avx512;
      EXPECT_TRUE(ChoiceOf(OperatorType::GatherElements, &d, machine).rows.offsetsFit31) << static_cast<int>(type);
    }
  }
}

// What the rows need to know of their offsets and hints is decided once, for every row: the
// 32-bit lane form only when every offset a row reads fits in 31 bits, and the next data row
// hinted when it is a few pages.
TEST(CpuChoice, RowFormsAndHintsAreDecidedForTheWholeCall) {
  Tensor input(DataType::Float32, {256, 2048});
  Tensor indices(DataType::Int64, {256, 512});
  Tensor output(DataType::Float32, {256, 512});
  GatherElementsOperatorDesc d{&input.desc, &indices.desc, &output.desc, 1};
  plan::CpuChoice choice = ChoiceOf(OperatorType::GatherElements, &d);
  EXPECT_TRUE(choice.rows.offsetsFit31);
  EXPECT_EQ(choice.nextRowHintBytes, 2048u * 4);
  // Rows of 2^31 elements: past the lanes.
  Tensor wide(DataType::Float32, {1, 0x80000000u});
  Tensor wideIndices(DataType::Int64, {1, 512});
  Tensor wideOutput(DataType::Float32, {1, 512});
  GatherElementsOperatorDesc w{&wide.desc, &wideIndices.desc, &wideOutput.desc, 1};
  choice = ChoiceOf(OperatorType::GatherElements, &w);
  EXPECT_EQ(choice.oneThread, CpuImplementation::GatherElementRows);
  EXPECT_FALSE(choice.rows.offsetsFit31);
  EXPECT_EQ(choice.nextRowHintBytes, 0u);  // 8 GiB: beyond a hint
}

TEST(CpuChoice, AxisZeroGatherElementsReadsPackedStrips) {
  // Every output row reads the same 64 rows of 4 KiB: strips of columns whose 64 rows fit in
  // half an L2 (1 MiB), as wide as that allows and no wider than the row.
  Tensor input(DataType::Float32, {64, 1024});
  Tensor indices(DataType::Int32, {512, 1024});
  Tensor output(DataType::Float32, {512, 1024});
  GatherElementsOperatorDesc d{&input.desc, &indices.desc, &output.desc, 0};
  const plan::CpuChoice choice = ChoiceOf(OperatorType::GatherElements, &d);
  EXPECT_EQ(choice.oneThread, CpuImplementation::GatherElementRows);
  EXPECT_TRUE(choice.rows.packed);
  EXPECT_EQ(choice.rows.rowLength, 1024u);
  EXPECT_EQ(choice.rows.rowCount, 512u);
  EXPECT_EQ(choice.rows.stripWidth, 1024u);
}

TEST(CpuChoice, StripsNarrowToKeepTheirRowsInHalfAnL2) {
  // 4096 rows of 8-byte elements: a strip of w columns reads 4096 * w * 8 bytes <= 1 MiB.
  Tensor input(DataType::Float64, {4096, 1024});
  Tensor indices(DataType::Int32, {128, 1024});
  Tensor output(DataType::Float64, {128, 1024});
  GatherElementsOperatorDesc d{&input.desc, &indices.desc, &output.desc, 0};
  const plan::CpuChoice choice = ChoiceOf(OperatorType::GatherElements, &d);
  EXPECT_EQ(choice.oneThread, CpuImplementation::GatherElementRows);
  EXPECT_TRUE(choice.rows.packed);
  EXPECT_EQ(choice.rows.stripWidth, 32u);
}

TEST(CpuChoice, GatherNdPairsAreTupleRows) {
  Tensor input(DataType::Float32, {300, 200});
  Tensor indices(DataType::Int64, {1000, 2});
  Tensor output(DataType::Float32, {1, 1000});
  GatherNdOperatorDesc d{&input.desc, &indices.desc, &output.desc, 2, 2};
  const plan::CpuChoice choice = ChoiceOf(OperatorType::GatherNd, &d);
  EXPECT_EQ(choice.oneThread, CpuImplementation::GatherTupleRows);
  EXPECT_TRUE(choice.rows.offsetsFit31);
  EXPECT_EQ(choice.rows.rowLength, 1000u);
  EXPECT_EQ(choice.rows.rowCount, 1u);
  EXPECT_EQ(choice.taskUnits, plan::kTaskBytes / (4 + 2 * 8));
}

TEST(CpuChoice, EmbeddingRowsAreBlocks) {
  Tensor input(DataType::Float32, {1000, 256});
  Tensor indices(DataType::Int32, {1, 64});
  Tensor output(DataType::Float32, {64, 256});
  GatherOperatorDesc d{&input.desc, &indices.desc, &output.desc, 0, 1};
  const plan::CpuChoice choice = ChoiceOf(OperatorType::Gather, &d);
  EXPECT_EQ(choice.oneThread, CpuImplementation::GatherBlocks);
  EXPECT_EQ(choice.taskUnits, plan::kTaskBytes / (256 * 4 + 4));
  EXPECT_EQ(choice.aheadUnits, 32u);  // 32 KiB of 1 KiB blocks
  EXPECT_EQ(choice.prefetchBytes, 1024u);
}

TEST(CpuChoice, SmallBlocksAndStridedElementsTakeTheGenericWalks) {
  // Rows of 4 floats (16 bytes): too small for block copies.
  Tensor input(DataType::Float32, {100, 4});
  Tensor indices(DataType::Int32, {10, 1});
  Tensor output(DataType::Float32, {10, 4});
  GatherNdOperatorDesc rows{&input.desc, &indices.desc, &output.desc, 2, 2};
  EXPECT_EQ(ChoiceOf(OperatorType::GatherNd, &rows).oneThread, CpuImplementation::GatherUnits);
  // A strided output breaks the contiguous rows: element units.
  Tensor in2(DataType::Int16, {8, 8});
  Tensor idx2(DataType::Int32, {8, 8});
  Tensor out2(DataType::Int16, {8, 8}, {16, 2});
  GatherElementsOperatorDesc strided{&in2.desc, &idx2.desc, &out2.desc, 1};
  EXPECT_EQ(ChoiceOf(OperatorType::GatherElements, &strided).oneThread,
            CpuImplementation::GatherElementUnits);
}

TEST(CpuChoice, ScatterElementsAlongAxisZeroRunsDisjointStrips) {
  Tensor input(DataType::Float32, {100, 1024});
  Tensor indices(DataType::Int32, {256, 1024});
  Tensor updates(DataType::Float32, {256, 1024});
  Tensor output(DataType::Float32, {100, 1024});
  ScatterElementsOperatorDesc d{&input.desc, &indices.desc, &updates.desc, &output.desc, 0,
                                Reduction::Add};
  const plan::CpuChoice choice = ChoiceOf(OperatorType::ScatterElements, &d);
  EXPECT_EQ(choice.oneThread, CpuImplementation::ScatterStrips);
  EXPECT_TRUE(choice.rows.packed);
  EXPECT_TRUE(choice.rows.walkCopiesInput);  // the strips are the whole (dense) Output
  EXPECT_FALSE(choice.rows.streamStrips);    // 400 KiB
}

// Strips unpack into the Output past the cache where the call touches more than a core's share
// of the LLC (16 MiB of the test machine's 32 for 2 cores): 16 MiB read and written, not 4.
TEST(CpuChoice, ScatterStripsStreamTheirUnpackPastACoresShare) {
  for (const uint32_t rows : {1024u, 4096u}) {
    Tensor data(DataType::Float32, {rows, 1024});
    Tensor indices(DataType::Int64, {128, 1024});
    Tensor updates(DataType::Float32, {128, 1024});
    ScatterElementsOperatorDesc d{&data.desc, &indices.desc, &updates.desc, &data.desc, 0, Reduction::None};
    const plan::CpuChoice choice = ChoiceOf(OperatorType::ScatterElements, &d);
    EXPECT_EQ(choice.oneThread, CpuImplementation::ScatterStrips);
    EXPECT_TRUE(choice.rows.walkCopiesInput);
    EXPECT_EQ(choice.rows.streamStrips, rows == 4096) << rows;
  }
}

// Overwrites by strips narrow their indices (checked calls) on the avx512 and avx2 sets where
// the indices are past a core's share of the LLC (16 MiB): 32 MiB of int64 indices, not 1 MiB;
// not the additions, not on the other sets.
TEST(CpuChoice, ScatterStripsNarrowTheirIndicesPastACoresShareOnAvx512AndAvx2) {
  Tensor data(DataType::Float32, {4096, 1024});
  for (const plan::KernelSet set : {plan::KernelSet::Avx512, plan::KernelSet::Avx2, plan::KernelSet::Sse2,
                                    plan::KernelSet::Neon64, plan::KernelSet::Scalar}) {
    plan::MachineInfo machine = TestMachine();
    machine.kernelSet = set;
    const bool narrowingSet = set == plan::KernelSet::Avx512 || set == plan::KernelSet::Avx2;
    for (const uint32_t updateRows : {128u, 4096u}) {
      Tensor indices(DataType::Int64, {updateRows, 1024});
      Tensor updates(DataType::Float32, {updateRows, 1024});
      for (const Reduction reduction : {Reduction::None, Reduction::Add}) {
        ScatterElementsOperatorDesc d{&data.desc, &indices.desc, &updates.desc, &data.desc, 0, reduction};
        const plan::CpuChoice choice = ChoiceOf(OperatorType::ScatterElements, &d, machine);
        EXPECT_EQ(choice.oneThread, CpuImplementation::ScatterStrips);
        EXPECT_EQ(choice.rows.narrowIndices, narrowingSet && updateRows == 4096 && reduction == Reduction::None)
            << "set " << static_cast<int>(set) << ", " << updateRows << " rows";
      }
    }
  }
}

TEST(CpuChoice, ReductionsAlongAxisZeroRunStripsOfRowsOfTwoLines) {
  // Rows of 64 halves: two cache lines. A reduction folds them in strips; an overwrite, which
  // has the row kernel, and a gather keep rows of four lines or more for strips.
  Tensor input(DataType::Float16, {4096, 64});
  Tensor indices(DataType::Int64, {65536, 64});
  Tensor updates(DataType::Float16, {65536, 64});
  ScatterElementsOperatorDesc add{&input.desc, &indices.desc, &updates.desc, &input.desc, 0, Reduction::Add};
  plan::CpuChoice choice = ChoiceOf(OperatorType::ScatterElements, &add);
  EXPECT_EQ(choice.oneThread, CpuImplementation::ScatterStrips);
  EXPECT_EQ(choice.manyThreads, CpuImplementation::ScatterStrips);
  ScatterElementsOperatorDesc overwrite{&input.desc, &indices.desc, &updates.desc, &input.desc, 0, Reduction::None};
  choice = ChoiceOf(OperatorType::ScatterElements, &overwrite);
  EXPECT_FALSE(choice.rows.packed);
  EXPECT_NE(choice.oneThread, CpuImplementation::ScatterStrips);
  Tensor narrow(DataType::Float16, {65536, 32});  // one line: the generic walk still
  Tensor narrowIndices(DataType::Int64, {65536, 32});
  Tensor narrowInput(DataType::Float16, {4096, 32});
  ScatterElementsOperatorDesc oneLine{&narrowInput.desc, &narrowIndices.desc, &narrow.desc, &narrowInput.desc, 0,
                                      Reduction::Add};
  EXPECT_EQ(ChoiceOf(OperatorType::ScatterElements, &oneLine).oneThread, CpuImplementation::ScatterUnits);
}

TEST(CpuChoice, ScatterOverwritesAlongTheLastAxisAreRowsAndReductionsAreLines) {
  Tensor input(DataType::Int8, {16, 300});
  Tensor indices(DataType::UInt32, {16, 40});
  Tensor updates(DataType::Int8, {16, 40});
  Tensor output(DataType::Int8, {16, 300});
  ScatterElementsOperatorDesc overwrite{&input.desc, &indices.desc, &updates.desc, &output.desc,
                                        1, Reduction::None};
  EXPECT_EQ(ChoiceOf(OperatorType::ScatterElements, &overwrite).oneThread,
            CpuImplementation::ScatterElementRows);
  ScatterElementsOperatorDesc reduce{&input.desc, &indices.desc, &updates.desc, &output.desc, 1,
                                     Reduction::Max};
  // Each row folds into its own line: rows in parallel, each in order, on any thread count.
  const plan::CpuChoice lines = ChoiceOf(OperatorType::ScatterElements, &reduce);
  EXPECT_EQ(lines.oneThread, CpuImplementation::ScatterLines);
  EXPECT_EQ(lines.manyThreads, CpuImplementation::ScatterLines);
  EXPECT_EQ(lines.rows.rowLength, 40u);
  EXPECT_TRUE(lines.rows.walkCopiesInput);  // 16 lines of 300: the whole Output
  // Along axis 0 of the same shapes a row's updates reach other rows: not lines.
  ScatterElementsOperatorDesc axis0{&input.desc, &indices.desc, &updates.desc, &output.desc, 0,
                                    Reduction::Max};
  EXPECT_NE(ChoiceOf(OperatorType::ScatterElements, &axis0).oneThread, CpuImplementation::ScatterLines);
  // ScatterND elements: every row of updates reaches the whole of a 1-D output, so its rows
  // share one line and must run in order (a case the property tests met). Index rows 84 apart
  // keep the walk's two dims apart (packed, they would make one row).
  Tensor vector(DataType::Int32, {1, 1, 2162});
  Tensor tuples(DataType::UInt32, {42, 67, 1}, {84, 1, 1});
  Tensor values(DataType::Int32, {1, 42, 67});
  ScatterNdOperatorDesc nd{&vector.desc, &tuples.desc, &values.desc, &vector.desc, 1, 3, Reduction::Add};
  EXPECT_NE(ChoiceOf(OperatorType::ScatterNd, &nd).oneThread, CpuImplementation::ScatterLines);
  EXPECT_NE(ChoiceOf(OperatorType::ScatterNd, &nd).manyThreads, CpuImplementation::ScatterLines);
}

// The threshold is one core's share of the last-level cache (TestMachine: 2 cores).
TEST(CpuChoice, OutputsStreamWhenTheCallTouchesMoreThanOneCoresShareOfTheCache) {
  Tensor input(DataType::Float32, {1000, 256});
  Tensor indices(DataType::Int32, {64, 1});
  Tensor output(DataType::Float32, {64, 256});
  GatherNdOperatorDesc d{&input.desc, &indices.desc, &output.desc, 2, 2};
  // 64 rows of 1 KiB and their indices: the gather touches 128 KiB and 256 bytes.
  EXPECT_FALSE(ChoiceOf(OperatorType::GatherNd, &d, TestMachine(512 * 1024)).streamOutput);
  EXPECT_TRUE(ChoiceOf(OperatorType::GatherNd, &d, TestMachine(256 * 1024)).streamOutput);
  // The same cache on 16 cores: each core's share is an eighth of the above.
  plan::MachineInfo sixteen = TestMachine(2 * 1024 * 1024);
  EXPECT_FALSE(ChoiceOf(OperatorType::GatherNd, &d, sixteen).streamOutput);
  sixteen.cores = 16;
  EXPECT_TRUE(ChoiceOf(OperatorType::GatherNd, &d, sixteen).streamOutput);
}

// A VM's 2 vCPUs that report a host's 300 MiB LLC do not keep 150 MiB each: a core's share is
// at most 16 MiB, whatever the LLC over the cores.
TEST(CpuChoice, NoCoresShareOfTheCacheIsAboveSixteenMiB) {
  Tensor input(DataType::Float32, {100000, 256});  // 100 MB, past any share
  Tensor fewIndices(DataType::Int32, {7000, 1}), manyIndices(DataType::Int32, {9000, 1});
  Tensor fewRows(DataType::Float32, {7000, 256}), manyRows(DataType::Float32, {9000, 256});
  // Rows of 1 KiB, read and written: 7000 touch 14 MB (under 16 MiB), 9000 touch 18 MB.
  GatherNdOperatorDesc few{&input.desc, &fewIndices.desc, &fewRows.desc, 2, 2};
  GatherNdOperatorDesc many{&input.desc, &manyIndices.desc, &manyRows.desc, 2, 2};
  const plan::MachineInfo vm = TestMachine(300ull << 20);
  EXPECT_FALSE(ChoiceOf(OperatorType::GatherNd, &few, vm).streamOutput);
  EXPECT_TRUE(ChoiceOf(OperatorType::GatherNd, &many, vm).streamOutput);
  // Under the bound a share is the LLC over the cores, as before: 12 MiB of 24.
  EXPECT_TRUE(ChoiceOf(OperatorType::GatherNd, &few, TestMachine(24ull << 20)).streamOutput);
}

// A gather whose Input fits a core's share and is smaller than its output rereads a cached
// source: it streams only when Input is past the share too.
TEST(CpuChoice, GathersFromACachedInputDoNotStream) {
  Tensor input(DataType::Float32, {64, 256});  // 64 KiB
  Tensor indices(DataType::Int32, {1024, 1});
  Tensor output(DataType::Float32, {1024, 256});
  GatherNdOperatorDesc d{&input.desc, &indices.desc, &output.desc, 2, 2};
  // 1024 rows of 1 KiB: 2 MiB and 4 KiB touched, more than either share below.
  EXPECT_FALSE(ChoiceOf(OperatorType::GatherNd, &d, TestMachine(2 * 1024 * 1024)).streamOutput);
  EXPECT_TRUE(ChoiceOf(OperatorType::GatherNd, &d, TestMachine(64 * 1024)).streamOutput);
}

// An Input no smaller than the output is read about once, not reread from the cache: past the
// share the gather streams, whether or not the Input alone fits it.
TEST(CpuChoice, GathersThatReadTheirInputOnceStreamPastTheShare) {
  Tensor input(DataType::Float32, {1024, 256});  // 1 MiB
  Tensor indices(DataType::Int32, {1024, 1});
  Tensor output(DataType::Float32, {1024, 256});
  GatherNdOperatorDesc rows{&input.desc, &indices.desc, &output.desc, 2, 2};
  // 2 MiB and 4 KiB touched; the shares are 1 MiB and 4 MiB: the Input fits the first, not past it.
  EXPECT_TRUE(ChoiceOf(OperatorType::GatherNd, &rows, TestMachine(2 * 1024 * 1024)).streamOutput);
  EXPECT_FALSE(ChoiceOf(OperatorType::GatherNd, &rows, TestMachine(8 * 1024 * 1024)).streamOutput);
  // GatherElements along the last axis of int8 with int64 indices: Input and output 64 KiB
  // each, 640 KiB touched.
  Tensor bytes(DataType::Int8, {256, 256});
  Tensor byteIndices(DataType::Int64, {256, 256});
  GatherElementsOperatorDesc elements{&bytes.desc, &byteIndices.desc, &bytes.desc, 1};
  EXPECT_TRUE(ChoiceOf(OperatorType::GatherElements, &elements, TestMachine(1024 * 1024)).streamOutput);
  // One output row more than the Input has (along axis 0): the output is larger than the
  // Input, which is then reread from the cache, and the gather does not stream.
  Tensor tallIndices(DataType::Int64, {257, 256});
  Tensor tallOutput(DataType::Int8, {257, 256});
  GatherElementsOperatorDesc reread{&bytes.desc, &tallIndices.desc, &tallOutput.desc, 0};
  EXPECT_FALSE(ChoiceOf(OperatorType::GatherElements, &reread, TestMachine(1024 * 1024)).streamOutput);
}

TEST(CpuChoice, ScatterOverwritesAndCopiesStreamPastTheShare) {
  Tensor input(DataType::Float32, {1000, 256});
  Tensor indices(DataType::Int32, {64, 1});
  Tensor updates(DataType::Float32, {64, 256});
  Tensor output(DataType::Float32, {1000, 256});
  ScatterNdOperatorDesc d{&input.desc, &indices.desc, &updates.desc, &output.desc, 2, 2,
                          Reduction::None};
  // 64 rows of 1 KiB: the scatter touches 128 KiB (read and write); the copy 2000 KiB.
  {
    const plan::CpuChoice choice = ChoiceOf(OperatorType::ScatterNd, &d, TestMachine(4 * 1024 * 1024));
    EXPECT_FALSE(choice.streamOutput);
    EXPECT_FALSE(choice.streamCopy);
    EXPECT_FALSE(choice.streamOutputAfterCopy);
    // The copy is one contiguous block of 1000 KiB: pieces of 256 KiB, so every thread copies.
    EXPECT_EQ(choice.copyPieceBytes, 256u * 1024);
  }
  {
    const plan::CpuChoice choice = ChoiceOf(OperatorType::ScatterNd, &d, TestMachine(1536 * 1024));
    EXPECT_FALSE(choice.streamOutput);
    EXPECT_TRUE(choice.streamCopy);
    // The streamed copy left the output uncached: the overwrites after it stream.
    EXPECT_TRUE(choice.streamOutputAfterCopy);
  }
  {
    const plan::CpuChoice choice = ChoiceOf(OperatorType::ScatterNd, &d, TestMachine(128 * 1024));
    EXPECT_TRUE(choice.streamOutput);
    EXPECT_TRUE(choice.streamCopy);
    EXPECT_TRUE(choice.streamOutputAfterCopy);
  }
  // Reductions read what they combine with: never streamed.
  ScatterNdOperatorDesc add{&input.desc, &indices.desc, &updates.desc, &output.desc, 2, 2, Reduction::Add};
  EXPECT_FALSE(ChoiceOf(OperatorType::ScatterNd, &add, TestMachine(64 * 1024)).streamOutput);
  EXPECT_FALSE(ChoiceOf(OperatorType::ScatterNd, &add, TestMachine(64 * 1024)).streamOutputAfterCopy);
}

// A scatter is shared by a team only from 256 KiB of updates, and strips need none: the one
// entry that applies only on several threads counts the destinations first. Gathers run the
// same entry on any thread count (it tiles over the threads it gets).
TEST(CpuChoice, ScattersTakeATeamEntryOnlyOnSeveralThreadsAndAboveTheTeamBytes) {
  Tensor input(DataType::Float32, {64, 4096});
  Tensor small(DataType::Int32, {64, 512});  // 128 KiB of updates
  Tensor large(DataType::Int32, {64, 1024});  // 256 KiB
  Tensor smallUpdates(DataType::Float32, {64, 512}), largeUpdates(DataType::Float32, {64, 1024});
  ScatterElementsOperatorDesc few{&input.desc, &small.desc, &smallUpdates.desc, &input.desc, 1, Reduction::None};
  ScatterElementsOperatorDesc many{&input.desc, &large.desc, &largeUpdates.desc, &input.desc, 1, Reduction::None};
  plan::CpuChoice choice = ChoiceOf(OperatorType::ScatterElements, &few);
  EXPECT_EQ(choice.oneThread, CpuImplementation::ScatterElementRows);
  EXPECT_EQ(choice.manyThreads, CpuImplementation::ScatterElementRows);
  choice = ChoiceOf(OperatorType::ScatterElements, &many);
  EXPECT_EQ(choice.oneThread, CpuImplementation::ScatterElementRows);
  EXPECT_EQ(choice.manyThreads, CpuImplementation::ScatterUnitsByDestination);
  EXPECT_EQ(choice.rows.rowLength, 1024u);  // the one-thread entry's rows

  Tensor strips(DataType::Float32, {100, 1024}), stripIndices(DataType::Int32, {256, 1024});
  Tensor stripUpdates(DataType::Float32, {256, 1024});
  ScatterElementsOperatorDesc axis0{&strips.desc, &stripIndices.desc, &stripUpdates.desc, &strips.desc, 0,
                                    Reduction::Add};
  choice = ChoiceOf(OperatorType::ScatterElements, &axis0);
  EXPECT_EQ(choice.oneThread, CpuImplementation::ScatterStrips);
  EXPECT_EQ(choice.manyThreads, CpuImplementation::ScatterStrips);

  Tensor gatherIndices(DataType::Int32, {64, 4096}), gatherOutput(DataType::Float32, {64, 4096});
  GatherElementsOperatorDesc gather{&input.desc, &gatherIndices.desc, &gatherOutput.desc, 1};
  choice = ChoiceOf(OperatorType::GatherElements, &gather);
  EXPECT_EQ(choice.oneThread, CpuImplementation::GatherElementRows);
  EXPECT_EQ(choice.manyThreads, CpuImplementation::GatherElementRows);
}

TEST(CpuChoice, EveryImplementationHasItsName) {
  for (uint32_t i = 0; i < plan::kCpuImplementationCount; ++i) {
    const char* name = plan::CpuImplementationName(static_cast<CpuImplementation>(i));
    ASSERT_NE(name, nullptr);
    EXPECT_NE(std::string(name), "");
  }
  EXPECT_STREQ(plan::CpuImplementationName(CpuImplementation::ScatterStrips), "scatter_strips");
}

// The cache sizes the engine reads of this machine: sysfs's "32768K" read as 32 MiB (no data
// cache is under 4 KiB), each level no smaller than the one below it, the last level the largest.
TEST(CpuChoice, CacheSizesAreReadInBytes) {
  uint64_t below = 0;
  for (int level = 1; level <= 3; ++level) {
    const uint64_t bytes = cpu::CacheBytes(level);
    if (bytes == 0) continue;  // unknown on this machine
    EXPECT_GE(bytes, 4096u) << "level " << level;
    EXPECT_EQ(bytes % 1024, 0u) << "level " << level << ": " << bytes;
    EXPECT_GE(bytes, below) << "level " << level;
    below = bytes;
  }
  EXPECT_EQ(cpu::ThisMachine().llcBytes, below);
  EXPECT_EQ(cpu::ThisMachine().kernelSet, cpu::ActiveKernelSet());
  EXPECT_GE(cpu::ThisMachine().cores, 1u);
#if defined(_WIN32)
  EXPECT_GT(cpu::CacheBytes(2), 0u) << "Windows lists every cache (GetLogicalProcessorInformationEx)";
#endif
}

#if defined(__linux__)
// On Linux the sizes are sysfs's, as read here with streams: the largest data or unified cache
// of each level of cpu 0.
TEST(CpuChoice, CacheSizesAreSysfsOnes) {
  for (int level = 1; level <= 3; ++level) {
    uint64_t expected = 0;
    for (int index = 0; index < 8; ++index) {
      const std::string dir = "/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(index) + "/";
      std::ifstream levelFile(dir + "level"), typeFile(dir + "type"), sizeFile(dir + "size");
      int cacheLevel = 0;
      std::string type, size;
      if (!(levelFile >> cacheLevel) || !(typeFile >> type) || !(sizeFile >> size)) continue;
      if (cacheLevel != level || type == "Instruction") continue;
      const uint64_t unit = size.back() == 'K' ? 1024 : size.back() == 'M' ? 1024 * 1024 : 1;
      expected = std::max<uint64_t>(expected, std::stoull(size) * unit);
    }
    if (expected == 0) continue;  // not in sysfs here: sysconf's answer
    EXPECT_EQ(cpu::CacheBytes(level), expected) << "level " << level;
  }
}
#endif

// A plan records the kernel set of the machine it was compiled for.
TEST(CpuChoice, ThePlanRecordsTheMachinesKernelSet) {
  Tensor input(DataType::Float32, {16, 16}), indices(DataType::Int32, {16, 16});
  Tensor output(DataType::Float32, {16, 16});
  GatherElementsOperatorDesc d{&input.desc, &indices.desc, &output.desc, 1};
  plan::MachineInfo machine = TestMachine();
  for (plan::KernelSet set : {plan::KernelSet::Scalar, plan::KernelSet::Avx512, plan::KernelSet::Neon64}) {
    machine.kernelSet = set;
    EXPECT_EQ(ChoiceOf(OperatorType::GatherElements, &d, machine).kernelSet, set);
  }
}

}  // namespace
}  // namespace gs::test
