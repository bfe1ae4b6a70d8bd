// A known gather run once when an engine is made: a D3D12 runtime that accepts the kernels but
// runs them wrong (Wine 8.0's vkd3d 1.6 binds no descriptor table on a Vulkan driver without
// VK_EXT_descriptor_indexing, so every dispatch reads and writes nothing) must answer
// Unsupported at Create, never wrong bytes later.
#include <atomic>
#include <cstdio>
#include <cstring>
#include <string>

#include "d3d12/engine_state.h"
#include "gs/gs.h"

namespace gs::d3d12 {
namespace {

std::string Hex(const uint32_t* words, int count) {
  std::string text;
  for (int i = 0; i < count; ++i) {
    char word[12];
    std::snprintf(word, sizeof word, "%s%08x", i == 0 ? "" : " ", static_cast<unsigned>(words[i]));
    text += word;
  }
  return text;
}

}  // namespace

Status CheckKnownGather(D3D12Engine& engine) {
  // GATHER_ELEMENTS on axis 0 of 8 UINT32 values, every index used once, in a reversed order
  // with a negative one; the output starts as a sentinel that no value equals. The values
  // differ from one check to the next: a queue that runs nothing hands back whatever its
  // read-back memory held, and a driver that reuses memory unzeroed (lavapipe 25) may hand back
  // an earlier engine's answer to this same gather.
  constexpr int kCount = 8;
  static std::atomic<uint32_t> checks{0};
  const uint32_t salt = (checks.fetch_add(1) + 1) * 0x9e3779b9u;
  const uint32_t values[kCount] = {0x3f800000, 0x12345678, 0xdeadbeef, 0x00000001,
                                   0x7fc00000, 0x80000000, 0xfffffffe, 0x0badf00d};
  uint32_t input[kCount], output[kCount];
  for (int i = 0; i < kCount; ++i) {
    input[i] = values[i] ^ salt;
    output[i] = 0xa5a5a5a5u ^ salt;  // the sentinel, salted alike
  }
  const int32_t indices[kCount] = {7, 6, 5, 4, 3, 2, 1, -8};
  const uint32_t sizes[] = {kCount};
  const TensorDesc in{DataType::UInt32, 1, sizes, nullptr, sizeof input};
  const TensorDesc idx{DataType::Int32, 1, sizes, nullptr, sizeof indices};
  const TensorDesc out{DataType::UInt32, 1, sizes, nullptr, sizeof output};
  const GatherElementsOperatorDesc desc{&in, &idx, &out, 0};
  CompiledOperator op;
  Status status = CompileOperator({OperatorType::GatherElements, &desc}, &op);
  if (status.ok()) {
    // Unchecked: the bytes alone tell, with no validation pass whose own results could be wrong.
    status = engine.ExecuteOnHost(op, {{input, sizeof input}, {indices, sizeof indices}, {}, {output, sizeof output}},
                                  IndexChecking::Unchecked);
  }
  // Out of memory or a removed device say what they are; anything else from a call that cannot
  // fail is the device's fault.
  if (status.code() == StatusCode::OutOfMemory || status.code() == StatusCode::DeviceRemoved) return status;
  uint32_t expected[kCount];
  for (int i = 0; i < kCount; ++i) expected[i] = input[(indices[i] + kCount) % kCount];
  if (status.ok() && std::memcmp(output, expected, sizeof output) == 0) return Status::Ok();
  const std::string what = status.ok() ? "expected " + Hex(expected, kCount) + ", got " + Hex(output, kCount)
                                       : "it failed: " + status.message();
  return Status(StatusCode::Unsupported,
                "D3D12Engine: the device ran a known 8-element gather wrong (" + what +
                    "): its D3D12 runtime accepts gs's kernels but does not run them as D3D12 defines "
                    "(for example Wine 8.0's vkd3d 1.6 on a Vulkan driver without VK_EXT_descriptor_indexing); "
                    "use ExecuteOnCpu");
}

}  // namespace gs::d3d12
