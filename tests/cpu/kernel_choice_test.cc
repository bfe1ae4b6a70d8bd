// Which kernel set a process runs: the best this machine supports, or the one GS_CPU_KERNELS
// names. ctest runs this once per set of GS_TEST_KERNEL_SETS, so the case-file runs that name a
// set through the same variable are known to have run on it (an unsupported name would fall
// back to the best set without a word).
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "cpu/kernel_set.h"
#include "cpu/machine.h"

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

#if defined(__linux__) && defined(__x86_64__)
// The avx2 set's word gathers follow the core, read here from the kernel's /proc/cpuinfo rather
// than CPUID: AMD family 19h with avx512f or 1Ah on (Zen 4 and later), Intel with avx_vnni
// (Alder Lake, Sapphire Rapids and later). Tuple rows hint 32 offsets at a time on Intel, 128
// elsewhere.
TEST(KernelChoice, WordGathersAndHintedOffsetsAsMeasuredOnEachCore) {
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line, vendor, flags;
  int family = -1;
  while (std::getline(cpuinfo, line) && (vendor.empty() || family < 0 || flags.empty())) {
    const std::string key = line.substr(0, line.find(':'));
    const std::string value = line.find(':') == std::string::npos ? "" : line.substr(line.find(':') + 1);
    if (key.rfind("vendor_id", 0) == 0) std::istringstream(value) >> vendor;
    if (key.rfind("cpu family", 0) == 0) std::istringstream(value) >> family;
    if (key.rfind("flags", 0) == 0) flags = value + " ";
  }
  if (vendor.empty() || flags.empty()) GTEST_SKIP() << "/proc/cpuinfo names no vendor or flags";
  const auto has = [&](const char* flag) { return flags.find(std::string(" ") + flag + " ") != std::string::npos; };
  const bool expected = vendor == "GenuineIntel"   ? has("avx_vnni")
                        : vendor == "AuthenticAMD" ? family >= 0x1a || (family == 0x19 && has("avx512f"))
                                                   : false;
  EXPECT_EQ(gs::cpu::ThisMachine().avx2WordGathers, expected) << vendor << " family " << family;
  EXPECT_EQ(gs::cpu::ThisMachine().hintedOffsets, vendor == "GenuineIntel" ? 32u : 128u) << vendor;
}
#endif

#if defined(__aarch64__)
TEST(KernelChoice, Arm64RunsNeon64) {
  EXPECT_TRUE(gs::cpu::KernelSetSupported(KernelSet::Neon64));
  if (std::getenv("GS_CPU_KERNELS") == nullptr) {
    EXPECT_EQ(gs::cpu::ActiveKernelSet(), KernelSet::Neon64);
  }
}
#endif

}  // namespace
