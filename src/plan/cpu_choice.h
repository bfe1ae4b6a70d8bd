// The CPU engine's implementation list: which walk and kernel family run a plan, with the
// geometry they need, chosen once at compile time. The entries are tried in order and the
// first whose test applies is recorded in Plan::cpu; the generic unit walks come last and run
// any plan (they are the reference the others are tested against). src/cpu executes the
// recorded choice and only tiles it over the threads of each call.
#pragma once

#include <cstdint>

namespace gs::plan {

struct Plan;

enum class CpuImplementation : uint32_t {
  // Gathers.
  GatherElementRows,  // element units along a contiguous last dim: the kernel set's row kernel
  GatherTupleRows,    // GatherND element units with contiguous tuples: the tuple kernel
  GatherBlocks,       // units of 64 bytes or more: block copies, the next chunk prefetched
  GatherElementUnits, // any other element walk: offsets of a chunk first, then the loads
  GatherUnits,        // any gather, unit by unit (the generic walk)
  // Scatters.
  ScatterStrips,      // element units along a dim other than the last: disjoint column strips
  ScatterElementRows, // element overwrites along a contiguous last dim: the row kernel
  ScatterUnits,       // any scatter, unit by unit in row-major order (bucketed when parallel)
};
inline constexpr uint32_t kCpuImplementationCount = 8;

const char* CpuImplementationName(CpuImplementation implementation);

// Element units walked as rows of the last walked dim (contiguous in the walked tensor and
// the indices), and strips of columns when every row reads (or writes) the same rows.
struct RowGeometry {
  uint32_t inner = 0;       // the last walked dim
  uint64_t rowLength = 0;   // its size
  uint64_t rowCount = 0;    // units / rowLength
  uint64_t stripWidth = 0;  // columns per strip (rowLength: whole rows)
  bool packed = false;      // strips read or write their rows through a packed scratch copy
};

struct CpuChoice {
  CpuImplementation implementation = CpuImplementation::GatherUnits;
  RowGeometry rows;           // the row and strip implementations
  bool streamOutput = false;  // whole-line output stores bypass the cache (call > LLC)
  bool streamCopy = false;    // scatters: the Input -> Output copy bypasses the cache
  bool indicesContiguous = false;  // validation: Indices in row-major order, one vector scan
  uint64_t taskUnits = 1;     // units per task so that a task moves kTaskBytes
};

// Bytes below which a task is not worth waking a thread for.
inline constexpr uint64_t kTaskBytes = 64 * 1024;

// Units per task for units of `bytesPerUnit` bytes (at least 1).
inline uint64_t TaskUnits(uint64_t bytesPerUnit) {
  const uint64_t units = kTaskBytes / (bytesPerUnit == 0 ? 1 : bytesPerUnit);
  return units == 0 ? 1 : units;
}

// The first applicable implementation and its geometry, from the plan's walk (kernel,
// copy, element and index sizes) and the machine's cache size.
CpuChoice ChooseCpuImplementation(const Plan& plan);

// Bytes of cpu 0's data or unified cache of `level` (1-3), from sysfs, else sysconf; 0 when
// unknown.
uint64_t CacheBytes(int level);
// Bytes of the last-level cache (0 when unknown).
uint64_t LastLevelCacheBytes();
// A call that touches more bytes than this streams its whole-line stores (the LLC; 0: never).
uint64_t StreamingThresholdBytes();
// Tests: plans compiled after this call stream above `bytes` (0 restores the cache size).
void ForceStreamingThreshold(uint64_t bytes);

}  // namespace gs::plan
