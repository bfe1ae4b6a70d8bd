// The public compile entry point: a compiled operator owns an immutable Plan.
#include "gs/compiled_operator.h"

#include <new>

#include "cpu/machine.h"
#include "plan/compile.h"

namespace gs {

OperatorType CompiledOperator::type() const { return plan_ ? plan_->op : OperatorType::Gather; }

Status CompileOperator(const OperatorDesc& desc, CompiledOperator* compiled) {
  try {
    // The first call reads the machine, which allocates on Windows.
    return plan::CompileOperatorFor(desc, cpu::ThisMachine(), compiled);
  } catch (const std::bad_alloc&) {
    return Status(StatusCode::OutOfMemory,
                  std::string(OperatorTypeName(desc.Type)) + ": out of memory while compiling");
  }
}

Status plan::CompileOperatorFor(const OperatorDesc& desc, const MachineInfo& machine, CompiledOperator* compiled) {
  if (compiled == nullptr) {
    return Status(StatusCode::InvalidArgument, "CompileOperator: the output pointer is null");
  }
  try {
    auto plan = std::make_shared<plan::Plan>();
    Status status = plan::CompilePlan(desc, machine, plan.get());
    if (!status.ok()) return status;
    compiled->plan_ = std::move(plan);
    return Status::Ok();
  } catch (const std::bad_alloc&) {
    return Status(StatusCode::OutOfMemory,
                  std::string(OperatorTypeName(desc.Type)) + ": out of memory while compiling");
  }
}

}  // namespace gs
