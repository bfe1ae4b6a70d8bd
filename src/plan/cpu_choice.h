// The CPU engine's implementation list (cpu_choice.cc): every way the engine runs an operator,
// each entry with its applicability (plan and machine in, the geometry it needs out) and its
// run function. CompilePlan records two entries in Plan::cpu, the first that applies on one
// thread and the first that applies on several; the engine runs one of them by the thread
// count of the call, which is the only choice left to it.
#pragma once

#include <cstdint>

#include "gs/status.h"
#include "plan/machine.h"

namespace gs::cpu {
class Parallel;
}

namespace gs::plan {

struct Plan;
struct HostBuffers;

enum class CpuImplementation : uint32_t {
  // Gathers.
  GatherElementRows,  // element units along a contiguous last dim: the kernel set's row kernel
  GatherTupleRows,    // GatherND element units with contiguous tuples: the tuple kernel
  GatherBlocks,       // units of 64 bytes or more: the kernel set's block walk, sources hinted ahead
  GatherElementUnits, // any other element walk: offsets of a chunk first, then the loads
  GatherUnits,        // any gather, unit by unit (the generic walk)
  // Scatters.
  ScatterStrips,              // element units along a dim other than the last: disjoint column strips
  ScatterLines,               // element reductions along the indexed dim: each row folds into its own line
  ScatterUnitsByDestination,  // several threads, enough updates: destinations counted first
  ScatterElementRows,         // element overwrites along a contiguous last dim, in order: the row kernel
  ScatterUnits,               // any scatter, unit by unit in row-major order (the generic walk)
};
inline constexpr uint32_t kCpuImplementationCount = 10;

const char* CpuImplementationName(CpuImplementation implementation);

// Element units walked as rows of the last walked dim (contiguous in the walked tensor and
// the indices), and strips of columns when every row reads (or writes) the same rows.
struct RowGeometry {
  uint32_t inner = 0;       // the last walked dim
  uint64_t rowLength = 0;   // its size
  uint64_t rowCount = 0;    // units / rowLength
  uint64_t stripWidth = 0;  // columns per strip (rowLength: whole rows)
  bool packed = false;      // strips read or write their rows through a packed scratch copy
  // Scatter strips and lines: their elements are the whole Output, laid out as the Input, so a
  // call that is not in place takes them from the Input as it walks (strips pack from it, lines
  // copy from it) and runs no Input -> Output copy first.
  bool walkCopiesInput = false;
  // Scatter strips: rows unpacked into the Output bypass the cache (call > a core's LLC share).
  bool streamStrips = false;
  // Scatter strips of overwrites, checked: the validation narrows the indices to 16 bits in
  // strip order (into the plan's kept scratch), so that each strip reads its indices as one
  // stream rather than a piece of every row (indices past a core's LLC share).
  bool narrowIndices = false;
  // Gathers: every offset a row reads fits in 31 bits, so the rows run the row kernels'
  // Fit31 form (cpu/kernel_set.h: 32-bit lanes), packed strips from their scratch copy.
  bool offsetsFit31 = false;
  // Tuple rows: row pieces (of taskUnits) a task runs, so that a task moves kTaskBytes and a
  // call of a few short rows stays on the calling thread.
  uint64_t piecesPerTask = 1;
  // Tuple rows: elements whose offsets are made and hinted before they are loaded
  // (MachineInfo::hintedOffsets).
  uint64_t hintedOffsets = 128;
};

struct CpuChoice {
  CpuImplementation oneThread = CpuImplementation::GatherUnits;    // a call on one thread runs this
  CpuImplementation manyThreads = CpuImplementation::GatherUnits;  // a call on several, this
  KernelSet kernelSet = KernelSet::Scalar;  // the kernels both run (MachineInfo::kernelSet)
  RowGeometry rows;           // the row and strip implementations
  bool streamOutput = false;  // whole-line output stores bypass the cache (call > a core's LLC share)
  bool streamCopy = false;    // scatters: the Input -> Output copy bypasses the cache
  bool streamOutputAfterCopy = false;  // scatters not in place: streamOutput after that copy
  uint64_t copyPieceBytes = 0;  // scatters: the copy's blocks split into pieces this long (0: whole)
  bool indicesContiguous = false;  // validation: Indices in row-major order, one vector scan
  uint64_t taskUnits = 1;     // units per task so that a task moves kTaskBytes
  // Hints ahead of the data, in bytes (0: none).
  uint64_t nextRowHintBytes = 0;  // element rows reading one data row each: the next row's
  uint64_t prefetchBytes = 0;     // block units: of each source (gathers) or destination (scatters)
  uint64_t aheadUnits = 0;        // block units: units ahead a block is resolved and prefetched
};

// Bytes below which a task is not worth waking a thread for.
inline constexpr uint64_t kTaskBytes = 64 * 1024;

// Units per task for units of `bytesPerUnit` bytes (at least 1).
inline uint64_t TaskUnits(uint64_t bytesPerUnit) {
  const uint64_t units = kTaskBytes / (bytesPerUnit == 0 ? 1 : bytesPerUnit);
  return units == 0 ? 1 : units;
}

// The entries that apply first on one thread and on several, with their geometry, from the
// plan's walk (kernel, copy, element and index sizes) and the machine.
CpuChoice ChooseCpuImplementation(const Plan& plan, const MachineInfo& machine);

// Runs one call of `plan` with an entry: the walk, the checked mode's validation and, for a
// scatter, the Input -> Output copy. Returns the checked mode's index error, else Ok.
using CpuRunFn = Status (*)(const Plan& plan, const HostBuffers& buffers, const cpu::Parallel& parallel,
                            bool checked);
CpuRunFn CpuRunOf(CpuImplementation implementation);

}  // namespace gs::plan
