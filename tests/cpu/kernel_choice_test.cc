// Which kernel set a process runs: the best this machine supports, or the one GS_CPU_KERNELS
// names. ctest runs this once per set of GS_TEST_KERNEL_SETS, so the case-file runs that name a
// set through the same variable are known to have run on it (an unsupported name would fall
// back to the best set without a word).
#include <cstdlib>

#include <gtest/gtest.h>

#include "cpu/kernel_set.h"

namespace {

using gs::cpu::KernelSet;

TEST(KernelChoice, TheEnvironmentsSetOrElseTheBestSupported) {
  const std::vector<KernelSet> supported = gs::cpu::SupportedKernelSets();
  ASSERT_FALSE(supported.empty());
  EXPECT_EQ(supported.front(), KernelSet::Scalar);
  if (const char* name = std::getenv("GS_CPU_KERNELS")) {
    KernelSet named;
    ASSERT_TRUE(gs::cpu::ParseKernelSet(name, &named)) << "GS_CPU_KERNELS=" << name;
    EXPECT_TRUE(gs::cpu::KernelSetSupported(named)) << name << " is not built or not supported";
    EXPECT_STREQ(gs::cpu::KernelSetName(gs::cpu::ActiveKernelSet()), name);
  } else {
    EXPECT_EQ(gs::cpu::ActiveKernelSet(), supported.back());
  }
}

#if defined(__aarch64__)
TEST(KernelChoice, Arm64RunsNeon64) {
  EXPECT_TRUE(gs::cpu::KernelSetSupported(KernelSet::Neon64));
  if (std::getenv("GS_CPU_KERNELS") == nullptr) {
    EXPECT_EQ(gs::cpu::ActiveKernelSet(), KernelSet::Neon64);
  }
}
#endif

}  // namespace
