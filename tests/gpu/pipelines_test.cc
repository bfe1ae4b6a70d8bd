// Every embedded DXBC kernel becomes a compute pipeline on this machine's D3D12 runtime with
// the root signature the host binds: vkd3d 1.2 on Linux, and under Wine (the windows preset)
// Wine's own d3d12, a second, newer DXBC reader.
#include <gtest/gtest.h>

#include <string>

#include "d3d12/kernel_bytecode.h"
#include "d3d12/pipelines.h"
#include "d3d12/platform.h"
#include "gpu_test_environment.h"

namespace {

TEST(Pipelines, EveryKernelVariantIsAcceptedWithTheRootSignature) {
  gs_gpu_test::ChooseLavapipeUnlessSet();
  std::string error;
  gs::d3d12::ComPtr<ID3D12Device> device = gs::d3d12::CreateDefaultDevice(&error);
  ASSERT_TRUE(device) << error;
  gs::d3d12::Pipelines pipelines;
  ASSERT_EQ(pipelines.Init(device.get()), "");
  for (const gs::d3d12::KernelBytecode& code : gs::d3d12::kKernelBytecode) {
    error.clear();
    EXPECT_NE(pipelines.Get(code.kernel, code.elementBytes, code.windowed, &error), nullptr) << error;
  }
}

}  // namespace
