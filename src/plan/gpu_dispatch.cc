#include "plan/gpu_dispatch.h"

#include <algorithm>

namespace gs::plan {
namespace {

// Kernels count threads, offsets and list links in 32 bits, with all ones as "none".
constexpr uint64_t kMaxThreads = 0xffffffffull;

// Elements each tensor binds, its view's span in elements of elementBytes (Indices in 32-bit
// words, two per 64-bit index); 0 when absent. Bytes of the buffer past the span are never bound.
uint64_t ViewElements(const Plan& plan, TensorRole role, uint32_t elementBytes) {
  const TensorView& view = plan.tensor(role);
  if (!view.present) return 0;
  return ViewSpanInBytes(view) / (role == TensorRole::Indices ? 4 : elementBytes);
}

// The plan's walk in words of `factor` elements (GatherWordBytes holds them whole). A stride
// of a dim of size one never moves: 0.
KernelConstants WalkInWords(const KernelConstants& k, uint64_t factor) {
  KernelConstants w = k;
  w.blockElements = k.blockElements / factor;
  for (uint64_t d = 0; d < k.rank; ++d) {
    w.iterStrides[d] = k.sizes[d] > 1 ? k.iterStrides[d] / factor : 0;
    w.dataStrides[d] = k.sizes[d] > 1 ? k.dataStrides[d] / factor : 0;
  }
  for (uint64_t c = 0; c < k.tupleSize; ++c) {
    w.indexedStrides[c] = k.indexedSizes[c] > 1 ? k.indexedStrides[c] / factor : 0;
  }
  return w;
}

bool HoldsWholeWords(const KernelConstants& k, uint64_t factor) {
  bool whole = k.blockElements % factor == 0;
  for (uint64_t d = 0; d < k.rank; ++d) {
    whole = whole && (k.sizes[d] <= 1 || (k.iterStrides[d] % factor == 0 && k.dataStrides[d] % factor == 0));
  }
  for (uint64_t c = 0; c < k.tupleSize; ++c) {
    whole = whole && (k.indexedSizes[c] <= 1 || k.indexedStrides[c] % factor == 0);
  }
  return whole;
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

// Overwrite scatters need one claim word per Output element and no per-update list.
bool OverwritesWithoutLists(const Plan& plan) { return plan.reduction == Reduction::None; }

// Words of the scatter scratch lists' largest: a head per Output element, and for the list
// walk a link per update element.
uint64_t ScatterListElements(const Plan& plan) {
  const uint64_t extent = plan.tensor(TensorRole::Output).extentElements;
  if (OverwritesWithoutLists(plan)) return extent;
  return std::max(extent, plan.walk.unitCount * plan.walk.blockElements);
}

}  // namespace

GpuPass MakeGpuPass(GpuKernel kernel, uint32_t threads) {
  GpuPass pass;
  pass.kernel = kernel;
  pass.threads = threads;
  const uint64_t groups = std::max<uint64_t>(1, (uint64_t{threads} + kGpuThreadsPerGroup - 1) / kGpuThreadsPerGroup);
  pass.groupsX = static_cast<uint32_t>(std::min<uint64_t>(groups, kGpuMaxGroupsPerDim));
  pass.groupsY = static_cast<uint32_t>((groups + pass.groupsX - 1) / pass.groupsX);
  pass.rowWidth = pass.groupsX * kGpuThreadsPerGroup;
  pass.constants.threadCount = pass.threads;
  pass.constants.rowWidth = pass.rowWidth;
  return pass;
}

uint32_t GatherWordBytes(const Plan& plan, const uint64_t* offsets) {
  const uint64_t inputStart = offsets[static_cast<uint32_t>(TensorRole::Input)];
  const uint64_t outputStart = offsets[static_cast<uint32_t>(TensorRole::Output)];
  if (plan.isScatter) return plan.elementSize;
  for (uint32_t word : {16u, 8u, 4u}) {
    if (word <= plan.elementSize) break;
    if (inputStart % word == 0 && outputStart % word == 0 && HoldsWholeWords(plan.walk, word / plan.elementSize)) {
      return word;
    }
  }
  return plan.elementSize;
}

bool GatherPacksWords(const Plan& plan, const uint64_t* offsets) {
  if (plan.isScatter || plan.elementSize >= 4 || GatherWordBytes(plan, offsets) != plan.elementSize) return false;
  const uint64_t walked = plan.walk.unitCount * plan.walk.blockElements;
  return offsets[static_cast<uint32_t>(TensorRole::Output)] % 4 == 0 && walked % (4 / plan.elementSize) == 0 &&
         WalksDensely(plan.walk);
}

uint64_t SmallestGpuViewLimit(const Plan& plan) {
  const uint64_t atTheStart[kTensorRoleCount] = {};
  const uint32_t elementBytes = GatherWordBytes(plan, atTheStart);
  uint64_t limit = 16;
  for (uint32_t r = 0; r < kTensorRoleCount; ++r) {
    limit = std::max(limit, WindowFor(ViewElements(plan, static_cast<TensorRole>(r), elementBytes), kGpuTensorWindows));
  }
  if (plan.isScatter) limit = std::max(limit, WindowFor(ScatterListElements(plan), kGpuListWindows));
  return limit;
}

std::string ScheduleGpuPasses(const Plan& plan, const GpuOptions& options, GpuSchedule* schedule) {
  *schedule = GpuSchedule();
  const uint32_t elementBytes = GatherWordBytes(plan, options.offsets);
  schedule->elementBytes = elementBytes;
  const bool packs = GatherPacksWords(plan, options.offsets);
  schedule->outputBytes = packs ? 4 : elementBytes;
  schedule->walk = elementBytes == plan.elementSize ? plan.walk : WalkInWords(plan.walk, elementBytes / plan.elementSize);
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
  const uint64_t lists = plan.isScatter ? ScatterListElements(plan) : 0;
  if (lists > window * kGpuListWindows) {
    return tooLarge(OverwritesWithoutLists(plan) ? "a scatter's claim words (one per Output element)"
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
    return "more than 2^32 - 2 elements in one tensor";
  }

  // A pass with no thread to run is not dispatched: an empty call dispatches nothing.
  auto add = [&](GpuKernel kernel, uint64_t threads) {
    if (threads > 0) schedule->passes[schedule->passCount++] = MakeGpuPass(kernel, static_cast<uint32_t>(threads));
  };
  const bool validate = options.checked && plan.validation.elementCount > 0;
  if (!plan.isScatter) {
    // Checked gathers validate as they go: the gather marks that it met a bad index, and only
    // then does the validation read the indices again to place the first one (an empty
    // output reads none, so there it always runs), a few threads each walking a strided share.
    if (packs) {
      add(GpuKernel::GatherPacked, walked / (4 / elementBytes));
    } else {
      add(elementBytes == 16 ? GpuKernel::GatherWide : GpuKernel::Gather, walked);
    }
    if (validate) {
      const uint64_t share = kGpuValidationElementsPerThread;
      add(GpuKernel::Validate, (plan.validation.elementCount + share - 1) / share);
      add(GpuKernel::ReportBadIndex, 1);
    }
    SetEncodings(plan, options, schedule);
    if (walked > 0) schedule->passes[0].constants.elementBytes = elementBytes;
    if (walked > 0 && validate) schedule->passes[1].constants.checked = GS_CHECKED_IF_MET;
    return {};
  }
  // Scatters stay all or nothing: the validation runs first.
  if (validate) {
    add(GpuKernel::Validate, plan.validation.elementCount);
    add(GpuKernel::ReportBadIndex, 1);
  }
  const uint64_t copied = options.inPlace ? 0 : plan.copy.unitCount * plan.copy.blockElements;
  schedule->listHeadElements = outputExtent;
  if (OverwritesWithoutLists(plan)) {
    // The last update of each destination claims it (InterlockedMax of the unit's number on
    // its destination's head word), then only the claimed units write: no list, no walk.
    const uint64_t units = walked > 0 ? k.unitCount : 0;
    add(GpuKernel::ScatterClearClaims, units);
    add(GpuKernel::ScatterClaim, units);
    add(GpuKernel::Copy, copied);
    add(GpuKernel::ScatterWinners, walked);
  } else {
    // Reductions fold each destination's updates in row-major order, walking its list.
    add(GpuKernel::ClearLists, outputExtent);
    add(GpuKernel::ScatterLink, walked);
    add(GpuKernel::ScatterOrder, walked);
    add(GpuKernel::Copy, copied);
    add(GpuKernel::ScatterCombine, outputExtent);
    schedule->listNextElements = walked;
  }
  SetEncodings(plan, options, schedule);
  return {};
}

}  // namespace gs::plan
