// Allocation failure anywhere inside D3D12Engine::ExecuteOnHost (failing_allocator.h): every
// failed call returns OutOfMemory, leaks nothing, submits nothing it then abandons, and leaves
// the caller's buffers untouched; the call that gets through matches the reference.
// The pipelines are made once before any failure is injected: compiling a pipeline runs the
// Vulkan driver's own allocations (lavapipe's LLVM), which are not gs's to recover from.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

#include "engine_check.h"
#include "failing_allocator.h"
#include "fault_cases.h"
#include "gpu_test_environment.h"

namespace gs_property {
namespace {

using gs_faults::FailNthAllocation;
using gs_faults::kMaxAllocations;

TEST(D3D12AllocationFailure, ExecuteOnHostReturnsOutOfMemoryAndLeavesBuffersUntouched) {
  std::string why;
  gs::D3D12Engine* engine = gs_gpu_test::SharedEngine(&why);
  ASSERT_NE(engine, nullptr) << why;
  long injected = 0;
  for (const RandomCase& c : FaultCases()) {
    SCOPED_TRACE(c.Describe());
    gs::CompiledOperator compiled;
    ASSERT_EQ(CompileCase(c, &compiled), "");
    const ReferenceResult expected = RunReferenceOn(c);
    auto execute = [&](const gs::TensorBindings& bindings) {
      return engine->ExecuteOnHost(compiled, bindings, c.mode);
    };
    // Unarmed first: makes this case's pipelines, which the engine keeps (so not counted as a
    // leak). gs's D3D12 path allocates on the calling thread only; lavapipe's threads are not
    // ours to fail.
    {
      std::vector<uint8_t> input = c.input, output = c.output;
      (void)execute({{input.data(), input.size()},
                     {c.indices.data(), c.indices.size()},
                     {c.updates.data(), c.updates.size()},
                     {c.in_place ? input.data() : output.data(), c.in_place ? input.size() : output.size()}});
    }
    const FailNthAllocation::Threads caller = FailNthAllocation::Threads::ThisOne;
    long n = 0;
    for (; n < kMaxAllocations; ++n) {
      const bool fired = RunWithAllocationFailure(c, expected, n, caller, execute);
      if (fired) ++injected;
      if (!fired || ::testing::Test::HasFailure()) break;
    }
    EXPECT_GT(n, 0) << "ExecuteOnHost allocates nothing: the injection was never exercised";
    EXPECT_LT(n, kMaxAllocations);
  }
  std::printf("%ld D3D12 executions met an injected allocation failure\n", injected);
}

}  // namespace
}  // namespace gs_property
