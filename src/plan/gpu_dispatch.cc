#include "plan/gpu_dispatch.h"

#include <algorithm>

namespace gs::plan {
namespace {

// Kernels count items, offsets and list links in 32 bits, with all ones as "none"; a thread's
// last item (FirstItem in gpu/hlsl/common.hlsli) must not wrap.
constexpr uint64_t kMaxThreads = 0xffffffffull - kGpuThreadsPerGroup * GS_ITEMS_PER_THREAD;

// An overwrite's claim words are cleared all at once (clear_lists: 4 coalesced bytes a word)
// when there are at most this many a unit, else only the targeted ones (scatter_clear_claims:
// a unit's index read and a scattered 4-byte store, a 32-byte memory sector, each): clearing
// all costs less up to about 10 words a unit; 4 leaves a margin.
constexpr uint64_t kClearAllClaimsPerUnit = 4;

// Elements each tensor binds, its view's span in elements of elementBytes (Indices in 32-bit
// words, two per 64-bit index); 0 when absent. Bytes of the buffer past the span are never bound.
uint64_t ViewElements(const Plan& plan, TensorRole role, uint32_t elementBytes) {
  const TensorView& view = plan.tensor(role);
  if (!view.present) return 0;
  return ViewSpanInBytes(view) / (role == TensorRole::Indices ? 4 : elementBytes);
}

// Strides in words of `factor` elements, of the dims of these sizes. A stride of a dim of size
// one never moves: 0.
void StridesInWords(const uint64_t* sizes, uint64_t rank, uint64_t factor, uint64_t* strides) {
  for (uint64_t d = 0; d < rank; ++d) strides[d] = sizes[d] > 1 ? strides[d] / factor : 0;
}

// Every stride that moves (its dim's size above one) is whole words of `factor` elements.
bool StridesHoldWords(const uint64_t* sizes, uint64_t rank, const uint64_t* strides, uint64_t factor) {
  bool whole = true;
  for (uint64_t d = 0; d < rank; ++d) whole = whole && (sizes[d] <= 1 || strides[d] % factor == 0);
  return whole;
}

// The plan's walk in words of `factor` elements (GatherWordBytes holds them whole).
KernelConstants WalkInWords(const KernelConstants& k, uint64_t factor) {
  KernelConstants w = k;
  w.blockElements = k.blockElements / factor;
  StridesInWords(k.sizes, k.rank, factor, w.iterStrides);
  StridesInWords(k.sizes, k.rank, factor, w.dataStrides);
  StridesInWords(k.indexedSizes, k.tupleSize, factor, w.indexedStrides);
  return w;
}

bool HoldsWholeWords(const KernelConstants& k, uint64_t factor) {
  return k.blockElements % factor == 0 && StridesHoldWords(k.sizes, k.rank, k.iterStrides, factor) &&
         StridesHoldWords(k.sizes, k.rank, k.dataStrides, factor) &&
         StridesHoldWords(k.indexedSizes, k.tupleSize, k.indexedStrides, factor);
}

// plan.copy (a scatter's Input -> Output copy) likewise: its block and every stride that moves it.
CopyConstants CopyInWords(const CopyConstants& c, uint64_t factor) {
  CopyConstants w = c;
  w.blockElements = c.blockElements / factor;
  StridesInWords(c.sizes, c.rank, factor, w.srcStrides);
  StridesInWords(c.sizes, c.rank, factor, w.dstStrides);
  return w;
}

bool CopyHoldsWholeWords(const CopyConstants& c, uint64_t factor) {
  return c.blockElements % factor == 0 && StridesHoldWords(c.sizes, c.rank, c.srcStrides, factor) &&
         StridesHoldWords(c.sizes, c.rank, c.dstStrides, factor);
}

// Overwrite scatters move words as gathers do where the update walk, the copy and the views of
// Input, Updates and Output all hold them whole: each destination unit is then whole words, so
// a claim per Output word (its first) stands for the unit as a claim per element did.
// Reductions combine elements: their own size.
uint32_t ScatterWordBytes(const Plan& plan, const uint64_t* offsets) {
  if (plan.reduction != Reduction::None) return plan.elementSize;
  for (uint32_t word : {16u, 8u, 4u}) {
    if (word <= plan.elementSize) break;
    const uint64_t factor = word / plan.elementSize;
    bool whole = HoldsWholeWords(plan.walk, factor) && CopyHoldsWholeWords(plan.copy, factor);
    for (TensorRole role : {TensorRole::Input, TensorRole::Updates, TensorRole::Output}) {
      whole = whole && offsets[static_cast<uint32_t>(role)] % word == 0;
    }
    if (whole) return word;
  }
  return plan.elementSize;
}

// A scatter's copy moves 16-byte words wherever plan.copy and the starts of Input and Output
// hold them, whatever the other passes move (a ScatterElements walks single elements; a
// reduction combines them); else the schedule's words.
uint32_t CopyWordBytes(const Plan& plan, const uint64_t* offsets, uint32_t elementBytes) {
  const bool whole = CopyHoldsWholeWords(plan.copy, 16 / plan.elementSize) &&
                     offsets[static_cast<uint32_t>(TensorRole::Input)] % 16 == 0 &&
                     offsets[static_cast<uint32_t>(TensorRole::Output)] % 16 == 0;
  return whole ? 16 : elementBytes;
}

// The walk writes its iterated tensor in row-major order without gaps: thread t's element at t.
bool WalksDensely(const KernelConstants& k) {
  uint64_t expected = k.blockElements;
  for (uint64_t d = k.rank; d-- > 0;) {
    if (k.sizes[d] > 1 && k.iterStrides[d] != expected) return false;
    expected *= k.sizes[d];
  }
  return true;
}

uint64_t WindowFor(uint64_t elements, uint32_t windows) {
  const uint64_t window = (elements + windows - 1) / windows;
  return std::max<uint64_t>(16, (window + 15) / 16 * 16);
}

// The kernels read PassConstants::reduction (Combine in gpu/hlsl/reductions.hlsli) as gs::Reduction.
static_assert(GS_REDUCTION_NONE == static_cast<uint32_t>(Reduction::None) &&
                  GS_REDUCTION_ADD == static_cast<uint32_t>(Reduction::Add) &&
                  GS_REDUCTION_MULTIPLY == static_cast<uint32_t>(Reduction::Multiply) &&
                  GS_REDUCTION_MIN == static_cast<uint32_t>(Reduction::Min) &&
                  GS_REDUCTION_MAX == static_cast<uint32_t>(Reduction::Max),
              "GS_REDUCTION_* are gs::Reduction's values");

// How the reductions read an element's bits (the other kernels move them unchanged).
uint32_t DataKind(DataType type) {
  switch (type) {
    case DataType::Float64:
    case DataType::Float32:
    case DataType::Float16: return GS_KIND_FLOAT;
    case DataType::Int64:
    case DataType::Int32:
    case DataType::Int16:
    case DataType::Int8: return GS_KIND_SIGNED;
    default: return GS_KIND_UNSIGNED;
  }
}

// Every pass's constants besides its counts: the same for all the passes of a schedule.
void SetEncodings(const Plan& plan, const GpuOptions& options, GpuSchedule* schedule) {
  for (uint32_t i = 0; i < schedule->passCount; ++i) {
    PassConstants& c = schedule->passes[i].constants;
    c.checked = options.checked ? GS_CHECKED : GS_UNCHECKED;
    c.reduction = static_cast<uint32_t>(plan.reduction);
    c.index64 = plan.indexSize == 8 ? 1 : 0;
    c.indexSigned = plan.indexSigned ? 1 : 0;
    c.dataKind = DataKind(plan.dataType);
    c.elementBytes = plan.elementSize;
    c.listLimit = kGpuMaxUpdatesPerElement;
    c.viewElements = static_cast<uint32_t>(schedule->viewWindow);
  }
}

// Overwrite scatters need one claim word per Output element (or per word of elementBytes) and
// no per-update list.
bool OverwritesWithoutLists(const Plan& plan) { return plan.reduction == Reduction::None; }

// Overwrites of elements whose index drives at most one walked dim: the updates along it (a
// line) reach only their own line of the Output, which does not overlap itself, so a thread (or
// a group) per line walking it in order writes each destination's last update last, with no
// claims (scatter_lines.hlsl, scatter_line_groups.hlsl). Where the lines are many, or short
// enough that a thread's walk is cheap, and never longer than kGpuMaxScatterLine. The lines go
// in *lines. Reductions keep their lists: a fold by lines compiled slowly on lavapipe (minutes
// of CI).
bool ScatterLines(const Plan& plan, uint64_t* lines) {
  const KernelConstants& k = plan.walk;
  if (!plan.isScatter || plan.reduction != Reduction::None || k.blockElements != 1 || k.tupleSize != 1) return false;
  uint64_t length = 1;
  uint32_t driven = 0;
  for (uint32_t d = 0; d < k.rank; ++d) {
    if (k.dataStrides[d] == 0) ++driven, length = k.sizes[d];
  }
  if (driven > 1 || length > kGpuMaxScatterLine) return false;
  *lines = k.unitCount / length;
  return *lines >= kGpuMinScatterLines || length <= kGpuShortScatterLine;
}

// An overwrite claims a word per destination, numbered by its first element (or word) shifted
// right by this much: every stride that moves a destination is a multiple of 2^shift, so every
// destination is too and no two share a claim word. Rows of 1 KiB then take a word a row, not
// one per 16-byte word of Output.
uint32_t ClaimShift(const KernelConstants& walk) {
  uint32_t shift = 31;
  const auto moves = [&shift](uint64_t size, uint64_t stride) {
    if (size > 1 && stride != 0) shift = std::min<uint32_t>(shift, static_cast<uint32_t>(__builtin_ctzll(stride)));
  };
  for (uint64_t d = 0; d < walk.rank; ++d) moves(walk.sizes[d], walk.dataStrides[d]);
  for (uint64_t c = 0; c < walk.tupleSize; ++c) moves(walk.indexedSizes[c], walk.indexedStrides[c]);
  return shift;
}

// The walk in words of elementBytes (GatherWordBytes holds them whole).
KernelConstants WalkInBytes(const Plan& plan, uint32_t elementBytes) {
  const uint64_t factor = elementBytes / plan.elementSize;
  return factor == 1 ? plan.walk : WalkInWords(plan.walk, factor);
}

// Words of the scatter scratch lists' largest: a head per Output element (an overwrite's claim
// per destination, ClaimShift), and for the list walk a link per update element; none for lines.
uint64_t ScatterListElements(const Plan& plan, uint32_t elementBytes) {
  uint64_t lines = 0;
  if (ScatterLines(plan, &lines)) return 0;
  const uint64_t extent = plan.tensor(TensorRole::Output).extentElements;
  if (OverwritesWithoutLists(plan)) {
    const uint64_t factor = elementBytes / plan.elementSize;
    const uint64_t words = (extent + factor - 1) / factor;
    return words == 0 ? 0 : ((words - 1) >> ClaimShift(WalkInBytes(plan, elementBytes))) + 1;
  }
  return std::max(extent, plan.walk.unitCount * plan.walk.blockElements);
}

}  // namespace

uint32_t GpuItemsPerThread(GpuKernel kernel, bool windowed) {
  if (windowed) return 1;
  switch (kernel) {
    case GpuKernel::GatherWide:
    case GpuKernel::ScatterCopyWide:
    case GpuKernel::ScatterWinnersWide: return GS_ITEMS_PER_THREAD;
    case GpuKernel::GatherPacked: return GS_ITEMS_PER_THREAD_PACKED;
    case GpuKernel::GatherPackedWide: return GS_ITEMS_PER_THREAD_PACKED_WIDE;
    case GpuKernel::GatherLarge: return GS_ITEMS_PER_THREAD_GATHER_LARGE;
    case GpuKernel::GatherPackedLarge:
    case GpuKernel::GatherPackedLargeQuads: return GS_ITEMS_PER_THREAD_PACKED;
    case GpuKernel::GatherPackedWideLarge:
    case GpuKernel::GatherPackedWideLargeQuads: return GS_ITEMS_PER_THREAD_PACKED_WIDE;
    default: return 1;
  }
}

uint32_t GpuGroupThreads(GpuKernel kernel) {
  switch (kernel) {
    case GpuKernel::GatherLarge:
    case GpuKernel::GatherPackedLarge:
    case GpuKernel::GatherPackedWideLarge:
    case GpuKernel::GatherPackedLargeQuads:
    case GpuKernel::GatherPackedWideLargeQuads:
    case GpuKernel::ScatterLineGroupsLarge: return GS_LARGE_GROUP_THREADS;
    default: return kGpuThreadsPerGroup;
  }
}

GpuPass MakeGpuPass(GpuKernel kernel, uint32_t threads, bool windowed) {
  GpuPass pass;
  pass.kernel = kernel;
  pass.threads = threads;
  const uint64_t perGroup = uint64_t{GpuGroupThreads(kernel)} * GpuItemsPerThread(kernel, windowed);
  const uint64_t groups = std::max<uint64_t>(1, (uint64_t{threads} + perGroup - 1) / perGroup);
  pass.groupsX = static_cast<uint32_t>(std::min<uint64_t>(groups, kGpuMaxGroupsPerDim));
  pass.groupsY = static_cast<uint32_t>((groups + pass.groupsX - 1) / pass.groupsX);
  pass.rowWidth = pass.groupsX * GpuGroupThreads(kernel);
  pass.constants.threadCount = pass.threads;
  pass.constants.rowWidth = pass.rowWidth;
  return pass;
}

uint32_t GatherWordBytes(const Plan& plan, const uint64_t* offsets) {
  const uint64_t inputStart = offsets[static_cast<uint32_t>(TensorRole::Input)];
  const uint64_t outputStart = offsets[static_cast<uint32_t>(TensorRole::Output)];
  if (plan.isScatter) return ScatterWordBytes(plan, offsets);
  for (uint32_t word : {16u, 8u, 4u}) {
    if (word <= plan.elementSize) break;
    if (inputStart % word == 0 && outputStart % word == 0 && HoldsWholeWords(plan.walk, word / plan.elementSize)) {
      return word;
    }
  }
  return plan.elementSize;
}

constexpr uint32_t kMaxElementsPerPackedWord = 4;

uint64_t IndexedReachBytes(const Plan& plan) {
  const KernelConstants& k = plan.walk;
  uint64_t reach = 0;
  for (uint32_t c = 0; c < k.tupleSize; ++c) {
    if (k.indexedSizes[c] > 0) reach += (k.indexedSizes[c] - 1) * k.indexedStrides[c];
  }
  return reach * plan.elementSize;
}

uint32_t GatherPackedWordBytes(const Plan& plan, const uint64_t* offsets) {
  if (plan.isScatter || GatherWordBytes(plan, offsets) != plan.elementSize || !WalksDensely(plan.walk)) return 0;
  const uint64_t walked = plan.walk.unitCount * plan.walk.blockElements;
  for (uint32_t word : {16u, 4u}) {
    if (word <= plan.elementSize) break;
    // A thread reads its elements' indices one after another, so a warp's index loads stride by
    // the elements of a word: past 4 a word the 32-bit words ran faster on an H100
    // (perf/results/2026-11-26-h100-gpu-words.md).
    if (word / plan.elementSize > kMaxElementsPerPackedWord) continue;
    if (offsets[static_cast<uint32_t>(TensorRole::Output)] % word == 0 && walked % (word / plan.elementSize) == 0) {
      return word;
    }
  }
  return 0;
}

bool IndicesInQuads(const Plan& plan, const uint64_t* offsets, uint32_t elementsPerWord) {
  const KernelConstants& k = plan.walk;
  if (k.rank == 0 || offsets[static_cast<uint32_t>(TensorRole::Indices)] % 16 != 0 ||
      elementsPerWord * plan.indexSize % 16 != 0) {
    return false;
  }
  // A word's indices are consecutive (it steps the innermost dim), and its first one starts on
  // 16 bytes: its innermost coordinate is a multiple of the word's elements, and every other dim
  // moves Indices by whole 16-byte words.
  const uint64_t inner = k.rank - 1;
  if (k.sizes[inner] > 1 && k.indexStrides[inner] != 1) return false;
  for (uint64_t d = 0; d < inner; ++d) {
    if (k.sizes[d] > 1 && k.indexStrides[d] * plan.indexSize % 16 != 0) return false;
  }
  return true;
}

bool PackedWordsStepInnermost(const KernelConstants& walk, uint32_t elementsPerWord) {
  return walk.blockElements == 1 && walk.rank > 0 && walk.sizes[walk.rank - 1] % elementsPerWord == 0;
}

uint64_t SmallestGpuViewLimit(const Plan& plan) {
  const uint64_t atTheStart[kTensorRoleCount] = {};
  const uint32_t elementBytes = GatherWordBytes(plan, atTheStart);
  uint64_t limit = 16;
  for (uint32_t r = 0; r < kTensorRoleCount; ++r) {
    limit = std::max(limit, WindowFor(ViewElements(plan, static_cast<TensorRole>(r), elementBytes), kGpuTensorWindows));
  }
  if (plan.isScatter) limit = std::max(limit, WindowFor(ScatterListElements(plan, elementBytes), kGpuListWindows));
  return limit;
}

std::string ScheduleGpuPasses(const Plan& plan, const GpuOptions& options, GpuSchedule* schedule) {
  *schedule = GpuSchedule();
  const uint32_t elementBytes = GatherWordBytes(plan, options.offsets);
  schedule->elementBytes = elementBytes;
  uint32_t packedWord = GatherPackedWordBytes(plan, options.offsets);
  schedule->walk = WalkInBytes(plan, elementBytes);
  if (plan.isScatter) {
    schedule->copyBytes = CopyWordBytes(plan, options.offsets, elementBytes);
    const uint64_t copyFactor = schedule->copyBytes / plan.elementSize;
    schedule->copy = copyFactor == 1 ? plan.copy : CopyInWords(plan.copy, copyFactor);
  }
  // 8-byte elements are written as two 32-bit words (gpu/hlsl/common.hlsli): half the elements
  // keep a view of Output within D3D12's limit.
  const uint64_t window =
      elementBytes == 8 ? std::min(options.viewElementLimit, kGpuViewElementLimit / 2) : options.viewElementLimit;
  schedule->viewWindow = window;
  auto tooLarge = [&](const std::string& what, uint64_t elements, uint32_t windows) {
    return what + " spans " + std::to_string(elements) + " elements, more than the " +
           std::to_string(windows) + " buffer views of " + std::to_string(window) +
           " elements (" + std::to_string(windows * window) + ") the D3D12 path binds for it";
  };
  for (uint32_t r = 0; r < kTensorRoleCount; ++r) {
    const TensorRole role = static_cast<TensorRole>(r);
    const uint64_t elements = ViewElements(plan, role, elementBytes);
    if (elements > window * kGpuTensorWindows) {
      return tooLarge(std::string(TensorRoleName(role)) + (role == TensorRole::Indices ? " (in 32-bit words)" : ""),
                      elements, kGpuTensorWindows);
    }
  }
  const uint64_t lists = plan.isScatter ? ScatterListElements(plan, elementBytes) : 0;
  if (lists > window * kGpuListWindows) {
    return tooLarge(OverwritesWithoutLists(plan) ? "a scatter's claim words (one per destination the Output may hold)"
                                                 : "a scatter scratch list (a word per Output element, per update)",
                    lists, kGpuListWindows);
  }
  schedule->windowed = lists > window;
  for (uint32_t r = 0; r < kTensorRoleCount; ++r) {
    schedule->windowed = schedule->windowed || ViewElements(plan, static_cast<TensorRole>(r), elementBytes) > window;
  }
  const KernelConstants& k = schedule->walk;
  const uint64_t walked = k.unitCount * k.blockElements;
  const uint64_t outputExtent = plan.tensor(TensorRole::Output).extentElements;
  if (walked >= kMaxThreads || outputExtent >= kMaxThreads ||
      plan.validation.elementCount >= kMaxThreads) {
    return "more than 2^32 - 257 elements in one tensor";
  }
  // Large element gathers run groups of GS_LARGE_GROUP_THREADS, and those of 4-byte elements
  // whose reads lie far apart a thread an element, many a thread, rather than packed.
  const bool largeWalk = !schedule->windowed && walked >= kGpuLargeElements;
  const bool largeElements = !plan.isScatter && largeWalk && k.blockElements == 1;
  if (largeElements && plan.elementSize == 4 && IndexedReachBytes(plan) > kGpuNearReadBytes) packedWord = 0;
  schedule->outputBytes = packedWord != 0 ? packedWord : elementBytes;

  // A pass with no thread to run is not dispatched: an empty call dispatches nothing.
  auto add = [&](GpuKernel kernel, uint64_t threads) {
    if (threads > 0) {
      schedule->passes[schedule->passCount++] = MakeGpuPass(kernel, static_cast<uint32_t>(threads), schedule->windowed);
    }
  };
  const bool validate = options.checked && plan.validation.elementCount > 0;
  if (!plan.isScatter) {
    // Checked gathers validate as they go: the gather marks that it met a bad index, and only
    // then does the validation read the indices again to place the first one (an empty
    // output reads none, so there it always runs), a few threads each walking a strided share;
    // its last group to finish reports the value.
    const uint32_t perWord = packedWord / elementBytes;
    const bool largePacked =
        largeElements && packedWord != 0 && k.tupleSize == 1 && PackedWordsStepInnermost(k, perWord);
    schedule->indexQuads = largePacked && IndicesInQuads(plan, options.offsets, perWord);
    if (packedWord == 16) {
      add(schedule->indexQuads ? GpuKernel::GatherPackedWideLargeQuads
          : largePacked        ? GpuKernel::GatherPackedWideLarge
                               : GpuKernel::GatherPackedWide,
          walked / perWord);
    } else if (packedWord != 0) {
      add(schedule->indexQuads ? GpuKernel::GatherPackedLargeQuads
          : largePacked        ? GpuKernel::GatherPackedLarge
                               : GpuKernel::GatherPacked,
          walked / perWord);
    } else if (elementBytes == 16) {
      add(GpuKernel::GatherWide, walked);
    } else {
      add(largeElements ? GpuKernel::GatherLarge : GpuKernel::Gather, walked);
    }
    if (validate) {
      const uint64_t share = kGpuValidationElementsPerThread;
      add(GpuKernel::Validate, (plan.validation.elementCount + share - 1) / share);
      schedule->passes[schedule->passCount - 1].constants.reportsBadIndex = 1;
    }
    SetEncodings(plan, options, schedule);
    if (walked > 0) schedule->passes[0].constants.elementBytes = elementBytes;
    if (walked > 0 && packedWord != 0) {
      schedule->passes[0].constants.stepsInnermost = PackedWordsStepInnermost(k, perWord) ? 1 : 0;
    }
    if (walked > 0 && validate) schedule->passes[1].constants.checked = GS_CHECKED_IF_MET;
    return {};
  }
  uint64_t lines = 0;
  const bool byLines = ScatterLines(plan, &lines);
  const bool claims = !byLines && OverwritesWithoutLists(plan);
  const uint64_t units = walked > 0 ? k.unitCount : 0;
  const bool clearAll = units > 0 && lists <= kClearAllClaimsPerUnit * units;
  // Scatters stay all or nothing: the validation runs first, a thread per index. Where the
  // claims clear only the words their units target, the same pass clears them (a claim word is
  // scratch: clearing it before every index is known to be good writes nothing of the caller's).
  const bool clearsWithValidation = validate && claims && units > 0 && !clearAll;
  if (validate) {
    const uint64_t share = kGpuScatterValidationElementsPerThread;
    const uint64_t threads = clearsWithValidation ? std::max(plan.validation.elementCount, units)
                                                  : (plan.validation.elementCount + share - 1) / share;
    add(clearsWithValidation ? GpuKernel::ScatterValidateClearClaims : GpuKernel::Validate, threads);
    if (threads <= kGpuSelfReportingValidationThreads) {
      schedule->passes[schedule->passCount - 1].constants.reportsBadIndex = 1;
    } else {
      add(GpuKernel::ReportBadIndex, 1);
    }
  }
  const uint64_t copied = options.inPlace ? 0 : schedule->copy.unitCount * schedule->copy.blockElements;
  const bool wide = elementBytes == 16;
  const GpuKernel copyKernel = schedule->copyBytes == 16 ? GpuKernel::ScatterCopyWide : GpuKernel::Copy;
  if (byLines) {
    add(copyKernel, copied);
    // A line longer than a short one takes a group of threads (scatter_line_groups.hlsl).
    const bool lineGroups = walked > 0 && k.unitCount / lines > kGpuShortScatterLine;
    const GpuKernel linesKernel = !lineGroups                                            ? GpuKernel::ScatterLines
                                  : largeWalk                                          ? GpuKernel::ScatterLineGroupsLarge
                                                                                       : GpuKernel::ScatterLineGroups;
    add(linesKernel, walked == 0 ? 0 : lineGroups ? lines * GpuGroupThreads(linesKernel) : lines);
  } else if (claims) {
    // The last update of each destination claims it (InterlockedMin of its number's complement
    // on the claim word of its destination's first element or word), then only the claimed
    // units write: no list, no walk.
    schedule->listHeadElements = lists;
    if (!clearsWithValidation) {
      add(clearAll ? GpuKernel::ClearLists : GpuKernel::ScatterClearClaims, clearAll ? lists : units);
    }
    add(GpuKernel::ScatterClaim, units);
    add(copyKernel, copied);
    add(wide ? GpuKernel::ScatterWinnersWide : GpuKernel::ScatterWinners, walked);
  } else {
    // Reductions fold each destination's updates in row-major order, walking its list.
    schedule->listHeadElements = outputExtent;
    add(GpuKernel::ClearLists, outputExtent);
    add(GpuKernel::ScatterLink, walked);
    add(GpuKernel::ScatterOrder, walked);
    add(copyKernel, copied);
    add(GpuKernel::ScatterCombine, outputExtent);
    schedule->listNextElements = walked;
  }
  SetEncodings(plan, options, schedule);
  // The passes that move elements move the schedule's words (the claims read none), the copy
  // its own.
  const uint32_t claimShift = claims ? ClaimShift(k) : 0;
  for (uint32_t i = 0; i < schedule->passCount; ++i) {
    GpuPass& pass = schedule->passes[i];
    if (pass.kernel == GpuKernel::ScatterWinners || pass.kernel == GpuKernel::ScatterWinnersWide ||
        pass.kernel == GpuKernel::ScatterLines || pass.kernel == GpuKernel::ScatterLineGroups ||
        pass.kernel == GpuKernel::ScatterLineGroupsLarge) {
      pass.constants.elementBytes = elementBytes;
    }
    pass.constants.claimShift = claimShift;
    if (pass.kernel == copyKernel) {
      pass.constants.elementBytes = schedule->copyBytes;
      pass.copyViews = schedule->copyBytes != elementBytes;
    }
  }
  return {};
}

}  // namespace gs::plan
