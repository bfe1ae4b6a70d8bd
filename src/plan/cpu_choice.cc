// The CPU engine's implementation list (cpu_choice.h), read top to bottom: each entry's
// applicability, then the list itself with the run functions (src/cpu/implementations.h).
// Everything an entry needs from the plan and the machine is decided here, once per plan.
#include "plan/cpu_choice.h"

#include <algorithm>

#include "cpu/implementations.h"
#include "cpu/kernel_set.h"
#include "plan/overlap.h"
#include "plan/plan.h"

namespace gs::plan {
namespace {

// Whether the call runs on one thread or on several: the only thing the engine still knows
// only when it is called.
enum class Threads { One, Many };

// Bytes of rows that one strip reads, packed: half of a typical core's L2, so that they stay
// there while the strip walks every row (perf/results/2026-11-26-notes-moved-from-code.md).
constexpr uint64_t kStripReadBytes = 1024 * 1024;

// Below this many bytes of updates one thread finishes a scatter sooner than a team would.
constexpr uint64_t kScatterTeamBytes = 256 * 1024;

// The pieces a scatter's Input -> Output copy splits large blocks into.
constexpr uint64_t kCopyPieceBytes = 256 * 1024;

// The most last-level cache one core of today's parts has to itself (about 12 MiB on the
// largest, 3D-stacked ones). A VM that shows a few vCPUs of a host's whole LLC (2 of a Xeon's
// 300 MiB) shares it with cores it cannot see (perf/results/2026-12-01-emerald-rapids-streams.md).
constexpr uint64_t kMostCacheOfOneCore = 16ull << 20;

// Stores bypass the cache when the call touches more than one core's share of the last-level
// cache: with every core busy that share is all a core keeps, so lines written once would cost a
// read for ownership and evict what the others need (perf/results/2026-11-26-cpu-16-threads.md).
bool Streams(const MachineInfo& machine, uint64_t touchedBytes) {
  const uint64_t share = std::min(machine.llcBytes / std::max<uint32_t>(1, machine.cores), kMostCacheOfOneCore);
  return machine.llcBytes > 0 && touchedBytes > share;
}

// A gather streams only when what it reads is past that share too, or is read about once (an
// Input no smaller than the output). From a source it rereads while cached, a copy is bound by
// its stores, and there plain stores outran non-temporal ones on one core (same file); a source
// read once is not such a source (perf/results/2026-12-02-sources-read-once.md).
bool GatherStreams(const Plan& plan, const MachineInfo& machine, uint64_t touchedBytes) {
  const uint64_t inputBytes = ViewSpanInBytes(plan.tensor(TensorRole::Input));
  const uint64_t outputBytes = plan.walk.unitCount * plan.walk.blockElements * plan.elementSize;
  return Streams(machine, touchedBytes) && (Streams(machine, inputBytes) || inputBytes >= outputBytes);
}

// Element units along the last walked dim, which is contiguous in the walked tensor and in
// the indices. Strips when each element of a row reads another row (the indexed dim is not
// the last) and every row reads the same rows (outer dims all index-driven): a strip copies
// its columns of those rows into a packed scratch first, since rows a power of two apart share
// a few cache sets and evict each other, while packed they stay in L2.
bool ElementRows(const Plan& plan, CpuChoice* choice) {
  const KernelConstants& k = plan.walk;
  if (k.blockElements != 1 || k.tupleSize != 1 || k.rank == 0) return false;
  const uint32_t inner = static_cast<uint32_t>(k.rank - 1);
  if (k.iterStrides[inner] != 1 || k.indexStrides[inner] != 1) return false;
  RowGeometry& rows = choice->rows;
  rows.inner = inner;
  rows.rowLength = k.sizes[inner];
  rows.rowCount = k.unitCount / rows.rowLength;
  rows.stripWidth = rows.rowLength;
  rows.packed = false;
  const uint64_t e = plan.elementSize;
  const uint64_t lineElements = std::max<uint64_t>(1, 64 / e);
  bool sameRows = k.dataStrides[inner] != 0;
  for (uint32_t d = 0; d < inner; ++d) sameRows = sameRows && k.dataStrides[d] == 0;
  // Reductions fold rows of two lines or more in strips (else they run the generic walk);
  // gathers and overwrites pack rows of four lines or more.
  const uint64_t minLines = plan.isScatter && plan.reduction != Reduction::None ? 2 : 4;
  if (sameRows && rows.rowLength >= minLines * lineElements &&
      k.indexedSizes[0] * lineElements * e <= kStripReadBytes && rows.rowCount >= 64) {
    uint64_t width = lineElements;
    while (width * 2 * k.indexedSizes[0] * e <= kStripReadBytes && width * 2 <= rows.rowLength) {
      width *= 2;
    }
    rows.stripWidth = width;
    rows.packed = true;
  }
  return true;
}

bool GatherElementRows(const Plan& plan, const MachineInfo& machine, Threads, CpuChoice* choice) {
  if (plan.isScatter || !ElementRows(plan, choice)) return false;
  const KernelConstants& k = plan.walk;
  RowGeometry& rows = choice->rows;
  const uint64_t e = plan.elementSize, step = k.dataStrides[rows.inner], stride = k.indexedStrides[0];
  const uint64_t bound = k.indexedSizes[0];
  // Packed strips read their scratch copy: step 1, a row of `width` elements per position.
  rows.offsetsFit31 = rows.packed ? cpu::RowOffsetsFit31(plan.elementSize, 1, rows.stripWidth, bound, rows.stripWidth)
                                  : cpu::RowOffsetsFit31(plan.elementSize, step, stride, bound, rows.rowLength);
  if (e <= 2 && machine.kernelSet == KernelSet::Avx2 && !machine.avx2WordGathers) rows.offsetsFit31 = false;
  // A row that reads one contiguous data row (last axis) hints the next one into the cache,
  // when that row is a few pages (perf/results/2026-11-26-notes-moved-from-code.md).
  const uint64_t rowReadBytes = step == 0 && stride == 1 ? bound * e : 0;
  choice->nextRowHintBytes = rowReadBytes >= 4096 && rowReadBytes <= 64 * 1024 ? rowReadBytes : 0;
  choice->streamOutput = GatherStreams(plan, machine, k.unitCount * (2 * plan.elementSize + plan.indexSize));
  return true;
}

// GatherND element units whose tuples are contiguous along the last walked dim, as is the
// output.
bool GatherTupleRows(const Plan& plan, const MachineInfo& machine, Threads, CpuChoice* choice) {
  const KernelConstants& k = plan.walk;
  if (plan.isScatter || k.blockElements != 1 || k.tupleSize < 2 || k.rank == 0) return false;
  const uint32_t inner = static_cast<uint32_t>(k.rank - 1);
  if (k.iterStrides[inner] != 1 || k.indexStrides[inner] != k.tupleSize || k.tupleStride != 1 ||
      k.dataStrides[inner] != 0) {
    return false;
  }
  choice->rows.inner = inner;
  choice->rows.rowLength = k.sizes[inner];
  choice->rows.rowCount = k.unitCount / k.sizes[inner];
  choice->rows.stripWidth = k.sizes[inner];
  choice->rows.offsetsFit31 = cpu::TupleOffsetsFit31(k.indexedSizes, k.indexedStrides, k.tupleSize);
  const uint64_t unitBytes = plan.elementSize + k.tupleSize * plan.indexSize;
  choice->taskUnits = TaskUnits(unitBytes);
  const uint64_t pieces = (choice->rows.rowLength + choice->taskUnits - 1) / choice->taskUnits;
  const uint64_t worthTasks = std::max<uint64_t>(1, k.unitCount * unitBytes / kTaskBytes);
  choice->rows.piecesPerTask = std::max<uint64_t>(1, choice->rows.rowCount * pieces / worthTasks);
  choice->rows.hintedOffsets = std::clamp<uint64_t>(machine.hintedOffsets, 8, cpu::kMaxHintedOffsets) / 8 * 8;
  return true;
}

// Blocks of a walk hinted aheadBytes of blocks (4 to 64 blocks) before they are copied, their
// first 4 KiB each.
void HintBlocks(uint64_t blockBytes, uint64_t aheadBytes, CpuChoice* choice) {
  choice->aheadUnits = std::clamp<uint64_t>(aheadBytes / blockBytes, 4, 64);
  choice->prefetchBytes = std::min<uint64_t>(blockBytes, 4096);
}

bool GatherBlocks(const Plan& plan, const MachineInfo& machine, Threads, CpuChoice* choice) {
  const KernelConstants& k = plan.walk;
  const uint64_t blockBytes = k.blockElements * plan.elementSize;
  if (plan.isScatter || blockBytes < 64) return false;
  const uint64_t indexBytes = k.tupleSize * plan.indexSize;
  choice->streamOutput = GatherStreams(plan, machine, k.unitCount * (2 * blockBytes + indexBytes));
  choice->taskUnits = TaskUnits(blockBytes + indexBytes);
  // Each source resolved and hinted into L2 about 32 KiB of blocks before it is copied: rows
  // read from memory need that many in flight (perf/results/2026-12-05-rows-hinted-further.md).
  HintBlocks(blockBytes, 32768, choice);
  return true;
}

bool GatherElementUnits(const Plan& plan, const MachineInfo&, Threads, CpuChoice* choice) {
  if (plan.isScatter || plan.walk.blockElements != 1) return false;
  choice->taskUnits = TaskUnits(plan.elementSize + plan.walk.tupleSize * plan.indexSize);
  return true;
}

bool GatherUnits(const Plan& plan, const MachineInfo&, Threads, CpuChoice* choice) {
  const KernelConstants& k = plan.walk;
  if (plan.isScatter) return false;
  choice->taskUnits = TaskUnits(k.blockElements * plan.elementSize + k.tupleSize * plan.indexSize);
  return true;
}

// Element scatters along a dim other than the last: every unit of column j writes Output
// element j * step + p * stride, so columns own disjoint elements when step * rowLength <=
// stride, and strips of columns run in parallel, each walking its rows in order (the last
// update wins, reductions fold in row-major order), through a packed copy of its columns.
// Where the strips' bound x rowLength elements are the whole Output and the copy moves them as
// one block, each strip packs its columns from the Input instead, and the unpacks are the
// Output's only stores, streamed past a core's share of the cache
// (perf/results/2026-12-05-strips-read-input.md).
bool ScatterStrips(const Plan& plan, const MachineInfo& machine, Threads, CpuChoice* choice) {
  if (!plan.isScatter || !ElementRows(plan, choice) || !choice->rows.packed) return false;
  const KernelConstants& k = plan.walk;
  RowGeometry& rows = choice->rows;
  const uint64_t step = k.dataStrides[rows.inner];
  if (step * rows.rowLength > k.indexedStrides[0]) return false;
  // The copy is one block where both tensors are dense, in one order; the strips are all of it
  // where they have as many elements.
  rows.walkCopiesInput = plan.copy.unitCount == 1 && plan.copy.blockElements == k.indexedSizes[0] * rows.rowLength;
  const uint64_t outputBytes = ViewSpanInBytes(plan.tensor(TensorRole::Output));
  rows.streamStrips = step == 1 && Streams(machine, 2 * outputBytes);
  // Where the indices are past the cache, a strip reads a piece of every row of them, a page
  // walk each. Only where measured faster: the avx512 and avx2 sets, whose narrowing resolves
  // a vector of 32-bit lanes at a time (on avx2 the plain loop cost what the walk saved), and
  // checked calls, whose validation it replaces (unchecked it would be a pass of its own):
  // perf/results/2026-12-05-narrowed-strip-indices.md, 2026-12-05-avx2-narrowed-indices.md.
  const bool narrowingSet = machine.kernelSet == KernelSet::Avx512 || machine.kernelSet == KernelSet::Avx2;
  rows.narrowIndices = narrowingSet && plan.reduction == Reduction::None &&
                       k.indexedSizes[0] <= cpu::kNarrowedOutOfBounds && Streams(machine, k.unitCount * plan.indexSize);
  return true;
}

// Element reductions along the indexed dim (the last walked one, which moves no data offset)
// where each row's line of the output (its outer position, then every position of the indexed
// dim) is provably apart from every other row's, as along an axis of ScatterElements (not
// ScatterND, whose rows all reach the same block): slices of rows run in parallel, each row in
// order, with no scratch. Contiguous lines that are the whole Output, which the copy moves as
// one block, are copied from the Input each just before it folds, while it is in the cache.
// Overwrites keep their entries below, whose team counts the destinations and needs no order
// when they are distinct.
bool ScatterLines(const Plan& plan, const MachineInfo&, Threads, CpuChoice* choice) {
  if (!plan.isScatter || plan.reduction == Reduction::None || !ElementRows(plan, choice)) return false;
  const KernelConstants& k = plan.walk;
  RowGeometry& rows = choice->rows;
  const uint32_t inner = rows.inner;
  if (k.dataStrides[inner] != 0) return false;
  TensorView lines;
  lines.dimensionCount = inner + 1;
  for (uint32_t d = 0; d <= inner; ++d) {
    const uint64_t size = d < inner ? k.sizes[d] : k.indexedSizes[0];
    if (size > UINT32_MAX) return false;
    lines.sizes[d] = static_cast<uint32_t>(size);
    lines.strides[d] = d < inner ? k.dataStrides[d] : k.indexedStrides[0];
  }
  if (!ProvablyApart(lines)) return false;
  rows.walkCopiesInput = k.indexedStrides[0] == 1 && plan.copy.unitCount == 1 &&
                         plan.copy.blockElements == rows.rowCount * k.indexedSizes[0];
  return true;
}

// A team: enough bytes of updates to share. The run counts the destinations of every unit
// first (which also validates every index), then, by the one fact only the index values
// tell, whether two units start at one destination: none (overwrites), any order will do and
// each task writes a range of units; some, units are bucketed by destination range, each
// bucket applied by one task in row-major order.
bool ScatterUnitsByDestination(const Plan& plan, const MachineInfo&, Threads threads, CpuChoice*) {
  const KernelConstants& k = plan.walk;
  const uint64_t updateBytes = k.unitCount * k.blockElements * plan.elementSize;
  return plan.isScatter && threads == Threads::Many && updateBytes >= kScatterTeamBytes && k.unitCount >= 2;
}

// One thread, or too few updates for a team: rows in row-major order through the row kernel.
bool ScatterElementRows(const Plan& plan, const MachineInfo&, Threads, CpuChoice* choice) {
  return plan.isScatter && plan.reduction == Reduction::None && ElementRows(plan, choice);
}

bool ScatterUnits(const Plan& plan, const MachineInfo&, Threads, CpuChoice*) { return plan.isScatter; }

struct Entry {
  CpuImplementation implementation;
  const char* name;
  bool (*applies)(const Plan& plan, const MachineInfo& machine, Threads threads, CpuChoice* choice);
  CpuRunFn run;
};

// The list, in the order of the enum: the first that applies runs.
constexpr Entry kImplementations[kCpuImplementationCount] = {
    {CpuImplementation::GatherElementRows, "gather_element_rows", GatherElementRows, cpu::RunGatherElementRows},
    {CpuImplementation::GatherTupleRows, "gather_tuple_rows", GatherTupleRows, cpu::RunGatherTupleRows},
    {CpuImplementation::GatherBlocks, "gather_blocks", GatherBlocks, cpu::RunGatherBlocks},
    {CpuImplementation::GatherElementUnits, "gather_element_units", GatherElementUnits, cpu::RunGatherElementUnits},
    {CpuImplementation::GatherUnits, "gather_units", GatherUnits, cpu::RunGatherUnits},
    {CpuImplementation::ScatterStrips, "scatter_strips", ScatterStrips, cpu::RunScatterStrips},
    {CpuImplementation::ScatterLines, "scatter_lines", ScatterLines, cpu::RunScatterLines},
    {CpuImplementation::ScatterUnitsByDestination, "scatter_units_by_destination", ScatterUnitsByDestination,
     cpu::RunScatterUnitsByDestination},
    {CpuImplementation::ScatterElementRows, "scatter_element_rows", ScatterElementRows, cpu::RunScatterElementRows},
    {CpuImplementation::ScatterUnits, "scatter_units", ScatterUnits, cpu::RunScatterUnits},
};

constexpr bool InEnumOrder() {
  for (uint32_t i = 0; i < kCpuImplementationCount; ++i) {
    if (static_cast<uint32_t>(kImplementations[i].implementation) != i) return false;
  }
  return true;
}
static_assert(InEnumOrder(), "the list is indexed by CpuImplementation");

// The first implementation of the list that applies on `threads`, with its geometry.
CpuChoice FirstThatApplies(const Plan& plan, const MachineInfo& machine, Threads threads) {
  // An empty indexed tensor (every index out of bounds) or an empty walk: the generic walks,
  // which touch the indexed tensor only through an index in bounds.
  const TensorView& indexed = plan.tensor(plan.isScatter ? TensorRole::Output : TensorRole::Input);
  const bool generic = indexed.elementCount == 0 || plan.walk.unitCount == 0;
  for (const Entry& entry : kImplementations) {
    CpuChoice choice;
    if (generic && entry.implementation != CpuImplementation::GatherUnits &&
        entry.implementation != CpuImplementation::ScatterUnits) {
      continue;
    }
    if (!entry.applies(plan, machine, threads, &choice)) continue;
    choice.oneThread = choice.manyThreads = entry.implementation;
    if (plan.isScatter) {
      // Overwrites of whole lines into an output too large to keep in cache are streamed: a
      // scattered row then costs its write only, not a read for ownership first.
      const uint64_t blockBytes = plan.walk.blockElements * plan.elementSize;
      choice.streamOutput = plan.reduction == Reduction::None && blockBytes >= 64 &&
                            Streams(machine, 2 * plan.walk.unitCount * blockBytes);
      const uint64_t copyBlockBytes = plan.copy.blockElements * plan.elementSize;
      choice.streamCopy = copyBlockBytes >= 64 && Streams(machine, 2 * plan.copy.unitCount * copyBlockBytes);
      // A streamed copy leaves the output's lines out of the cache: an overwrite then streams
      // too, or each line it stores is first read back from memory for ownership.
      choice.streamOutputAfterCopy = choice.streamOutput || (plan.reduction == Reduction::None &&
                                                             blockBytes >= 64 && choice.streamCopy);
      // Blocks of more than two pieces are split, so that one contiguous tensor is still
      // copied by every thread.
      choice.copyPieceBytes = copyBlockBytes > 2 * kCopyPieceBytes ? kCopyPieceBytes : 0;
      choice.taskUnits = TaskUnits(blockBytes);
      // Destinations are scattered: the walks hint them about 4 KiB of blocks ahead (for
      // writing; reductions read them too), unless they are streamed.
      if (blockBytes >= 64 && !choice.streamOutput) HintBlocks(blockBytes, 4096, &choice);
    }
    return choice;
  }
  return CpuChoice();  // unreachable: the generic walks apply to every gather and scatter
}

}  // namespace

const char* CpuImplementationName(CpuImplementation implementation) {
  return kImplementations[static_cast<uint32_t>(implementation)].name;
}

CpuRunFn CpuRunOf(CpuImplementation implementation) {
  return kImplementations[static_cast<uint32_t>(implementation)].run;
}

CpuChoice ChooseCpuImplementation(const Plan& plan, const MachineInfo& machine) {
  // The one-thread entry's geometry serves both: the entries that apply only on several
  // threads (ScatterUnitsByDestination) read none of it.
  CpuChoice chosen = FirstThatApplies(plan, machine, Threads::One);
  chosen.manyThreads = FirstThatApplies(plan, machine, Threads::Many).oneThread;
  chosen.kernelSet = machine.kernelSet;
  const IndexValidation& v = plan.validation;
  chosen.indicesContiguous = v.rank == 0 || (v.rank == 1 && v.strides[0] == 1);
  return chosen;
}

}  // namespace gs::plan
