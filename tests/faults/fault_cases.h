// What the allocation-failure tests share: the operators they run (tests/property's generator,
// fixed seeds) and one call checked as the spec says.
#pragma once

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "engine_check.h"
#include "failing_allocator.h"
#include "random_desc.h"

namespace gs_property {

// Every family, a reduction, in place, a checked error and unchecked mode.
inline std::vector<RandomCase> FaultCases() {
  std::vector<RandomCase> cases;
  for (uint64_t seed = 0; seed < 6; ++seed) cases.push_back(GenerateCase(CaseKind::Basic, seed));
  cases.push_back(GenerateCase(CaseKind::Reduction, 1));
  cases.push_back(GenerateCase(CaseKind::InPlace, 0));
  cases.push_back(GenerateCase(CaseKind::CheckedBad, 3));
  cases.push_back(GenerateCase(CaseKind::Unchecked, 4));
  return cases;
}

// One call, execute(bindings), on fresh copies of the case's buffers (in place, Output is bound
// to the input copy) with allocation failAt failing on `threads`. A call that met the failure
// returns OutOfMemory and leaves every buffer untouched, or does without that memory; one that
// did not, or did without, matches the reference (or fails with the checked error and leaves
// the output untouched). Inputs never change and nothing leaks. Returns whether the failure
// fired.
template <typename Execute>
bool RunWithAllocationFailure(const RandomCase& c, const ReferenceResult& expected, long failAt,
                              gs_faults::FailNthAllocation::Threads threads, Execute&& execute) {
  using gs_faults::FailNthAllocation;
  std::vector<uint8_t> input = c.input, indices = c.indices, updates = c.updates, output = c.output;
  uint8_t* out = c.in_place ? input.data() : output.data();
  const uint64_t outSize = c.in_place ? input.size() : output.size();
  const gs::TensorBindings bindings{{input.data(), input.size()},
                                    {indices.data(), indices.size()},
                                    {updates.data(), updates.size()},
                                    {out, outSize}};
  std::string message;
  message.reserve(4096);  // so that keeping the message allocates nothing
  const long liveBefore = gs_faults::LiveAllocations(threads);
  std::optional<gs::Status> status;  // reset() frees its message; assigning may keep it
  bool fired = false;
  {
    FailNthAllocation failure(failAt, threads);
    status = execute(bindings);
    fired = FailNthAllocation::Fired();
  }
  const gs::StatusCode code = status->code();
  message = status->message();
  status.reset();  // its message is the caller's allocation, not a leak
  EXPECT_EQ(gs_faults::LiveAllocations(threads), liveBefore) << "allocation " << failAt << " leaked";
  EXPECT_TRUE(indices == c.indices && updates == c.updates) << "an input changed";
  if (!c.in_place) EXPECT_TRUE(input == c.input) << "InputTensor changed";
  const std::vector<uint8_t>& before = c.in_place ? c.input : c.output;
  const std::vector<uint8_t> after(out, out + outSize);
  // A failed scatter leaves its output alone; a failed gather may have written its view.
  const bool outputKept = c.op.IsScatter() ? after == before
                                           : OutsideViewUnchanged(c.op.output, out, before);
  if (fired && code != gs::StatusCode::Ok) {
    EXPECT_EQ(code, gs::StatusCode::OutOfMemory) << "allocation " << failAt << ": " << message;
    EXPECT_TRUE(outputKept) << "allocation " << failAt << ": the scatter's output was written";
  } else if (expected.ok) {
    // Not fired, or fired where the engine does without (a strip's scratch, a helper thread).
    EXPECT_EQ(code, gs::StatusCode::Ok) << message;
    EXPECT_TRUE(after == expected.output) << "the output differs from the reference";
  } else {
    EXPECT_EQ(code, gs::StatusCode::InvalidArgument) << message;
    EXPECT_TRUE(outputKept) << "a failed checked scatter wrote the output";
  }
  return fired;
}

}  // namespace gs_property
