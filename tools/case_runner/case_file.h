// The case-file format (../shared/cases/README.md) read into plain structs.
//
// Reading checks the format only: every key known, every value encoded exactly. Whether a
// desc is valid is the library's question, so a case may describe a desc that gs rejects.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "gs/operators.h"
#include "gs/tensor.h"
#include "operator_desc.h"  // Attribute

namespace gs::cases {

// The tensors of an operator desc, named as its members.
enum class Role { Input, Indices, Updates, Output };
inline constexpr int kRoleCount = 4;
const char* RoleName(Role role);  // "InputTensor", ...

struct TensorSpec {
  DataType dataType = DataType::Float32;
  std::vector<uint32_t> sizes;
  std::optional<std::vector<uint32_t>> strides;  // elements; absent = packed row-major
  // "data" of an input or "fill" of the output: the buffer's bytes before the call. With
  // strides it is the whole backing buffer, without it the packed contents.
  std::optional<std::vector<uint8_t>> data;
  // "expected" of the output: its logical row-major elements after the call.
  std::optional<std::vector<uint8_t>> expected;

  uint32_t ElementSize() const { return ElementSizeInBytes(dataType); }
};

struct Case {
  std::string name;
  OperatorType op = OperatorType::Gather;
  std::array<std::optional<uint32_t>, kAttributeCount> attributes;
  Reduction reduction = Reduction::None;  // only the scatters may set it
  std::array<std::optional<TensorSpec>, kRoleCount> tensors;
  bool expectError = false;
  std::string errorContains;  // empty: any message
  bool unchecked = false;
  bool inPlace = false;

  const std::optional<TensorSpec>& tensor(Role role) const {
    return tensors[static_cast<int>(role)];
  }
};

// One entry of "cases": either a case or why it could not be read.
struct CaseEntry {
  std::string label;  // the case's name, or "FILE#INDEX" when it has none
  std::optional<Case> value;
  std::string error;  // set when value is empty
};

struct CaseFile {
  std::string error;  // the file as a whole is unreadable or malformed
  std::vector<CaseEntry> entries;
};

// Parses a whole file's text; sourceName labels cases that have no name.
CaseFile ParseCaseFile(const std::string& text, const std::string& sourceName);
CaseFile ReadCaseFile(const std::string& path);

bool IsScatter(OperatorType op);
// Which attributes the operator's desc has (Reduction aside).
bool HasAttribute(OperatorType op, Attribute attribute);

}  // namespace gs::cases
