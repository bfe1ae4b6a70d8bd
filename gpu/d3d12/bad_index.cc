#include "d3d12/bad_index.h"

#include <cstring>
#include <string>
#include <type_traits>

namespace gs::d3d12 {
namespace {

template <typename IndexT>
std::string Describe(const plan::Plan& plan, uint64_t position, uint64_t valueBits) {
  const plan::IndexValidation& v = plan.validation;
  IndexT value;
  std::memcpy(&value, &valueBits, sizeof value);  // little-endian: the low bytes
  const uint64_t bound = v.bounds[position % v.tupleSize];
  const std::string range = std::is_signed_v<IndexT>
                                ? "[-" + std::to_string(bound) + ", " + std::to_string(bound) + ")"
                                : "[0, " + std::to_string(bound) + ")";
  std::string message = std::string(OperatorTypeName(plan.op)) +
                        ": IndicesTensor element at flat row-major position " +
                        std::to_string(position) + " is " + std::to_string(value) +
                        ", outside the valid range " + range + " of a dimension of size " +
                        std::to_string(bound);
  if (v.tupleSize > 1) {
    message += " (component " + std::to_string(position % v.tupleSize) + " of its index tuple)";
  }
  return message;
}

}  // namespace

Status BadIndexStatus(const plan::Plan& plan, uint64_t position, uint64_t valueBits) {
  std::string message;
  switch (plan.indexType) {
    case DataType::Int32: message = Describe<int32_t>(plan, position, valueBits); break;
    case DataType::Int64: message = Describe<int64_t>(plan, position, valueBits); break;
    case DataType::UInt32: message = Describe<uint32_t>(plan, position, valueBits); break;
    default: message = Describe<uint64_t>(plan, position, valueBits); break;
  }
  return Status(StatusCode::InvalidArgument, message);
}

}  // namespace gs::d3d12
