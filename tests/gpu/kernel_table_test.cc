// The compiled kernels against the C++ side's numbers (src/plan/hlsl_shared, gpu_dispatch.h,
// the root signature in gpu/d3d12/pipelines.h), read from the embedded DXBC itself: each a whole
// container with its checksum (a runtime refuses one that is not), shader model cs_5_0, the
// group size every dispatch assumes, and the registers every kernel binds. HLSL writes the
// window registers out by hand (gpu/hlsl/common.hlsli); this fails when they and the C++
// constants part, or when a blob in gpu/dxbc was damaged.
#include <gtest/gtest.h>

#include <cstring>
#include <set>
#include <string>
#include <vector>

#include "d3d12/kernel_bytecode.h"
#include "d3d12/pipelines.h"
#include "dxbc_checksum.h"
#include "plan/gpu_dispatch.h"

namespace {

using gs::d3d12::KernelBytecode;
using gs::plan::GpuKernel;
using gs::plan::kGpuListWindows;
using gs::plan::kGpuTensorWindows;

// A register as one number: base of its class + register (t, u, b).
constexpr uint32_t kSrvBase = 0, kUavBase = 1000, kCbvBase = 2000;
constexpr uint32_t kStatusUav = kUavBase + kGpuTensorWindows;  // after Output's windows
constexpr uint32_t kListsUav = kStatusUav + 1;                  // heads, next, order, source

struct DxbcFacts {
  uint32_t shaderVersion = 0;       // SHDR/SHEX's version token
  std::vector<uint32_t> localSize;  // dcl_thread_group x, y, z
  std::set<uint32_t> bindings;      // RDEF's resource bindings
};

uint32_t Word(const std::vector<uint8_t>& bytes, size_t at) {
  uint32_t w = 0;
  if (at + 4 <= bytes.size()) std::memcpy(&w, bytes.data() + at, 4);
  return w;
}

// The container's chunks (header: "DXBC", checksum, 1, size, count, offsets), as far as they
// are whole; a malformed one is a test failure.
DxbcFacts Read(const KernelBytecode& code) {
  const auto* data = static_cast<const uint8_t*>(code.data);
  const std::vector<uint8_t> bytes(data, data + code.size);
  DxbcFacts facts;
  if (bytes.size() < 32 || std::memcmp(bytes.data(), "DXBC", 4) != 0) {
    ADD_FAILURE() << "not DXBC";
    return facts;
  }
  EXPECT_EQ(Word(bytes, 20), 1u) << "container version";
  EXPECT_EQ(Word(bytes, 24), bytes.size()) << "container size";
  const uint32_t chunks = Word(bytes, 28);
  for (uint32_t c = 0; c < chunks; ++c) {
    const uint32_t at = Word(bytes, 32 + 4 * c), size = Word(bytes, at + 4);
    if (32 + 4 * c + 4 > bytes.size() || uint64_t{at} + 8 + size > bytes.size()) {
      ADD_FAILURE() << "chunk " << c << " lies outside the container";
      return facts;
    }
    const std::string tag(reinterpret_cast<const char*>(bytes.data() + at), 4);
    const size_t body = at + 8;
    if (tag == "RDEF") {
      const uint32_t count = Word(bytes, body + 8), table = Word(bytes, body + 12);
      for (uint32_t b = 0; b < count; ++b) {
        const size_t entry = body + table + 32 * b;  // shader model 5.0: 8 words per binding
        const uint32_t type = Word(bytes, entry + 4), point = Word(bytes, entry + 20);
        EXPECT_EQ(Word(bytes, entry + 24), 1u) << "a register array";
        if (type == 0) facts.bindings.insert(kCbvBase + point);       // D3D_SIT_CBUFFER
        else if (type == 2) facts.bindings.insert(kSrvBase + point);  // D3D_SIT_TEXTURE (typed buffer)
        else if (type == 4) facts.bindings.insert(kUavBase + point);  // D3D_SIT_UAV_RWTYPED
        else ADD_FAILURE() << "resource type " << type;
      }
    } else if (tag == "SHDR" || tag == "SHEX") {
      facts.shaderVersion = Word(bytes, body);
      const size_t end = body + 4 * size_t{Word(bytes, body + 4)};
      constexpr uint32_t kDclThreadGroup = 155, kCustomData = 53;
      for (size_t i = body + 8; i < end && i < bytes.size();) {
        const uint32_t token = Word(bytes, i), opcode = token & 0x7ff;
        const uint32_t length = opcode == kCustomData ? Word(bytes, i + 4) : (token >> 24) & 0x7f;
        if (length == 0) {
          ADD_FAILURE() << "malformed instruction at byte " << i;
          break;
        }
        if (opcode == kDclThreadGroup) facts.localSize = {Word(bytes, i + 4), Word(bytes, i + 8), Word(bytes, i + 12)};
        i += 4 * size_t{length};
      }
    }
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

TEST(KernelTable, EveryKernelCarriesItsChecksum) {
  for (const KernelBytecode& code : gs::d3d12::kKernelBytecode) {
    EXPECT_TRUE(gs::test::DxbcChecksumHolds(code.data, code.size)) << Name(code) << ": damaged (gpu/dxbc)";
  }
}

// The check itself: one flipped bit anywhere past the checksum, or in it, is caught.
TEST(KernelTable, ChecksumCatchesAFlippedBit) {
  const KernelBytecode& code = gs::d3d12::BytecodeFor(GpuKernel::Gather, 4, false);
  for (const size_t at : {size_t{4}, size_t{20}, code.size / 2, code.size - 1}) {
    std::vector<uint8_t> copy(static_cast<const uint8_t*>(code.data), static_cast<const uint8_t*>(code.data) + code.size);
    copy[at] ^= 0x10;
    EXPECT_FALSE(gs::test::DxbcChecksumHolds(copy.data(), copy.size())) << "byte " << at;
  }
}

TEST(KernelTable, EveryKernelIsComputeShaderModel50) {
  constexpr uint32_t kCs50 = (5u << 16) | (5u << 4) | 0u;  // program type 5 (compute), 5.0
  for (const KernelBytecode& code : gs::d3d12::kKernelBytecode) {
    EXPECT_EQ(Read(code).shaderVersion, kCs50) << Name(code);
  }
}

TEST(KernelTable, EveryKernelRunsTheGroupSizeThePlanDispatches) {
  for (const KernelBytecode& code : gs::d3d12::kKernelBytecode) {
    EXPECT_EQ(Read(code).localSize, (std::vector<uint32_t>{gs::plan::GpuGroupThreads(code.kernel), 1, 1})) << Name(code);
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
