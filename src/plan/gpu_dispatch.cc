#include "plan/gpu_dispatch.h"

#include <algorithm>

namespace gs::plan {
namespace {

// Kernels count threads, offsets and list links in 32 bits, with all ones as "none".
constexpr uint64_t kMaxThreads = 0xffffffffull;

uint64_t ElementsOfView(const TensorView& view) {
  return view.totalSizeInBytes / ElementSizeInBytes(view.dataType);
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
  return pass;
}

std::string ScheduleGpuPasses(const Plan& plan, const GpuOptions& options, GpuSchedule* schedule) {
  *schedule = GpuSchedule();
  for (uint32_t r = 0; r < kTensorRoleCount; ++r) {
    const TensorView& view = plan.tensors[r];
    if (!view.present) continue;
    // Indices are read as 32-bit words, two per 64-bit index.
    const uint64_t viewElements = static_cast<TensorRole>(r) == TensorRole::Indices
                                      ? view.totalSizeInBytes / 4
                                      : ElementsOfView(view);
    if (viewElements > options.viewElementLimit) {
      return std::string(TensorRoleName(static_cast<TensorRole>(r))) + " spans " +
             std::to_string(viewElements) + " elements of one buffer view, more than the " +
             std::to_string(options.viewElementLimit) +
             " the D3D12 path binds (windows over larger tensors are not implemented yet)";
    }
  }
  const KernelConstants& k = plan.kernel;
  const uint64_t walked = k.unitCount * k.blockElements;
  const uint64_t outputExtent = plan.tensor(TensorRole::Output).extentElements;
  if (walked >= kMaxThreads || outputExtent >= kMaxThreads ||
      plan.validation.elementCount >= kMaxThreads) {
    return "more than 2^32 - 2 elements in one tensor";
  }

  auto add = [&](GpuKernel kernel, uint64_t threads) {
    schedule->passes[schedule->passCount++] = MakeGpuPass(kernel, static_cast<uint32_t>(threads));
  };
  if (options.checked) {
    add(GpuKernel::Validate, plan.validation.elementCount);
    add(GpuKernel::ReportBadIndex, 1);
  }
  if (!plan.isScatter) {
    add(GpuKernel::Gather, walked);
    return {};
  }
  add(GpuKernel::ClearLists, outputExtent);
  add(GpuKernel::ScatterLink, walked);
  add(GpuKernel::ScatterOrder, walked);
  if (!options.inPlace) add(GpuKernel::Copy, plan.copy.unitCount * plan.copy.blockElements);
  add(GpuKernel::ScatterCombine, outputExtent);
  schedule->listHeadElements = outputExtent;
  schedule->listNextElements = walked;
  return {};
}

}  // namespace gs::plan
