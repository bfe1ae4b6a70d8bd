// The operator's desc, flattened: what every operator's DML-style desc holds, by role.
#pragma once

#include <cstdint>

#include "plan/plan.h"

namespace gs::plan {

// The operator's desc, flattened: tensors by role and every attribute any operator has.
struct OperatorArgs {
  const TensorDesc* tensors[kTensorRoleCount] = {};
  bool hasUpdates = false;
  uint32_t axis = 0;
  uint32_t indexDimensions = 0;
  uint32_t inputDimensionCount = 0;
  uint32_t indicesDimensionCount = 0;
  uint32_t batchDimensionCount = 0;
  Reduction reduction = Reduction::None;
};

// False when desc.Type is not one of the six operators.
bool FlattenDesc(const OperatorDesc& desc, OperatorArgs* args);

}  // namespace gs::plan
