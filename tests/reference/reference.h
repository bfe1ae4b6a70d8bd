// An independent scalar reference for gs's six operators, written from shared/spec/semantics.md
// and sharing no code with src/: slow, plain loops over logical coordinates.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "gs/cpu.h"
#include "gs/operators.h"
#include "gs/tensor.h"

namespace gs_reference {

// Byte pointers to the start of each bound buffer (the views' element 0). Updates only for the
// scatters. A scatter runs in place when Output == Input.
struct RefBuffers {
  const uint8_t* Input = nullptr;
  const uint8_t* Indices = nullptr;
  const uint8_t* Updates = nullptr;
  uint8_t* Output = nullptr;
};

// The first out-of-range element of the Indices tensor, in its row-major logical order.
struct BadIndex {
  uint64_t FlatPosition = 0;
  std::string Value;  // decimal, signed for the signed index types
};

// Runs the operator that `desc` describes; the desc must be valid (the reference does not
// validate descs). Checked mode: returns false and leaves the output untouched when an index
// is out of range, describing the first one in *bad and *error. Unchecked mode: out-of-range
// gathers give zero bytes, out-of-range scatter updates are dropped; always returns true.
bool RunReference(const gs::OperatorDesc& desc, const RefBuffers& buffers, gs::IndexChecking mode,
                  std::string* error, BadIndex* bad = nullptr);

// Helpers the tests share (own implementations: nothing here calls into the gs library).
uint32_t ElementSize(gs::DataType type);
const char* TypeName(gs::DataType type);
const char* OperatorName(gs::OperatorType type);
const char* ReductionText(gs::Reduction reduction);
bool IsSignedIndexType(gs::DataType type);

// The elements a buffer must hold for the view: 1 + sum of (size - 1) * stride.
uint64_t ViewSpanInElements(const gs::TensorDesc& desc);
// Product of the sizes.
uint64_t ElementCount(const gs::TensorDesc& desc);
// Element offset (not bytes) of logical row-major element `flat` within the buffer.
uint64_t ElementOffset(const gs::TensorDesc& desc, uint64_t flat);

// Readable one-line form of a desc, for failure messages.
std::string DescribeTensor(const gs::TensorDesc& desc);
std::string DescribeOperator(const gs::OperatorDesc& desc);

}  // namespace gs_reference
