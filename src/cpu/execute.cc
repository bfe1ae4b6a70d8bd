// ExecuteOnCpu: bind, validate (checked mode), then run the plan's kernels.
#include <new>
#include <optional>

#include "cpu/kernels.h"
#include "cpu/parallel.h"
#include "cpu/scatter.h"
#include "cpu/validate_indices.h"
#include "gs/cpu.h"
#include "plan/bad_index.h"
#include "plan/call_checks.h"
#include "plan/plan.h"

namespace gs {
namespace {

// A checked gather validates in the pass that uses the indices (a failed one may leave its
// output view partly written: semantics.md); only when that pass met a bad index does a
// second one name the first in row-major order, the same whatever the tiles' order. An empty
// output reads no index, so its indices are validated on their own.
Status RunGatherCall(const plan::Plan& plan, const plan::HostBuffers& bound,
                     const cpu::Parallel& parallel, bool checked) {
  if (plan.kernel.unitCount == 0) {
    cpu::NoteImplementationRun(plan.cpu.implementation);  // the generic walk, over no unit
    return checked ? cpu::ValidateIndices(plan, bound.indices, parallel) : Status::Ok();
  }
  if (cpu::RunGather(plan, bound.input, bound.indices, bound.output, parallel, checked) || !checked) {
    return Status::Ok();
  }
  const Status status = cpu::ValidateIndices(plan, bound.indices, parallel);
  return status.ok() ? plan::IndicesChangedStatus(plan) : status;
}

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
  const bool checked = options.Checking == IndexChecking::Checked;
  if (!plan.isScatter) return RunGatherCall(plan, bound, parallel, checked);
  // The schedule allocates and reads before anything is written; when it has read every index
  // (bucketed), that read is the validation, and a second pass runs only to name a bad one.
  const cpu::ScatterSchedule schedule(plan, bound.indices, parallel);
  if (checked && !schedule.IndicesKnownValid()) {
    status = cpu::ValidateIndices(plan, bound.indices, parallel);
    if (!status.ok()) return status;
  }
  if (!bound.inPlace) {
    cpu::RunStridedCopy(plan, bound.input, bound.output, parallel);
  }
  schedule.Apply(bound.updates, bound.output);
  return Status::Ok();
}

}  // namespace

namespace cpu {

namespace {
thread_local plan::CpuImplementation lastImplementationRun = plan::CpuImplementation::GatherUnits;
}  // namespace

void NoteImplementationRun(plan::CpuImplementation implementation) {
  lastImplementationRun = implementation;
}

plan::CpuImplementation LastImplementationRun() { return lastImplementationRun; }

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
