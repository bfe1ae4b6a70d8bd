#include "operator_desc.h"

namespace gs::cases {
namespace {

constexpr const char* kAttributeNames[kAttributeCount] = {
    "Axis", "IndexDimensions", "InputDimensionCount", "IndicesDimensionCount",
    "BatchDimensionCount"};

}  // namespace

const char* AttributeName(Attribute attribute) {
  return kAttributeNames[static_cast<int>(attribute)];
}

OperatorDesc BuildOperatorDesc(const OperatorParts& parts, DescStorage* storage) {
  auto attribute = [&](Attribute a) { return parts.attributes[static_cast<int>(a)].value_or(0); };
  const TensorDesc* input = parts.input;
  const TensorDesc* indices = parts.indices;
  const TensorDesc* output = parts.output;
  switch (parts.op) {
    case OperatorType::Gather:
      *storage = GatherOperatorDesc{input, indices, output, attribute(Attribute::Axis),
                                    attribute(Attribute::IndexDimensions)};
      break;
    case OperatorType::GatherElements:
      *storage = GatherElementsOperatorDesc{input, indices, output, attribute(Attribute::Axis)};
      break;
    case OperatorType::GatherNd:
      *storage =
          GatherNdOperatorDesc{input, indices, output, attribute(Attribute::InputDimensionCount),
                               attribute(Attribute::IndicesDimensionCount)};
      break;
    case OperatorType::GatherNd1:
      *storage = GatherNd1OperatorDesc{input,
                                       indices,
                                       output,
                                       attribute(Attribute::InputDimensionCount),
                                       attribute(Attribute::IndicesDimensionCount),
                                       attribute(Attribute::BatchDimensionCount)};
      break;
    case OperatorType::ScatterElements:
      *storage = ScatterElementsOperatorDesc{input, indices, parts.updates, output,
                                             attribute(Attribute::Axis), parts.reduction};
      break;
    case OperatorType::ScatterNd:
      *storage = ScatterNdOperatorDesc{input,
                                       indices,
                                       parts.updates,
                                       output,
                                       attribute(Attribute::InputDimensionCount),
                                       attribute(Attribute::IndicesDimensionCount),
                                       parts.reduction};
      break;
  }
  OperatorDesc desc;
  desc.Type = parts.op;
  desc.Desc = std::visit([](const auto& d) -> const void* { return &d; }, *storage);
  return desc;
}

}  // namespace gs::cases
