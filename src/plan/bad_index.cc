#include "plan/bad_index.h"

#include <string>

namespace gs::plan {
namespace {

// The index as its type reads it, in decimal.
std::string IndexText(DataType indexType, uint64_t bits) {
  switch (indexType) {
    case DataType::Int32: return std::to_string(static_cast<int32_t>(static_cast<uint32_t>(bits)));
    case DataType::Int64: return std::to_string(static_cast<int64_t>(bits));
    case DataType::UInt32: return std::to_string(static_cast<uint32_t>(bits));
    default: return std::to_string(bits);
  }
}

}  // namespace

Status BadIndexStatus(const Plan& plan, uint64_t position, uint64_t indexBits) {
  const IndexValidation& v = plan.validation;
  const uint64_t bound = v.bounds[position % v.tupleSize];
  const std::string range = plan.indexSigned ? "[-" + std::to_string(bound) + ", " + std::to_string(bound) + ")"
                                             : "[0, " + std::to_string(bound) + ")";
  std::string message = std::string(OperatorTypeName(plan.op)) + ": IndicesTensor element at flat row-major position " +
                        std::to_string(position) + " is " + IndexText(plan.indexType, indexBits);
  // An empty dimension has no valid index at all.
  message += bound == 0 ? ", but the dimension it indexes has size 0, so no index is valid"
                        : ", outside the valid range " + range + " of a dimension of size " + std::to_string(bound);
  if (v.tupleSize > 1) {
    message += " (component " + std::to_string(position % v.tupleSize) + " of its index tuple)";
  }
  return Status(StatusCode::InvalidArgument, message);
}

Status IndicesChangedStatus(const Plan& plan) {
  return Status(StatusCode::InvalidArgument,
                std::string(OperatorTypeName(plan.op)) +
                    ": an IndicesTensor element was out of bounds when the call first read it but "
                    "not when read again: the indices changed during the call");
}

}  // namespace gs::plan
