// ExecuteOnCpu: check the call, then run the entry of the implementation list the plan chose.
#include <new>

#include "cpu/implementations.h"
#include "cpu/parallel.h"
#include "gs/cpu.h"
#include "plan/call_checks.h"
#include "plan/plan.h"

namespace gs {
namespace {

Status Execute(const plan::Plan& plan, const TensorBindings& bindings,
               const CpuExecuteOptions& options) {
  const char* op = OperatorTypeName(plan.op);
  if (options.ThreadCount < 0) {
    return Status(StatusCode::InvalidArgument,
                  std::string(op) + ": CpuExecuteOptions.ThreadCount is " + std::to_string(options.ThreadCount) +
                      "; it must be 0 (default) or positive");
  }
  Status status = plan::CheckIndexChecking(plan, options.Checking, "CpuExecuteOptions.Checking");
  if (!status.ok()) return status;
  plan::HostBuffers bound;
  status = plan::CheckHostBindings(plan, bindings, &bound);
  if (!status.ok()) return status;

  const cpu::Parallel parallel(options);
  // The plan chose an entry of the implementation list for each; the thread count picks one.
  const plan::CpuImplementation implementation =
      parallel.concurrency() > 1 ? plan.cpu.manyThreads : plan.cpu.oneThread;
  return plan::CpuRunOf(implementation)(plan, bound, parallel, options.Checking == IndexChecking::Checked);
}

}  // namespace

namespace cpu {

namespace {
thread_local ImplementationRun lastImplementationRun;
}  // namespace

void NoteImplementationRun(plan::CpuImplementation implementation) {
  lastImplementationRun = {implementation, Destinations::NotCounted};
}

void NoteDestinations(Destinations destinations) { lastImplementationRun.destinations = destinations; }

ImplementationRun LastImplementationRun() { return lastImplementationRun; }

}  // namespace cpu

Status ExecuteOnCpu(const CompiledOperator& op, const TensorBindings& bindings,
                    const CpuExecuteOptions& options) {
  if (!op.valid()) {
    return Status(StatusCode::InvalidArgument,
                  "ExecuteOnCpu: the CompiledOperator is empty (CompileOperator did not succeed)");
  }
  try {
    return Execute(*op.plan(), bindings, options);
  } catch (const std::bad_alloc&) {
    return Status(StatusCode::OutOfMemory,
                  std::string(OperatorTypeName(op.type())) + ": out of memory while executing");
  } catch (const std::exception& e) {
    return Status(StatusCode::Internal,
                  std::string(OperatorTypeName(op.type())) + ": internal error: " + e.what());
  }
}

}  // namespace gs
