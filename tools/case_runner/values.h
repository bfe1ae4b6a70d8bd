// Case-file values -> the exact bytes of one element.
//
// A value is a JSON number or a string: a decimal integer, "nan" (canonical quiet NaN),
// "inf", "-inf", or "0x..." (the element's raw bits). Nothing is ever rounded: a value the
// element type cannot hold exactly is an error, so a case means exactly one bit pattern.
#pragma once

#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <string>

#include "gs/tensor.h"

namespace gs::cases {

// Writes the element's bytes (little endian, ElementSizeInBytes(type) of them) to out.
// Returns an empty string on success, otherwise why the value does not fit the type.
std::string EncodeValue(const nlohmann::json& value, DataType type, uint8_t* out);

// Reads a non-negative integer that must fit in 32 bits (sizes, strides, attributes).
std::string ReadUint32(const nlohmann::json& value, uint32_t* out);

// IEEE binary16 bits of d when d is exactly representable (including -0 and infinities).
bool DoubleToHalfExact(double d, uint16_t* bits);

// "0x3f800000": an element's bits as hex, zero-padded to the element size.
std::string FormatBits(const uint8_t* element, uint32_t elementSize);

}  // namespace gs::cases
