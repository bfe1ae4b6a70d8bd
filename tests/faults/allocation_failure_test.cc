// Allocation failure anywhere inside CompileOperator and ExecuteOnCpu. This binary replaces
// the global operator new with one that can fail the Nth allocation (and only that one); each
// test runs a call with N = 0, 1, 2, ... until the call gets through without the failure
// firing. Every failed call must return OutOfMemory, leak nothing (live allocations counted
// here; LSan too in the sanitize preset), leave every input untouched and the output either
// untouched or, for a call that succeeded, equal to the independent reference.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include <oneapi/tbb/info.h>

#include "engine_check.h"
#include "failing_allocator.h"
#include "fault_cases.h"
#include "random_desc.h"

namespace gs_property {
namespace {

using gs_faults::FailNthAllocation;
using gs_faults::kMaxAllocations;
using gs_faults::LiveAllocations;

std::vector<RandomCase> Cases() {
  std::vector<RandomCase> cases = FaultCases();
  cases.push_back(GenerateCase(CaseKind::Large, 4));  // a scatter on several threads
  return cases;
}

TEST(AllocationFailure, CompileReturnsOutOfMemoryAndLeaksNothing) {
  for (RandomCase& c : Cases()) {
    SCOPED_TRACE(c.Describe());
    const gs::OperatorDesc& desc = c.op.Desc();
    long n = 0;
    for (; n < kMaxAllocations; ++n) {
      const long liveBefore = LiveAllocations();
      std::optional<gs::Status> status;  // reset() frees its message; assigning may keep it
      bool fired = false;
      {
        gs::CompiledOperator compiled;
        {
          FailNthAllocation failure(n);
          status = gs::CompileOperator(desc, &compiled);
          fired = FailNthAllocation::Fired();
        }
        if (fired) {
          EXPECT_EQ(status->code(), gs::StatusCode::OutOfMemory) << "allocation " << n << ": "
                                                                  << status->message();
          EXPECT_FALSE(compiled.valid()) << "allocation " << n;
        } else {
          EXPECT_TRUE(status->ok()) << status->message();
          EXPECT_TRUE(compiled.valid());
        }
      }
      status.reset();  // its message is the caller's allocation, not a leak
      EXPECT_EQ(LiveAllocations(), liveBefore) << "allocation " << n << " leaked";
      if (!fired || ::testing::Test::HasFailure()) break;
    }
    EXPECT_GT(n, 0) << "compiling allocates nothing: the injection was never exercised";
    EXPECT_LT(n, kMaxAllocations);
  }
}

TEST(AllocationFailure, ExecuteReturnsOutOfMemoryAndLeavesBuffersAsTheSpecSays) {
  // oneTBB's one-time global set-up is not exception-safe: a failure injected into it leaves
  // it half done and every later call spins forever. That is oneTBB's own start-up, not gs's,
  // so it runs before any failure is injected; gs's arenas and tasks are still covered.
  ASSERT_GT(tbb::info::default_concurrency(), 0);
  // gs keeps one task_arena per thread count for the life of the process (cpu/parallel.cc).
  // Creating it may fail like any allocation; once made it stays, so each case first runs
  // once unarmed and the leak count below sees only what one call allocates and frees.
  long injected = 0;  // calls that met an injected failure
  for (const RandomCase& c : Cases()) {
    SCOPED_TRACE(c.Describe());
    gs::CompiledOperator compiled;
    ASSERT_EQ(CompileCase(c, &compiled), "");
    const ReferenceResult expected = RunReferenceOn(c);
    for (int threads : {1, 2}) {
      {
        std::vector<uint8_t> input = c.input, output = c.output;
        gs::CpuExecuteOptions options;
        options.Checking = c.mode;
        options.ThreadCount = threads;
        uint8_t* out = c.in_place ? input.data() : output.data();
        (void)gs::ExecuteOnCpu(compiled,
                               {{input.data(), input.size()},
                                {c.indices.data(), c.indices.size()},
                                {c.updates.data(), c.updates.size()},
                                {out, c.in_place ? input.size() : output.size()}},
                               options);
      }
      SCOPED_TRACE("threads " + std::to_string(threads));
      gs::CpuExecuteOptions options;
      options.Checking = c.mode;
      options.ThreadCount = threads;
      long n = 0;
      for (; n < kMaxAllocations; ++n) {
        const bool fired = RunWithAllocationFailure(
            c, expected, n, FailNthAllocation::Threads::Any,
            [&](const gs::TensorBindings& bindings) { return gs::ExecuteOnCpu(compiled, bindings, options); });
        if (fired) ++injected;
        if (!fired || ::testing::Test::HasFailure()) break;
      }
      EXPECT_LT(n, kMaxAllocations);
    }
  }
  EXPECT_GT(injected, 0) << "no execution allocated: the injection was never exercised";
  std::printf("%ld executions met an injected allocation failure\n", injected);
}

}  // namespace
}  // namespace gs_property
