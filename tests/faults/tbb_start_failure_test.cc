// Allocation failure inside oneTBB's one-time start-up, which the first multi-threaded call
// reaches: that call must report OutOfMemory, and a later multi-threaded call must finish
// (oneTBB does not retry its start-up: reached again, it would spin forever). Each try runs
// in a child process, where oneTBB has not started yet; a later call that hangs is killed by
// an alarm and counted as a failure.
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>
#include <vector>

#include "failing_allocator.h"
#include "gs/gs.h"

namespace {

using gs_faults::FailNthAllocation;

enum ChildExit { kFine = 0, kNotFired = 3, kWrongStatus = 4, kSecondCallFailed = 5 };

// A GATHER_ELEMENTS large enough to be spread over two threads.
int RunChild(long n) {
  static const uint32_t sizes[] = {512, 512};
  const gs::TensorDesc input{gs::DataType::Float32, 2, sizes, nullptr, 512 * 512 * 4};
  const gs::TensorDesc indices{gs::DataType::Int32, 2, sizes, nullptr, 512 * 512 * 4};
  const gs::GatherElementsOperatorDesc desc{&input, &indices, &input, 1};
  gs::CompiledOperator op;
  if (!gs::CompileOperator({gs::OperatorType::GatherElements, &desc}, &op).ok()) return kWrongStatus;
  std::vector<float> in(512 * 512, 1.0f), out(512 * 512, 0.0f);
  std::vector<int32_t> idx(512 * 512, 3);
  const gs::TensorBindings bindings{{in.data(), in.size() * 4}, {idx.data(), idx.size() * 4}, {},
                                    {out.data(), out.size() * 4}};
  gs::CpuExecuteOptions options;
  options.ThreadCount = 2;
  gs::StatusCode first;
  bool fired;
  {
    FailNthAllocation failure(n);
    first = gs::ExecuteOnCpu(op, bindings, options).code();
    fired = FailNthAllocation::Fired();
  }
  if (!fired) return first == gs::StatusCode::Ok ? kNotFired : kWrongStatus;
  if (first != gs::StatusCode::OutOfMemory && first != gs::StatusCode::Ok) return kWrongStatus;
  alarm(30);  // a hang ends the child with SIGALRM
  const gs::Status second = gs::ExecuteOnCpu(op, bindings, options);
  if (!second.ok() || out[5] != 1.0f) return kSecondCallFailed;
  return kFine;
}

TEST(TbbStartFailure, ALaterMultiThreadedCallFinishes) {
  long n = 0;
  for (; n < gs_faults::kMaxAllocations; ++n) {
    const pid_t child = fork();
    ASSERT_GE(child, 0);
    if (child == 0) _exit(RunChild(n));
    int status = 0;
    ASSERT_EQ(waitpid(child, &status, 0), child);
    ASSERT_FALSE(WIFSIGNALED(status)) << "allocation " << n << ": the child died of signal "
                                      << WTERMSIG(status) << " (SIGALRM: a later call hung)";
    ASSERT_TRUE(WIFEXITED(status));
    if (WEXITSTATUS(status) == kNotFired) break;
    EXPECT_EQ(WEXITSTATUS(status), kFine) << "allocation " << n;
  }
  EXPECT_GT(n, 0) << "the first multi-threaded call made no allocation to fail";
  std::printf("failed each of the first %ld allocations of a first multi-threaded call\n", n);
}

}  // namespace
