// What every GPU pass reads besides the plan (its thread count and dispatch row, the element and
// index encodings; all decided by plan/gpu_dispatch.cc), and the numbers the kernels and the
// host must agree on. Compiled as C++ and as HLSL (gpu/hlsl/common.hlsli), like
// plan_constants.h. Include guards, not #pragma once: glslang does not know it.
#ifndef GS_GPU_CONSTANTS_H
#define GS_GPU_CONSTANTS_H

#ifdef __cplusplus
#include <cstdint>
#define GS_QUAD(a, b, c, d) uint32_t a; uint32_t b; uint32_t c; uint32_t d;
namespace gs::plan {
#else
#define GS_QUAD(a, b, c, d) uint4 a##_##b##_##c##_##d;
#endif

// Kinds of element the reductions combine (the bits move unchanged otherwise).
#define GS_KIND_UNSIGNED 0
#define GS_KIND_SIGNED 1
#define GS_KIND_FLOAT 2

// gs::Reduction's values (plan/gpu_dispatch.cc checks them).
#define GS_REDUCTION_NONE 0
#define GS_REDUCTION_ADD 1
#define GS_REDUCTION_MULTIPLY 2
#define GS_REDUCTION_MIN 3
#define GS_REDUCTION_MAX 4

// Threads per group: [numthreads] of every kernel, and the host's dispatch arithmetic.
#define GS_THREADS_PER_GROUP 64

// Words a thread takes in the passes that move words (plan/gpu_dispatch.cc, GpuItemsPerThread;
// gpu/hlsl/common.hlsli, THREAD_ITEMS): a thread then has that many loads in flight before its
// first store, where one a thread left a row's load waiting on its index. Packed gathers count
// words of 2 to 4 elements. Chosen on an H100 (perf/results/2026-11-26-h100-items-per-thread.md):
// 8 words of rows a thread ran slower than 4. The element kernels (gather, copy, winners of 1- to
// 8-byte elements) and the windowed variants take one: ScatterElements gained nothing on the
// H100, and their larger code cost CI minutes of lavapipe's compiler.
#define GS_ITEMS_PER_THREAD 4
#define GS_ITEMS_PER_THREAD_PACKED 4  // gather_packed.hlsl's 32-bit words
#define GS_ITEMS_PER_THREAD_PACKED_WIDE 2  // its 16-byte words

// The large element gathers' and line scatters' kernels (gather_large.hlsl,
// gather_packed_large.hlsl, gather_packed_wide_large.hlsl and their *_quads forms,
// scatter_line_groups_large.hlsl; plan/gpu_dispatch.h, kGpuLargeElements): groups of
// GS_LARGE_GROUP_THREADS, and GatherLarge's elements GS_ITEMS_PER_THREAD_GATHER_LARGE a thread,
// lane l of a group its elements l, l + GS_LARGE_GROUP_THREADS, ...
#define GS_LARGE_GROUP_THREADS 256
#define GS_ITEMS_PER_THREAD_GATHER_LARGE 16

// Views of one buffer bound per tensor and per scatter list, each a window of
// PassConstants::viewElements. HLSL cannot loop over registers: gpu/hlsl/common.hlsli writes
// each window's register out and stops the build when these change without it.
#define GS_TENSOR_WINDOWS 8
#define GS_LIST_WINDOWS 4

// The status words (gpu/d3d12/record.cc starts them and reads them back): the first bad flat
// position (GS_NO_BAD_INDEX before validation), that index's low and high words, a scatter's list
// too long for its fold, and the groups of a reporting validation that have finished.
#define GS_STATUS_FIRST_BAD 0
#define GS_STATUS_VALUE_LOW 1
#define GS_STATUS_VALUE_HIGH 2
#define GS_STATUS_LIST_TOO_LONG 3
#define GS_STATUS_GROUPS_DONE 4
#define GS_STATUS_WORDS 5

// No bad index found (the status word's value before validation).
#define GS_NO_BAD_INDEX 0xffffffffu
// A checked gather met a bad index but has not placed it: the validation that follows then
// runs and puts the first bad flat position in its place (every position is smaller).
#define GS_BAD_INDEX_MET 0xfffffffeu

// PassConstants::checked: unchecked; checked; or, for the validation after a checked gather,
// checked only when the gather met a bad index (the indices are read again only then).
#define GS_UNCHECKED 0
#define GS_CHECKED 1
#define GS_CHECKED_IF_MET 2

struct PassConstants {
  GS_QUAD(threadCount,  // items of work (one a thread, or GS_ITEMS_PER_THREAD); the rest return
          rowWidth,     // threads per dispatch row (groups in X times the group size)
          checked,      // GS_UNCHECKED, GS_CHECKED or GS_CHECKED_IF_MET
          reduction)    // GS_REDUCTION_*
  GS_QUAD(index64,      // indices are 64-bit (two R32 words each)
          indexSigned,  // negative indices count from the end
          dataKind,     // GS_KIND_*
          elementBytes)
  GS_QUAD(listLimit,     // scatters: most updates one output element may receive
          viewElements,  // elements of each view window (GS_TENSOR_WINDOWS, GS_LIST_WINDOWS)
          stepsInnermost,  // packed gathers: a word's elements lie in one run of the innermost dim
          reportsBadIndex)  // validation: its last group to finish also reports the bad index's value
  GS_QUAD(claimShift,  // overwrites by claims: a destination's claim word is its first element >> this
          spare0, spare1, spare2)  // (the block stays whole 16-byte registers)
};

#ifdef __cplusplus
static_assert(sizeof(PassConstants) == 4 * 16, "PassConstants layout");
}  // namespace gs::plan
#endif
#undef GS_QUAD
#endif  // GS_GPU_CONSTANTS_H
