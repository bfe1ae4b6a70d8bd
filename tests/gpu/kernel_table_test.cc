// The compiled kernels against the C++ side's numbers (src/plan/hlsl_shared, gpu_dispatch.h,
// the root signature in gpu/d3d12/pipelines.h), read from the embedded SPIR-V itself: the group
// size every dispatch assumes, and the registers every kernel binds. HLSL writes the window
// registers out by hand (gpu/hlsl/common.hlsli); this fails when they and the C++ constants part.
#include <gtest/gtest.h>

#include <cstring>
#include <set>
#include <string>
#include <vector>

#include "d3d12/kernel_bytecode.h"
#include "d3d12/pipelines.h"
#include "plan/gpu_dispatch.h"

namespace {

using gs::d3d12::KernelBytecode;
using gs::plan::GpuKernel;
using gs::plan::kGpuListWindows;
using gs::plan::kGpuTensorWindows;

// glslc's register mapping (gpu/CMakeLists.txt): binding = base of the class + register.
constexpr uint32_t kSrvBase = 0, kUavBase = 1000, kCbvBase = 2000;
constexpr uint32_t kStatusUav = kUavBase + kGpuTensorWindows;  // after Output's windows
constexpr uint32_t kListsUav = kStatusUav + 1;                  // heads, next, order, source

struct SpirvFacts {
  std::vector<uint32_t> localSize;  // OpExecutionMode LocalSize x, y, z
  std::set<uint32_t> bindings;      // OpDecorate Binding
};

SpirvFacts Read(const KernelBytecode& code) {
  std::vector<uint32_t> words(code.size / 4);
  std::memcpy(words.data(), code.data, words.size() * 4);
  SpirvFacts facts;
  EXPECT_GE(words.size(), 5u);
  EXPECT_EQ(words[0], 0x07230203u) << "not SPIR-V";
  constexpr uint32_t kOpExecutionMode = 16, kLocalSize = 17, kOpDecorate = 71, kBinding = 33;
  for (size_t i = 5; i < words.size();) {
    const uint32_t count = words[i] >> 16, opcode = words[i] & 0xffff;
    if (count == 0 || i + count > words.size()) {
      ADD_FAILURE() << "malformed instruction at word " << i;
      break;
    }
    if (opcode == kOpExecutionMode && count == 6 && words[i + 2] == kLocalSize) {
      facts.localSize.assign(words.begin() + i + 3, words.begin() + i + 6);
    }
    if (opcode == kOpDecorate && count == 4 && words[i + 2] == kBinding) facts.bindings.insert(words[i + 3]);
    i += count;
  }
  return facts;
}

std::set<uint32_t> Range(uint32_t first, uint32_t count) {
  std::set<uint32_t> range;
  for (uint32_t i = 0; i < count; ++i) range.insert(first + i);
  return range;
}

std::string Name(const KernelBytecode& code) {
  return std::string(gs::plan::kGpuKernelFiles[static_cast<uint32_t>(code.kernel)]) + ".hlsl, " +
         std::to_string(code.elementBytes) + "-byte elements" + (code.windowed ? ", windowed" : "");
}

TEST(KernelTable, EveryKernelRunsTheGroupSizeThePlanDispatches) {
  for (const KernelBytecode& code : gs::d3d12::kKernelBytecode) {
    EXPECT_EQ(Read(code).localSize, (std::vector<uint32_t>{gs::plan::kGpuThreadsPerGroup, 1, 1})) << Name(code);
  }
}

// Every binding lies in the root signature's table (or is its root CBV b0), and the windowed
// kernels together bind every slot of it: HLSL declares as many registers as C++ binds views.
TEST(KernelTable, KernelsBindExactlyTheRootSignaturesRegisters) {
  std::set<uint32_t> table = Range(kSrvBase, gs::d3d12::kSrvCount);
  const std::set<uint32_t> uavs = Range(kUavBase, gs::d3d12::kUavCount);
  table.insert(uavs.begin(), uavs.end());
  table.insert(kCbvBase);
  std::set<uint32_t> windowedUnion;
  for (const KernelBytecode& code : gs::d3d12::kKernelBytecode) {
    const std::set<uint32_t> bindings = Read(code).bindings;
    EXPECT_TRUE(bindings.count(kCbvBase)) << Name(code) << " reads no constants";
    for (uint32_t binding : bindings) EXPECT_TRUE(table.count(binding)) << Name(code) << " binds " << binding;
    if (code.windowed) windowedUnion.insert(bindings.begin(), bindings.end());
  }
  EXPECT_EQ(windowedUnion, table);
}

// Window w of a tensor or list is register first + w: the host writes the views in that order
// (gpu/d3d12/descriptors.cc), kGpuTensorWindows per tensor and kGpuListWindows per list.
TEST(KernelTable, WindowsAreTheConsecutiveRegistersThePlanCounts) {
  for (const bool windowed : {false, true}) {
    const uint32_t tensorViews = windowed ? kGpuTensorWindows : 1, listViews = windowed ? kGpuListWindows : 1;
    // Gather: Input (t0...), Indices (after Input's windows), Output (u0...), the status.
    std::set<uint32_t> gather = Range(kSrvBase, tensorViews);
    for (uint32_t b : Range(kSrvBase + kGpuTensorWindows, tensorViews)) gather.insert(b);
    for (uint32_t b : Range(kUavBase, tensorViews)) gather.insert(b);
    gather.insert({kStatusUav, kCbvBase});
    EXPECT_EQ(Read(gs::d3d12::BytecodeFor(GpuKernel::Gather, 4, windowed)).bindings, gather) << windowed;
    // Link: Indices, the status, list heads and next links (the first two lists).
    std::set<uint32_t> link = Range(kSrvBase + kGpuTensorWindows, tensorViews);
    for (uint32_t b : Range(kListsUav, listViews)) link.insert(b);
    for (uint32_t b : Range(kListsUav + kGpuListWindows, listViews)) link.insert(b);
    link.insert({kStatusUav, kCbvBase});
    EXPECT_EQ(Read(gs::d3d12::BytecodeFor(GpuKernel::ScatterLink, 4, windowed)).bindings, link) << windowed;
  }
}

}  // namespace
