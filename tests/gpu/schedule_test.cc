// The plan's GPU decisions (src/plan/gpu_dispatch): which passes run in which order, the
// dispatch shape, and Unsupported beyond the view windows.
#include <gtest/gtest.h>

#include "gs/gs.h"
#include "plan/gpu_dispatch.h"

namespace {

using gs::plan::GpuKernel;

gs::CompiledOperator Scatter(gs::Reduction reduction, uint32_t elements) {
  const uint32_t sizes[] = {elements};
  static gs::TensorDesc data, indices;
  data = {gs::DataType::Float32, 1, nullptr, nullptr, elements * 4ull};
  indices = {gs::DataType::Int64, 1, nullptr, nullptr, elements * 8ull};
  data.Sizes = indices.Sizes = sizes;
  const gs::ScatterElementsOperatorDesc desc{&data, &indices, &data, &data, 0, reduction};
  gs::CompiledOperator op;
  EXPECT_TRUE(gs::CompileOperator({gs::OperatorType::ScatterElements, &desc}, &op).ok());
  return op;
}

std::vector<GpuKernel> Kernels(const gs::plan::GpuSchedule& s) {
  std::vector<GpuKernel> kernels;
  for (uint32_t i = 0; i < s.passCount; ++i) kernels.push_back(s.passes[i].kernel);
  return kernels;
}

TEST(GpuSchedule, ScatterPassesInOrder) {
  const gs::CompiledOperator op = Scatter(gs::Reduction::Add, 1000);
  gs::plan::GpuSchedule s;
  gs::plan::GpuOptions checked;
  ASSERT_EQ(gs::plan::ScheduleGpuPasses(*op.plan(), checked, &s), "");
  // The copy comes after the order step, which may abandon the run (a list too long).
  EXPECT_EQ(Kernels(s), (std::vector<GpuKernel>{GpuKernel::Validate, GpuKernel::ReportBadIndex,
                                                GpuKernel::ClearLists, GpuKernel::ScatterLink,
                                                GpuKernel::ScatterOrder, GpuKernel::Copy,
                                                GpuKernel::ScatterCombine}));
  EXPECT_EQ(s.listHeadElements, 1000u);
  EXPECT_EQ(s.listNextElements, 1000u);

  gs::plan::GpuOptions inPlaceUnchecked;
  inPlaceUnchecked.checked = false;
  inPlaceUnchecked.inPlace = true;
  const gs::CompiledOperator none = Scatter(gs::Reduction::None, 1000);
  ASSERT_EQ(gs::plan::ScheduleGpuPasses(*none.plan(), inPlaceUnchecked, &s), "");
  EXPECT_EQ(Kernels(s), (std::vector<GpuKernel>{GpuKernel::ClearLists, GpuKernel::ScatterLink,
                                                GpuKernel::ScatterOrder, GpuKernel::ScatterCombine}));
}

TEST(GpuSchedule, DispatchShapeCoversEveryThreadWithinTheGroupLimit) {
  const gs::plan::GpuPass small = gs::plan::MakeGpuPass(GpuKernel::Gather, 65);
  EXPECT_EQ(small.groupsX, 2u);
  EXPECT_EQ(small.groupsY, 1u);
  EXPECT_EQ(small.rowWidth, 128u);
  const uint32_t threads = 65535u * 64u * 3u + 5u;
  const gs::plan::GpuPass large = gs::plan::MakeGpuPass(GpuKernel::Gather, threads);
  EXPECT_EQ(large.groupsX, 65535u);
  EXPECT_EQ(large.groupsY, 4u);
  EXPECT_GE(uint64_t{large.groupsX} * large.groupsY * 64, threads);
}

// 1000 Float32 elements and 2000 index words: the tensors fit 8 windows and the lists
// (1000 words each) 4 windows of 250 elements, and no fewer.
TEST(GpuSchedule, BeyondTheWindowsIsUnsupported) {
  const gs::CompiledOperator op = Scatter(gs::Reduction::None, 1000);
  gs::plan::GpuOptions options;
  gs::plan::GpuSchedule s;
  options.viewElementLimit = 2000;  // everything in the first view: the kernels without windows
  EXPECT_EQ(gs::plan::ScheduleGpuPasses(*op.plan(), options, &s), "");
  EXPECT_FALSE(s.windowed);
  options.viewElementLimit = 1999;
  EXPECT_EQ(gs::plan::ScheduleGpuPasses(*op.plan(), options, &s), "");
  EXPECT_TRUE(s.windowed);
  options.viewElementLimit = 250;
  EXPECT_EQ(gs::plan::ScheduleGpuPasses(*op.plan(), options, &s), "");
  EXPECT_TRUE(s.windowed);
  options.viewElementLimit = 249;
  EXPECT_EQ(gs::plan::ScheduleGpuPasses(*op.plan(), options, &s),
            "IndicesTensor (in 32-bit words) spans 2000 elements, more than the 8 buffer views of "
            "249 elements (1992) the D3D12 path binds for it");
  EXPECT_EQ(gs::plan::SmallestGpuViewLimit(*op.plan()), 256u);  // 250 rounded up to 16
}

}  // namespace
