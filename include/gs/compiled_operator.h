// Compile once, execute many: a compiled operator is immutable and shareable across threads.
// Its CPU calls may keep one scratch block for the next call, freed with the operator (its
// last copy): large checked ScatterElements along a dim other than the last keep 2 bytes per
// index element.
#pragma once

#include <memory>

#include "gs/operators.h"
#include "gs/status.h"

namespace gs {

class CompiledOperator;

namespace plan {
struct Plan;
struct MachineInfo;
// Internal (tests): CompileOperator for the given machine rather than this one; the same
// Status codes.
Status CompileOperatorFor(const OperatorDesc& desc, const MachineInfo& machine, CompiledOperator* compiled);
}  // namespace plan

class CompiledOperator {
 public:
  CompiledOperator() = default;  // empty: executing it is an error

  bool valid() const { return plan_ != nullptr; }
  OperatorType type() const;
  // The compiled plan; for the engines and for tests of the plan compiler.
  const plan::Plan* plan() const { return plan_.get(); }

 private:
  friend Status plan::CompileOperatorFor(const OperatorDesc& desc, const plan::MachineInfo& machine,
                                         CompiledOperator* compiled);
  std::shared_ptr<const plan::Plan> plan_;
};

// Validates the desc against every rule of the spec and builds the plan both engines run.
// On failure *compiled is left unchanged. Returns:
// - Ok;
// - InvalidArgument: compiled is null, or the desc breaks a rule (the message names the
//   operator, the field, its value and the rule);
// - OutOfMemory: an allocation failed while compiling.
Status CompileOperator(const OperatorDesc& desc, CompiledOperator* compiled);

}  // namespace gs
