#include "plan/operator_args.h"

namespace gs::plan {

bool FlattenDesc(const OperatorDesc& desc, OperatorArgs* args) {
  auto take = [args](const auto& d) {
    args->tensors[0] = d.InputTensor;
    args->tensors[1] = d.IndicesTensor;
    args->tensors[3] = d.OutputTensor;
  };
  switch (desc.Type) {
    case OperatorType::Gather: {
      const auto& d = *static_cast<const GatherOperatorDesc*>(desc.Desc);
      take(d);
      args->axis = d.Axis;
      args->indexDimensions = d.IndexDimensions;
      return true;
    }
    case OperatorType::GatherElements: {
      const auto& d = *static_cast<const GatherElementsOperatorDesc*>(desc.Desc);
      take(d);
      args->axis = d.Axis;
      return true;
    }
    case OperatorType::GatherNd: {
      const auto& d = *static_cast<const GatherNdOperatorDesc*>(desc.Desc);
      take(d);
      args->inputDimensionCount = d.InputDimensionCount;
      args->indicesDimensionCount = d.IndicesDimensionCount;
      return true;
    }
    case OperatorType::GatherNd1: {
      const auto& d = *static_cast<const GatherNd1OperatorDesc*>(desc.Desc);
      take(d);
      args->inputDimensionCount = d.InputDimensionCount;
      args->indicesDimensionCount = d.IndicesDimensionCount;
      args->batchDimensionCount = d.BatchDimensionCount;
      return true;
    }
    case OperatorType::ScatterElements: {
      const auto& d = *static_cast<const ScatterElementsOperatorDesc*>(desc.Desc);
      take(d);
      args->tensors[2] = d.UpdatesTensor;
      args->hasUpdates = true;
      args->axis = d.Axis;
      args->reduction = d.Reduction;
      return true;
    }
    case OperatorType::ScatterNd: {
      const auto& d = *static_cast<const ScatterNdOperatorDesc*>(desc.Desc);
      take(d);
      args->tensors[2] = d.UpdatesTensor;
      args->hasUpdates = true;
      args->inputDimensionCount = d.InputDimensionCount;
      args->indicesDimensionCount = d.IndicesDimensionCount;
      args->reduction = d.Reduction;
      return true;
    }
  }
  return false;
}

}  // namespace gs::plan
