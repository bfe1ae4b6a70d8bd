// GPU decisions for a plan: which passes run, how many threads each, the dispatch shape, and
// whether the D3D12 path can run the plan at all. Pure, like the rest of the plan compiler;
// the D3D12 host only records what this returns.
#pragma once

#include <cstdint>
#include <string>

#include "plan/hlsl_shared/gpu_constants.h"  // PassConstants, GS_THREADS_PER_GROUP, GS_*_WINDOWS
#include "plan/plan.h"

namespace gs::plan {

// The kernels of gpu/hlsl, one file each (plan/gpu_kernels.def).
enum class GpuKernel : uint32_t {
#define GS_GPU_KERNEL(name, file) name,
#include "plan/gpu_kernels.def"
#undef GS_GPU_KERNEL
};
// Their files' names (gpu/hlsl/<name>.hlsl), by GpuKernel.
inline constexpr const char* kGpuKernelFiles[] = {
#define GS_GPU_KERNEL(name, file) #file,
#include "plan/gpu_kernels.def"
#undef GS_GPU_KERNEL
};
inline constexpr uint32_t kGpuKernelCount = sizeof kGpuKernelFiles / sizeof kGpuKernelFiles[0];
// A schedule runs each kernel at most once.
inline constexpr uint32_t kMaxGpuPasses = kGpuKernelCount;

inline constexpr uint32_t kGpuThreadsPerGroup = GS_THREADS_PER_GROUP;  // [numthreads] of every kernel
inline constexpr uint32_t kGpuMaxGroupsPerDim = 65535;  // D3D12's dispatch limit per dimension
// A typed buffer view holds at most 2^27 elements (D3D12, and Vulkan texel buffers on lavapipe
// and NVIDIA).
inline constexpr uint64_t kGpuViewElementLimit = uint64_t{1} << 27;
// Each tensor is bound as kGpuTensorWindows views of its buffer, consecutive windows of the
// view limit, and each scatter list (one word per output element or per update) as
// kGpuListWindows (gpu/hlsl/common.hlsli): larger ones answer Unsupported.
inline constexpr uint32_t kGpuTensorWindows = GS_TENSOR_WINDOWS;
inline constexpr uint32_t kGpuListWindows = GS_LIST_WINDOWS;
// A scatter with a reduction folds each output element's updates on one thread, walking its
// list: more updates on one element than this and the run answers Unsupported (lavapipe stops
// an invocation's loops after 65535 iterations in all; the walks take about twice this many).
// Overwrites (reduction NONE) claim their destinations instead and walk nothing: no limit.
inline constexpr uint32_t kGpuMaxUpdatesPerElement = 16384;
// A checked gather's validation (after the gather, only when it met a bad index) runs a thread
// per this many Indices elements, each walking its strided share: a clean call then dispatches
// a few threads that read the status and return, not one per index (lavapipe's loop limit,
// above, stays far away).
inline constexpr uint32_t kGpuValidationElementsPerThread = 256;
// A scatter's validation (first, always) runs a thread per this many, each loading them all
// before it checks one (gpu/hlsl/validate.hlsl): a thread per index made a quarter of a million
// small groups for 16M indices, and checked ScatterElements ran 0.86 of unchecked on the H100.
inline constexpr uint32_t kGpuScatterValidationElementsPerThread = 4;

// A validation of at most this many threads reports the bad index's value itself, its last
// group to finish doing it (gpu/hlsl/validation.hlsli, ReportIfLastGroup): a gather's always (it
// is the last pass), a scatter's where the groups counting themselves done on one word (an
// atomic each) cost less than the one-thread pass and barrier they save; a longer one has
// report_bad_index.hlsl after it.
inline constexpr uint64_t kGpuSelfReportingValidationThreads = uint64_t{1024} * GS_THREADS_PER_GROUP;

// Element overwrites run by lines of updates where there are at least kGpuMinScatterLines lines
// or a line is at most kGpuShortScatterLine long, and no line is longer than kGpuMaxScatterLine:
// lavapipe ends an invocation's loops after 65535 iterations, and a real driver's watchdog a
// long dispatch. A short line takes a thread (gpu/hlsl/scatter_lines.hlsl), a longer one a group
// (scatter_line_groups.hlsl): 4096 threads walking 4096 updates each left an H100's cores idle.
inline constexpr uint64_t kGpuMinScatterLines = 2048;
inline constexpr uint64_t kGpuShortScatterLine = 64;
inline constexpr uint64_t kGpuMaxScatterLine = 16384;

struct GpuPass {
  GpuKernel kernel = GpuKernel::Gather;  // run as its variant for constants.elementBytes
  uint32_t threads = 0;  // items of work (GpuItemsPerThread a thread)
  uint32_t groupsX = 0, groupsY = 0;
  uint32_t rowWidth = 0;  // threads per row of groups: thread = y * rowWidth + x
  // A scatter's copy in wider words than the other passes: it binds a second table of views,
  // Input and Output in GpuSchedule::copyBytes words.
  bool copyViews = false;
  // What the pass's kernel reads besides the plan (these counts, the checking, the element and
  // index encodings, the view window): the host copies it as it is.
  PassConstants constants = {};
};

struct GpuSchedule {
  uint32_t passCount = 0;
  GpuPass passes[kMaxGpuPasses];
  // Scatters: a list head per Output element of its extent, or an overwrite's claim per
  // destination (its first Output element or word >> PassConstants::claimShift).
  uint64_t listHeadElements = 0;
  uint64_t listNextElements = 0;  // scatters that walk lists: one link per Updates element; else 0
  bool windowed = false;  // a tensor or list spans more than one view: the kernels pick windows
  // What the passes read of Input, Updates and Output (but see outputBytes): elements of this
  // many bytes, the plan's own or, for a gather or an overwrite scatter whose blocks hold whole
  // 16-, 8- or 4-byte words, those words (a load and a store a thread each), walked as `walk`
  // says: the plan's walk in those words.
  uint32_t elementBytes = 0;
  // Output's view word: elementBytes, or the 16- or 4-byte word a gather packs its narrower
  // elements in (GatherPackedWordBytes).
  uint32_t outputBytes = 0;
  KernelConstants walk = {};
  // A scatter's Input -> Output copy: in 16-byte words where plan.copy and both views' starts
  // hold them (the pass has copyViews when elementBytes is narrower), else in elementBytes;
  // `copy` is plan.copy in those words.
  uint32_t copyBytes = 0;
  CopyConstants copy = {};
  uint64_t viewWindow = 0;  // elements of each view window (Indices and lists: 32-bit words)
  // The large packed gather reads a word's indices 16 bytes a load (IndicesInQuads): the host
  // binds Indices a second time, as 16-byte words, in Updates' view registers (a gather has no
  // Updates).
  bool indexQuads = false;
};

struct GpuOptions {
  bool checked = true;
  bool inPlace = false;  // scatters: Output bound to Input's buffer: no copy pass
  uint64_t viewElementLimit = kGpuViewElementLimit;  // elements of one view window, a multiple of 16
  // Where each tensor starts in its buffer (bytes, by TensorRole): a view of wider words must
  // start on one.
  uint64_t offsets[kTensorRoleCount] = {};
};

// The bytes a gather moves a thread: the widest word of 16, 8 or 4 bytes, wider than its
// element, that its block, every stride that moves a block (walked and indexed) and both
// views' starts hold whole; else its element size. Overwrite scatters likewise, where the
// copy's block and strides and the starts of Input, Updates and Output hold the word too;
// scatters with a reduction: their element size.
uint32_t GatherWordBytes(const Plan& plan, const uint64_t* offsets);

// The word of Output a gather writes a thread with its elements packed (GatherPackedWide: 16
// bytes, GatherPacked: 4), else 0 (one element, or one of GatherWordBytes' words, a thread):
// the widest word wider than its element, of at most 4 elements, where no wider word holds its
// blocks (GatherWordBytes
// is its element size) and its walk writes Output densely in row-major order from a start
// aligned to the word, in whole words, so every byte a word covers is one of its elements (none
// of the caller's bytes shares a word). ScheduleGpuPasses does not pack large gathers of 4-byte
// elements whose reads lie far apart (IndexedReachBytes).
uint32_t GatherPackedWordBytes(const Plan& plan, const uint64_t* offsets);

// How far apart in bytes two units' reads of the indexed tensor may lie: the offset the largest
// index of each tuple component adds.
uint64_t IndexedReachBytes(const Plan& plan);

// Element gathers (units of one element) and element scatters by line groups of at least
// kGpuLargeElements (not windowed) run the *Large kernels: groups of GS_LARGE_GROUP_THREADS, and
// gathers of 4-byte elements whose reads reach past kGpuNearReadBytes a thread an element,
// GS_ITEMS_PER_THREAD_GATHER_LARGE a thread (GatherLarge), rather than packed. The large packed
// kernels take only words that step the innermost dim with one index component: they have that
// walk in their code, with no division and no loop over the tuple an element. On an H100
// (perf/results/2026-11-27-h100-groups.md) groups of 256 ran 16M-element f32 gathers within
// 16 KiB rows 1.33x faster, f16 1.12x and ScatterElements 1.5x (every kernel at 256 there), and
// elements 16 a thread across 64 MiB 1.38x; reaches between the two are unmeasured. Small
// dispatches keep groups of 64: lavapipe (CI's device) runs every thread of a group, and its GPU
// tests took twice as long with 256.
inline constexpr uint64_t kGpuLargeElements = uint64_t{1} << 20;
inline constexpr uint64_t kGpuNearReadBytes = 64 * 1024;

// Whether a large packed gather (words that step the innermost dim, PackedWordsStepInnermost)
// can read each word's indices as whole 16-byte words (GatherPacked*LargeQuads): Indices starts
// on 16 bytes, is contiguous along the innermost dim, every other dim moves it by whole 16-byte
// words, and a word's indices fill whole 16-byte words. The other packed kernels load indices 32
// bits at a time, lane after lane a word's index bytes apart: for 1-byte elements and 64-bit
// indices each load of a warp looks up 32 sectors of 32 bytes and uses 4 bytes of each. 16-byte
// loads take a quarter of the loads and of the lookups.
bool IndicesInQuads(const Plan& plan, const uint64_t* offsets, uint32_t elementsPerWord);

// Threads a group of the kernel's: kGpuThreadsPerGroup, or GS_LARGE_GROUP_THREADS (*Large).
uint32_t GpuGroupThreads(GpuKernel kernel);

// Whether a packed gather's words each lie in one run of the innermost walked dim (blocks of one
// element, that dim's size a multiple of the elements a word): the kernel then seeks the first
// element's unit only and steps the innermost strides for the others.
bool PackedWordsStepInnermost(const KernelConstants& walk, uint32_t elementsPerWord);

// The smallest view limit (a multiple of 16) with which the plan's tensors and lists fit their
// windows, each tensor at the start of its buffer (as ExecuteOnHost binds them: a gather's
// widest word); the plan runs when this is at most GpuOptions::viewElementLimit.
uint64_t SmallestGpuViewLimit(const Plan& plan);

// The passes in the order they run. Returns an empty string when the plan can run, else
// why the D3D12 path cannot run it (the caller reports StatusCode::Unsupported).
std::string ScheduleGpuPasses(const Plan& plan, const GpuOptions& options, GpuSchedule* schedule);

// Items (elements or words) a thread of the kernel takes (gpu/hlsl/common.hlsli, THREAD_ITEMS):
// GS_ITEMS_PER_THREAD* for the passes that move words (row gathers, packed gathers, a scatter's
// copy and winners in 16-byte words) in their variants without view windows, else one.
uint32_t GpuItemsPerThread(GpuKernel kernel, bool windowed);

// One pass's dispatch for a number of items (at least one group), GpuItemsPerThread a thread;
// its constants hold the counts only (ScheduleGpuPasses adds the rest).
GpuPass MakeGpuPass(GpuKernel kernel, uint32_t threads, bool windowed);

}  // namespace gs::plan
