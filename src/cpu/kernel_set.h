// The CPU engine's kernel sets: the same kernels built for several instruction sets; a plan
// records the one its calls run (plan::MachineInfo). The scalar set is always built.
#pragma once

#include <cstdint>
#include <vector>

#include "cpu/reductions.h"
#include "gs/tensor.h"
#include "plan/hlsl_shared/plan_constants.h"
#include "plan/machine.h"

namespace gs::cpu {

using plan::KernelSet;
using plan::kKernelSetCount;

const char* KernelSetName(KernelSet set);  // "scalar", "sse2", "avx2", "avx512", "neon64"
bool ParseKernelSet(const char* name, KernelSet* set);

// Built into this library and runnable on this CPU.
bool KernelSetSupported(KernelSet set);
// Every supported set, scalar first (tests sweep them).
std::vector<KernelSet> SupportedKernelSets();

// This machine's set (ThisMachine().kernelSet): the best supported one, or GS_CPU_KERNELS=<name>
// when that names a supported set (read once, at first use).
KernelSet ActiveKernelSet();

// Contiguous rows of element gathers and scatters. Offsets and strides are in elements:
//   gather:  out[j] = data[j * dataStep + p * indexedStride], or zero when indices[j] is out of
//            [-bound, bound) (signed) / [0, bound) (unsigned); p is indices[j] resolved.
//            data[0] must be readable (it is read, and dropped, for an out-of-bounds index).
//            The tracked entries (checked mode) return whether every index of the row was in
//            bounds; the untracked ones may return true regardless (they keep no count).
//            `next` is the data the walk's next row reads: hinted into the cache as this row
//            goes (NextRowData{} when there is none to hint), and whether the row's own index
//            stream is hinted ahead of its loads (on into the next row's indices).
//   scatter: data[j * dataStep + p * indexedStride] = updates[j] for in-bounds j, in order of j.
struct NextRowData {
  const uint8_t* at = nullptr;
  uint64_t bytes = 0;
  // Hint this row's indices ahead of use (simd/next_row_hints.h: IndexHints); past this row's
  // end, those of nextIndices (the next row's, of as many indices; nullptr: none).
  bool hintIndices = false;
  const uint8_t* nextIndices = nullptr;
};
using GatherRowFn = bool (*)(const uint8_t* data, uint64_t dataStep, uint64_t indexedStride,
                             uint64_t bound, const uint8_t* indices, uint8_t* out, uint64_t n,
                             NextRowData next);
// Contiguous rows of index tuples: out[j] = data[sum of p_c * strides[c]] over the tupleSize
// components p_c of tuple j (indices[j * tupleSize + c], bounded by bounds[c]), or zero when
// any component is out of bounds. data[0] must be readable. Returns whether every tuple was
// in bounds. Without the AVX-512 pairs kernel, `hinted` elements' offsets (8 to
// kMaxHintedOffsets, a multiple of 8) are made and hinted before they are loaded.
inline constexpr uint64_t kMaxHintedOffsets = 128;
using GatherTupleRowFn = bool (*)(const uint8_t* data, const uint64_t* bounds,
                                  const uint64_t* strides, uint64_t tupleSize,
                                  const uint8_t* indices, uint8_t* out, uint64_t n, uint64_t hinted);
using ScatterRowFn = void (*)(uint8_t* data, uint64_t dataStep, uint64_t indexedStride,
                              uint64_t bound, const uint8_t* indices, const uint8_t* updates,
                              uint64_t n);
// The gather row kernels come in two forms, indexed by RowOffsets, and the plan picks one for
// every row of a call: Any takes any offsets; Fit31 may assume that every element offset a row
// reads fits in 31 bits (RowOffsetsFit31, TupleOffsetsFit31), and runs 32-bit lanes of
// hardware gathers where the set has them (elsewhere it is the Any form).
enum class RowOffsets : uint32_t { Any, Fit31 };
inline constexpr uint32_t kRowOffsetsCount = 2;

// Whether a gather row of n elements of elementSize bytes (dataStep, indexedStride, bound as
// above) may run the Fit31 form.
inline bool RowOffsetsFit31(uint32_t elementSize, uint64_t dataStep, uint64_t indexedStride, uint64_t bound,
                            uint64_t n) {
  constexpr uint64_t k30 = uint64_t{1} << 30, k31 = uint64_t{1} << 31;
  if (dataStep > 1 || n == 0 || n >= k30 || bound == 0 || bound > k30) return false;
  if (elementSize == 4) return indexedStride < k31 && (bound - 1) * indexedStride + n * dataStep < k31;
  if (elementSize > 2 || indexedStride >= k30) return false;
  // 1- and 2-byte elements are gathered as the 32-bit word at their byte offset, inside the
  // bytes the row may read: at least one word of them.
  const uint64_t extentBytes = ((n - 1) * dataStep + (bound - 1) * indexedStride + 1) * elementSize;
  return extentBytes >= 4 && extentBytes < k31;
}

// Whether a row of tuples (GatherTupleRowFn) may run the Fit31 form: pairs whose offsets all
// fit in 31 bits.
inline bool TupleOffsetsFit31(const uint64_t* bounds, const uint64_t* strides, uint64_t tupleSize) {
  constexpr uint64_t k31 = uint64_t{1} << 31;
  return tupleSize == 2 && bounds[0] > 0 && bounds[1] > 0 && bounds[0] < k31 && bounds[1] < k31 &&
         strides[0] < k31 && strides[1] < k31 && (bounds[0] - 1) * strides[0] + (bounds[1] - 1) * strides[1] < k31;
}

// First position j < n of contiguous indices whose value is out of bounds, or n. Element j is
// component (firstComponent + j) % tupleSize of its tuple, bounded by bounds[component].
using FirstBadFn = uint64_t (*)(const uint8_t* indices, uint64_t n, const uint64_t* bounds,
                                uint64_t tupleSize, uint64_t firstComponent);
// Indices narrowed for a walk that reads them more than once or far apart (scatter strips):
// out[j] = indices[j] resolved against bound (at most kNarrowedOutOfBounds), or
// kNarrowedOutOfBounds where out of bounds. Returns whether every index was in bounds.
inline constexpr uint16_t kNarrowedOutOfBounds = 0xFFFF;
using NarrowIndicesFn = bool (*)(const uint8_t* indices, uint64_t n, uint64_t bound, uint16_t* out);
// memcpy with non-temporal stores (for outputs larger than the last-level cache); the caller
// ends a run of them with StreamFence on the same thread.
using StreamCopyFn = void (*)(uint8_t* destination, const uint8_t* source, uint64_t bytes);
using StreamFenceFn = void (*)();

// Gather blocks (plan/cpu_choice.cc, GatherBlocks): units [begin, end) of `walk`, unit u's
// block of walk->blockElements copied from input at its data offset plus each tuple
// component's resolved index times its indexed stride, to output at its iter offset (offsets
// in elements of elementBytes), or zeroed where a component is out of bounds. As each block
// is copied, the first prefetchBytes of the source aheadUnits on are hinted into L2. Returns
// the count of zeroed blocks. The streamed entries store non-temporally and fence.
struct BlockWalk {
  const plan::KernelConstants* walk;
  const uint8_t* input;
  const uint8_t* indices;
  uint8_t* output;
  uint64_t elementBytes, aheadUnits, prefetchBytes;
};
using GatherBlocksFn = uint64_t (*)(const BlockWalk& walk, uint64_t begin, uint64_t end);

struct KernelTable {
  KernelSet set;
  GatherRowFn gatherRow[kRowOffsetsCount][2][4][4];  // [RowOffsets][tracked][log2 element size][IndexKind]
  GatherRowFn gatherRowStreamed[kRowOffsetsCount][2][4][4];  // the same, non-temporal stores: end with streamFence
  GatherTupleRowFn gatherTupleRow[kRowOffsetsCount][4][4];   // [RowOffsets][log2 element size][IndexKind]
  ScatterRowFn scatterRow[4][4];        // [log2 element size][IndexKind]
  ScatterRowFn scatterRowNarrowed[4];   // [log2 element size]: over narrowed indices (uint16_t)
  GatherBlocksFn gatherBlocks[2][4];    // [streamed][IndexKind]
  FirstBadFn firstBad[4];               // [IndexKind]
  NarrowIndicesFn narrowIndices[4];     // [IndexKind]
  StreamCopyFn streamCopy;
  StreamFenceFn streamFence;
  // float16 reductions converting in hardware (F16C in avx2 and avx512, FCVT in neon64),
  // [Reduction - 1] and [Reduction - 1][IndexKind]; nullptr elsewhere: the generic folds
  // (cpu/reductions.cc).
  CombineFn halfCombine[4];
  FoldRowFn halfFoldRow[4][4];
};

// Int32, Int64, UInt32, UInt64 -> 0..3 (the order of the tables above).
inline uint32_t IndexKind(DataType type) {
  switch (type) {
    case DataType::Int32: return 0;
    case DataType::Int64: return 1;
    case DataType::UInt32: return 2;
    default: return 3;
  }
}

inline uint32_t ElementSizeLog2(uint32_t size) { return size == 1 ? 0 : size == 2 ? 1 : size == 4 ? 2 : 3; }

// The kernels of a supported set (a plan's plan.cpu.kernelSet).
const KernelTable& KernelsOf(KernelSet set);

}  // namespace gs::cpu
