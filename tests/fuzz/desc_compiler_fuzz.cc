// Fuzzes CompileOperator with arbitrary descs: it must never crash, and it must accept exactly
// the descs that the independent predicate (spec_predicate.h) accepts. A rejection must be
// InvalidArgument with a message that starts with the operator's name.
#include <fuzzer/FuzzedDataProvider.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "gs/gs.h"
#include "owned_desc.h"
#include "plan/gpu_dispatch.h"
#include "reference.h"
#include "spec_predicate.h"

namespace {

// Mostly small values, so that the shape rules can line up; sometimes a power of two up to
// 4096 (large calls that still compile: the GPU schedule's large kernels); sometimes anything.
uint32_t SmallOrAny(FuzzedDataProvider& in, uint32_t smallLimit) {
  const uint8_t pick = in.ConsumeIntegral<uint8_t>();
  if (pick < 200) return pick % (smallLimit + 1);
  if (pick < 220) return 1u << (pick % 13);
  if (pick < 240) return in.ConsumeIntegral<uint32_t>();
  return UINT32_MAX - pick % 8;  // near the top: products overflow
}

// A tensor: its sizes are new, or another tensor's with at most one size changed, so that
// valid descs are easy to reach; strides absent, small or anything; the byte size exactly the
// view's, one byte short, or anything.
void ReadTensor(FuzzedDataProvider& in, const std::vector<gs_reference::OwnedTensor*>& earlier,
                gs_reference::OwnedTensor* t) {
  t->type = static_cast<gs::DataType>(SmallOrAny(in, 11));
  const uint8_t shape = in.ConsumeIntegral<uint8_t>();
  if (shape < 128 && !earlier.empty()) {
    t->sizes = earlier[shape % earlier.size()]->sizes;
    if (!t->sizes.empty() && (shape & 64)) {
      t->sizes[in.ConsumeIntegral<uint8_t>() % t->sizes.size()] = SmallOrAny(in, 5);
    }
  } else {
    t->sizes.resize(std::min(SmallOrAny(in, 9), 9u));  // beyond 8 is just as wrong as 9
    for (auto& s : t->sizes) s = SmallOrAny(in, 5);
  }
  t->strides.clear();
  if (in.ConsumeBool()) {
    t->strides.resize(t->sizes.size());
    for (auto& s : t->strides) s = SmallOrAny(in, 40);
  }
  const uint64_t minimum = [&] {
    gs::TensorDesc d = t->Desc();
    const uint32_t bytes = gs_reference::ElementSize(t->type);
    if (bytes == 0 || d.DimensionCount == 0 || d.DimensionCount > 8) return uint64_t{0};
    unsigned __int128 extent = 1, packed = 1;
    for (uint32_t i = d.DimensionCount; i-- > 0;) {
      const uint64_t stride = d.Strides ? d.Strides[i] : static_cast<uint64_t>(packed);
      extent += (unsigned __int128)(d.Sizes[i] == 0 ? 0 : d.Sizes[i] - 1) * stride;
      packed *= d.Sizes[i];
      if (packed >> 64) return ~uint64_t{0};
    }
    extent *= bytes;
    return extent >> 64 ? ~uint64_t{0} : static_cast<uint64_t>(extent);
  }();
  switch (in.ConsumeIntegral<uint8_t>() % 4) {
    case 0: t->total_bytes = minimum - (minimum > 0); break;
    case 1: t->total_bytes = in.ConsumeIntegral<uint64_t>(); break;
    default: t->total_bytes = minimum + in.ConsumeIntegral<uint8_t>() % 4; break;
  }
}

// The D3D12 path schedules every operator it is given (gpu/d3d12/record.cc): for any compiled
// desc, checking, binding and view window, scheduling gives passes or a reason, never a crash,
// every item of a pass has a thread, and the large gathers get only the walks their kernels
// have compiled in (gather_large.hlsl, gather_packed_large.hlsl).
void ScheduleOnGpu(const gs::plan::Plan& plan, FuzzedDataProvider& in) {
  namespace gp = gs::plan;
  gp::GpuOptions options;
  options.checked = in.ConsumeBool();
  options.inPlace = plan.isScatter && in.ConsumeBool();
  const uint8_t window = in.ConsumeIntegral<uint8_t>();
  if (window < 128) options.viewElementLimit = 16 * (uint64_t{1} << (window % 24));
  for (uint64_t& offset : options.offsets) {
    const uint8_t at = in.ConsumeIntegral<uint8_t>();
    offset = at < 128 ? 0 : at < 224 ? uint64_t{plan.elementSize} << (at % 5) : at % 64;
  }
  gp::GpuSchedule schedule;
  if (!gp::ScheduleGpuPasses(plan, options, &schedule).empty()) return;
  bool fine = schedule.passCount <= gp::kMaxGpuPasses;
  for (uint32_t i = 0; fine && i < schedule.passCount; ++i) {
    const gp::GpuPass& pass = schedule.passes[i];
    const uint64_t slots = uint64_t{pass.groupsX} * pass.groupsY * gp::GpuGroupThreads(pass.kernel) *
                           gp::GpuItemsPerThread(pass.kernel, schedule.windowed);
    fine = pass.threads > 0 && pass.groupsX > 0 && pass.groupsY > 0 && slots >= pass.threads;
    const gp::KernelConstants& walk = schedule.walk;
    if (pass.kernel == gp::GpuKernel::GatherLarge) fine = fine && walk.blockElements == 1;
    const bool quads = pass.kernel == gp::GpuKernel::GatherPackedLargeQuads ||
                       pass.kernel == gp::GpuKernel::GatherPackedWideLargeQuads;
    if (quads || pass.kernel == gp::GpuKernel::GatherPackedLarge || pass.kernel == gp::GpuKernel::GatherPackedWideLarge) {
      fine = fine && walk.tupleSize == 1 &&
             gp::PackedWordsStepInnermost(walk, schedule.outputBytes / schedule.elementBytes);
    }
    // 16-byte loads of a word's indices: each word's first index on 16 bytes, the word's indices
    // whole 16-byte words.
    if (quads) {
      const uint64_t perWord = schedule.outputBytes / schedule.elementBytes;
      fine = fine && schedule.indexQuads && !schedule.windowed &&
             options.offsets[static_cast<uint32_t>(gp::TensorRole::Indices)] % 16 == 0 &&
             perWord * plan.indexSize % 16 == 0 && walk.indexStrides[walk.rank - 1] == 1;
      for (uint32_t d = 0; d + 1 < walk.rank; ++d) {
        fine = fine && (walk.sizes[d] <= 1 || walk.indexStrides[d] * plan.indexSize % 16 == 0);
      }
    }
    if (i == 0 && !quads) fine = fine && !schedule.indexQuads;
  }
  if (!fine) {
    std::fprintf(stderr, "a GPU schedule leaves work without threads or runs a walk its kernel lacks (%u passes)\n",
                 schedule.passCount);
    std::abort();
  }
}

}  // namespace

// make_desc_seeds.py writes seeds in this order of reads: change both together.
extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzedDataProvider in(data, size);
  gs_reference::OwnedOperator op;
  const uint8_t type = in.ConsumeIntegral<uint8_t>();
  op.type = static_cast<gs::OperatorType>(type < 250 ? type % 6 : type);  // now and then unknown
  op.axis = SmallOrAny(in, 8);
  op.index_dimensions = SmallOrAny(in, 8);
  op.input_dims = SmallOrAny(in, 8);
  op.indices_dims = SmallOrAny(in, 8);
  op.batch_dims = SmallOrAny(in, 8);
  op.reduction = static_cast<gs::Reduction>(SmallOrAny(in, 5));
  std::vector<gs_reference::OwnedTensor*> earlier;
  for (auto* t : {&op.input, &op.indices, &op.updates, &op.output}) {
    ReadTensor(in, earlier, t);
    earlier.push_back(t);
  }
  gs::OperatorDesc desc = op.Desc();
  // Null pointers where descs have them: the whole desc, a tensor, or a tensor's Sizes.
  const uint8_t nulls = in.ConsumeIntegral<uint8_t>();
  if (nulls == 255) desc.Desc = nullptr;
  if (nulls >= 244 && nulls < 255 && desc.Desc != nullptr) {
    const gs::TensorDesc** tensor = nullptr;
    auto pick = [&](auto* d) { tensor = nulls % 2 ? &d->IndicesTensor : &d->InputTensor; };
    void* d = const_cast<void*>(desc.Desc);
    switch (desc.Type) {
      case gs::OperatorType::Gather: pick(static_cast<gs::GatherOperatorDesc*>(d)); break;
      case gs::OperatorType::GatherElements: pick(static_cast<gs::GatherElementsOperatorDesc*>(d)); break;
      case gs::OperatorType::GatherNd: pick(static_cast<gs::GatherNdOperatorDesc*>(d)); break;
      case gs::OperatorType::GatherNd1: pick(static_cast<gs::GatherNd1OperatorDesc*>(d)); break;
      case gs::OperatorType::ScatterElements: pick(static_cast<gs::ScatterElementsOperatorDesc*>(d)); break;
      case gs::OperatorType::ScatterNd: pick(static_cast<gs::ScatterNdOperatorDesc*>(d)); break;
    }
    if (tensor != nullptr && nulls < 248) *tensor = nullptr;
    if (tensor != nullptr && nulls >= 248) const_cast<gs::TensorDesc*>(*tensor)->Sizes = nullptr;
  }

  bool decided = true;
  const bool expected = gs_fuzz::SpecAcceptsDesc(desc, &decided);
  gs::CompiledOperator compiled;
  const gs::Status status = gs::CompileOperator(desc, &compiled);
  const bool known = static_cast<uint32_t>(desc.Type) < 6;
  bool fine = (status.ok() == expected || !decided) && compiled.valid() == status.ok();
  if (!status.ok()) {
    fine = fine && status.code() == gs::StatusCode::InvalidArgument && !status.message().empty();
    if (known) {
      const std::string name = gs_reference::OperatorName(desc.Type);
      fine = fine && status.message().compare(0, name.size() + 2, name + ": ") == 0;
    }
  }
  if (!fine) {
    std::fprintf(stderr, "desc compiler disagrees with the spec predicate (spec says %s):\n%s\n%s: %s\n",
                 expected ? "accept" : "reject",
                 desc.Desc ? gs_reference::DescribeOperator(desc).c_str() : "(null desc)",
                 gs::StatusCodeName(status.code()), status.message().c_str());
    std::abort();
  }
  if (status.ok()) ScheduleOnGpu(*compiled.plan(), in);
  return 0;
}
