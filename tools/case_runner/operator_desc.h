// An operator desc from its parts: the one switch over the six operators that gs-cases (case
// files) and gs-bench (the perf suite) share, so both build descs the same way.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <variant>

#include "gs/operators.h"
#include "gs/tensor.h"

namespace gs::cases {

// The uint32 attributes of the six descs (Reduction is kept apart).
enum class Attribute {
  Axis,
  IndexDimensions,
  InputDimensionCount,
  IndicesDimensionCount,
  BatchDimensionCount
};
inline constexpr int kAttributeCount = 5;
const char* AttributeName(Attribute attribute);  // "Axis", ... as DirectML spells them

// What a desc is made of. Tensors may be null (a case expecting an error may lack one).
struct OperatorParts {
  OperatorType op = OperatorType::Gather;
  std::array<std::optional<uint32_t>, kAttributeCount> attributes;  // absent: 0
  Reduction reduction = Reduction::None;  // the scatters only
  const TensorDesc* input = nullptr;
  const TensorDesc* indices = nullptr;
  const TensorDesc* updates = nullptr;  // the scatters only
  const TensorDesc* output = nullptr;
};

// Holds the desc struct that OperatorDesc::Desc points at.
using DescStorage =
    std::variant<GatherOperatorDesc, GatherElementsOperatorDesc, GatherNdOperatorDesc,
                 GatherNd1OperatorDesc, ScatterElementsOperatorDesc, ScatterNdOperatorDesc>;

// The desc struct parts.op names, stored in *storage; the result points into it.
OperatorDesc BuildOperatorDesc(const OperatorParts& parts, DescStorage* storage);

}  // namespace gs::cases
