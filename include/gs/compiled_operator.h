// Compile once, execute many: a compiled operator is immutable and shareable across threads.
#pragma once

#include <memory>

#include "gs/operators.h"
#include "gs/status.h"

namespace gs {

namespace plan {
struct Plan;
}

class CompiledOperator {
 public:
  CompiledOperator() = default;  // empty: executing it is an error

  bool valid() const { return plan_ != nullptr; }
  OperatorType type() const;
  // The compiled plan; for the engines and for tests of the plan compiler.
  const plan::Plan* plan() const { return plan_.get(); }

 private:
  friend Status CompileOperator(const OperatorDesc& desc, CompiledOperator* compiled);
  std::shared_ptr<const plan::Plan> plan_;
};

// Validates the desc against every rule of the spec and builds the plan both engines run.
// On failure *compiled is left unchanged.
Status CompileOperator(const OperatorDesc& desc, CompiledOperator* compiled);

}  // namespace gs
