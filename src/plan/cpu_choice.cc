// The CPU implementation list (cpu_choice.h): one Applicable test per implementation, tried in
// the order of the list, the generic walks last.
#include "plan/cpu_choice.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <fstream>
#include <string>

#include "plan/plan.h"

namespace gs::plan {
namespace {

// Bytes of rows that one strip reads, packed: half a core's L2 (2 MiB here), so that they
// stay there while the strip walks every row (measured best among 256 KiB-8 MiB).
constexpr uint64_t kStripReadBytes = 1024 * 1024;

bool Streams(uint64_t touchedBytes) {
  const uint64_t threshold = StreamingThresholdBytes();
  return threshold > 0 && touchedBytes > threshold;
}

// Element units along the last walked dim, which is contiguous in the walked tensor and in
// the indices. Strips when each element of a row reads another row (the indexed dim is not
// the last) and every row reads the same rows (outer dims all index-driven): a strip copies
// its columns of those rows into a packed scratch first, since rows a power of two apart share
// a few cache sets and evict each other, while packed they stay in L2.
bool ElementRows(const Plan& plan, CpuChoice* choice) {
  const KernelConstants& k = plan.kernel;
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
  if (sameRows && rows.rowLength >= 4 * lineElements &&
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

bool GatherElementRows(const Plan& plan, CpuChoice* choice) {
  if (plan.isScatter || !ElementRows(plan, choice)) return false;
  choice->streamOutput = Streams(plan.kernel.unitCount * (2 * plan.elementSize + plan.indexSize));
  return true;
}

// GatherND element units whose tuples are contiguous along the last walked dim, as is the
// output.
bool GatherTupleRows(const Plan& plan, CpuChoice* choice) {
  const KernelConstants& k = plan.kernel;
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
  choice->taskUnits = TaskUnits(plan.elementSize + k.tupleSize * plan.indexSize);
  return true;
}

bool GatherBlocks(const Plan& plan, CpuChoice* choice) {
  const KernelConstants& k = plan.kernel;
  const uint64_t blockBytes = k.blockElements * plan.elementSize;
  if (plan.isScatter || blockBytes < 64) return false;
  const uint64_t indexBytes = k.tupleSize * plan.indexSize;
  choice->streamOutput = Streams(k.unitCount * (2 * blockBytes + indexBytes));
  choice->taskUnits = TaskUnits(blockBytes + indexBytes);
  return true;
}

bool GatherElementUnits(const Plan& plan, CpuChoice* choice) {
  if (plan.isScatter || plan.kernel.blockElements != 1) return false;
  choice->taskUnits = TaskUnits(plan.elementSize + plan.kernel.tupleSize * plan.indexSize);
  return true;
}

bool GatherUnits(const Plan& plan, CpuChoice* choice) {
  const KernelConstants& k = plan.kernel;
  if (plan.isScatter) return false;
  choice->taskUnits = TaskUnits(k.blockElements * plan.elementSize + k.tupleSize * plan.indexSize);
  return true;
}

// Element scatters along a dim other than the last: every unit of column j writes Output
// element j * step + p * stride, so columns own disjoint elements when step * rowLength <=
// stride, and strips of columns run in parallel, each walking its rows in order (the last
// update wins, reductions fold in row-major order), through a packed copy of its columns.
bool ScatterStrips(const Plan& plan, CpuChoice* choice) {
  if (!plan.isScatter || !ElementRows(plan, choice) || !choice->rows.packed) return false;
  const KernelConstants& k = plan.kernel;
  return k.dataStrides[choice->rows.inner] * choice->rows.rowLength <= k.indexedStrides[0];
}

bool ScatterElementRows(const Plan& plan, CpuChoice* choice) {
  return plan.isScatter && plan.reduction == Reduction::None && ElementRows(plan, choice);
}

bool ScatterUnits(const Plan& plan, CpuChoice* choice) {
  if (!plan.isScatter) return false;
  choice->rows = RowGeometry();
  return true;
}

struct Entry {
  CpuImplementation implementation;
  const char* name;
  bool (*applicable)(const Plan& plan, CpuChoice* choice);
};

// The list, in the order of the enum: the first that applies runs.
constexpr Entry kImplementations[kCpuImplementationCount] = {
    {CpuImplementation::GatherElementRows, "gather_element_rows", GatherElementRows},
    {CpuImplementation::GatherTupleRows, "gather_tuple_rows", GatherTupleRows},
    {CpuImplementation::GatherBlocks, "gather_blocks", GatherBlocks},
    {CpuImplementation::GatherElementUnits, "gather_element_units", GatherElementUnits},
    {CpuImplementation::GatherUnits, "gather_units", GatherUnits},
    {CpuImplementation::ScatterStrips, "scatter_strips", ScatterStrips},
    {CpuImplementation::ScatterElementRows, "scatter_element_rows", ScatterElementRows},
    {CpuImplementation::ScatterUnits, "scatter_units", ScatterUnits},
};

std::atomic<uint64_t> forcedStreamingThreshold{0};

// The first implementation of the list that applies, with its geometry.
CpuChoice ChooseWalk(const Plan& plan) {
  // An empty indexed tensor (every index out of bounds) or an empty walk: the generic walks,
  // which touch the indexed tensor only through an index in bounds.
  const TensorView& indexed = plan.tensor(plan.isScatter ? TensorRole::Output : TensorRole::Input);
  const bool generic = indexed.elementCount == 0 || plan.kernel.unitCount == 0;
  for (const Entry& entry : kImplementations) {
    CpuChoice choice;
    if (generic && entry.implementation != CpuImplementation::GatherUnits &&
        entry.implementation != CpuImplementation::ScatterUnits) {
      continue;
    }
    if (!entry.applicable(plan, &choice)) continue;
    choice.implementation = entry.implementation;
    if (plan.isScatter) {
      // Overwrites of whole lines into an output too large to keep in cache are streamed: a
      // scattered row then costs its write only, not a read for ownership first.
      const uint64_t blockBytes = plan.kernel.blockElements * plan.elementSize;
      choice.streamOutput = plan.reduction == Reduction::None && blockBytes >= 64 &&
                            Streams(2 * plan.kernel.unitCount * blockBytes);
      const uint64_t copyBlockBytes = plan.copy.blockElements * plan.elementSize;
      choice.streamCopy = copyBlockBytes >= 64 && Streams(2 * plan.copy.unitCount * copyBlockBytes);
      choice.taskUnits = TaskUnits(blockBytes);
    }
    return choice;
  }
  return CpuChoice();  // unreachable: the generic walks apply to every gather and scatter
}

}  // namespace

const char* CpuImplementationName(CpuImplementation implementation) {
  return kImplementations[static_cast<uint32_t>(implementation)].name;
}

CpuChoice ChooseCpuImplementation(const Plan& plan) {
  CpuChoice chosen = ChooseWalk(plan);
  const IndexValidation& v = plan.validation;
  chosen.indicesContiguous = v.rank == 0 || (v.rank == 1 && v.strides[0] == 1);
  return chosen;
}

uint64_t CacheBytes(int level) {
  // sysfs, as lscpu reads it: glibc's sysconf said 320 MiB of L3 on a 2-vCPU AMD EPYC VM whose
  // sysfs says 32 MiB, and kept its 134 MB outputs off the streaming path.
  uint64_t found = 0;
  for (int index = 0; index < 8; ++index) {
    const std::string dir = "/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(index) + "/";
    std::ifstream levelFile(dir + "level"), typeFile(dir + "type"), sizeFile(dir + "size");
    int cacheLevel = 0;
    std::string type, size;
    if (!(levelFile >> cacheLevel) || !(typeFile >> type) || !(sizeFile >> size)) continue;
    if (cacheLevel != level || type == "Instruction" || size.empty()) continue;
    const uint64_t unit = size.back() == 'K' ? 1024 : size.back() == 'M' ? 1024 * 1024 : 1;
    found = std::max<uint64_t>(found, std::strtoull(size.c_str(), nullptr, 10) * unit);
  }
  if (found != 0) return found;
  long size = -1;
#if defined(_SC_LEVEL3_CACHE_SIZE)
  size = sysconf(level == 3 ? _SC_LEVEL3_CACHE_SIZE : level == 2 ? _SC_LEVEL2_CACHE_SIZE : _SC_LEVEL1_DCACHE_SIZE);
#endif
  return size > 0 ? static_cast<uint64_t>(size) : uint64_t{0};
}

uint64_t LastLevelCacheBytes() {
  static const uint64_t bytes = [] {
    const uint64_t l3 = CacheBytes(3);
    return l3 != 0 ? l3 : CacheBytes(2);
  }();
  return bytes;
}

uint64_t StreamingThresholdBytes() {
  const uint64_t forced = forcedStreamingThreshold.load(std::memory_order_relaxed);
  return forced != 0 ? forced : LastLevelCacheBytes();
}

void ForceStreamingThreshold(uint64_t bytes) {
  forcedStreamingThreshold.store(bytes, std::memory_order_relaxed);
}

}  // namespace gs::plan
