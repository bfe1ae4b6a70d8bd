#include "values.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <nlohmann/json.hpp>

namespace gs::cases {
namespace {

using nlohmann::json;

// The largest integer magnitude a JSON number may carry here (exact in every double).
constexpr uint64_t kMaxJsonInteger = uint64_t{1} << 53;
constexpr double kTwoPow64 = 18446744073709551616.0;

// An exact integer of either sign; -0 is kept because "-0" means negative zero to a float.
struct Integer {
  bool negative = false;
  uint64_t magnitude = 0;
};

bool IsFloat(DataType type) {
  return type == DataType::Float16 || type == DataType::Float32 || type == DataType::Float64;
}

bool IsSigned(DataType type) {
  return type == DataType::Int8 || type == DataType::Int16 || type == DataType::Int32 ||
         type == DataType::Int64;
}

// How a value reads in a message: the JSON text, cut short if long.
std::string Show(const json& value) {
  std::string text = value.dump();
  if (text.size() > 40) text = text.substr(0, 37) + "...";
  return text;
}

void StoreLittleEndian(uint64_t bits, uint32_t size, uint8_t* out) {
  for (uint32_t i = 0; i < size; ++i) out[i] = static_cast<uint8_t>(bits >> (8 * i));
}

// Decimal digits with an optional '-', nothing else.
bool IsDecimalText(const std::string& text) {
  size_t pos = (!text.empty() && text[0] == '-') ? 1 : 0;
  if (pos == text.size()) return false;
  for (; pos < text.size(); ++pos) {
    if (text[pos] < '0' || text[pos] > '9') return false;
  }
  return true;
}

// Text that IsDecimalText accepted; false when the magnitude does not fit 64 bits.
bool ParseDecimal(const std::string& text, Integer* out) {
  Integer result;
  result.negative = text[0] == '-';
  for (size_t pos = result.negative ? 1 : 0; pos < text.size(); ++pos) {
    const auto digit = static_cast<uint64_t>(text[pos] - '0');
    if (result.magnitude > (std::numeric_limits<uint64_t>::max() - digit) / 10) return false;
    result.magnitude = result.magnitude * 10 + digit;
  }
  *out = result;
  return true;
}

int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// "0x" then hex digits; tooWide when the value needs more than 64 bits.
bool ParseHex(const std::string& text, uint64_t* bits, bool* tooWide) {
  if (text.size() < 3 || text[0] != '0' || (text[1] != 'x' && text[1] != 'X')) return false;
  uint64_t value = 0;
  *tooWide = false;
  for (size_t pos = 2; pos < text.size(); ++pos) {
    const int digit = HexDigit(text[pos]);
    if (digit < 0) return false;
    if (value >> 60 != 0) *tooWide = true;
    value = (value << 4) | static_cast<uint64_t>(digit);
  }
  *bits = value;
  return true;
}

std::string BeyondTwoPow53(const json& value) {
  return Show(value) + " is beyond 2^53: write it as a string";
}

std::string OutOfRange(const json& value, DataType type) {
  return Show(value) + " is out of range for " + DataTypeName(type);
}

// A JSON number or decimal string as an exact integer. JSON numbers beyond 2^53 are refused:
// the format asks for strings there, since most JSON writers cannot carry them exactly.
std::string ReadInteger(const json& value, Integer* out) {
  if (value.is_number_unsigned()) {
    const uint64_t v = value.get<uint64_t>();
    if (v > kMaxJsonInteger) return BeyondTwoPow53(value);
    *out = {false, v};
    return {};
  }
  if (value.is_number_integer()) {
    const int64_t v = value.get<int64_t>();
    const uint64_t magnitude = v < 0 ? 0 - static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
    if (magnitude > kMaxJsonInteger) return BeyondTwoPow53(value);
    *out = {v < 0, magnitude};
    return {};
  }
  if (value.is_number_float()) {
    const double d = value.get<double>();
    if (!std::isfinite(d) || std::trunc(d) != d) return Show(value) + " is not an integer";
    if (std::fabs(d) > static_cast<double>(kMaxJsonInteger)) return BeyondTwoPow53(value);
    *out = {std::signbit(d), static_cast<uint64_t>(std::fabs(d))};
    return {};
  }
  if (value.is_string()) {
    const std::string& text = value.get_ref<const std::string&>();
    if (!IsDecimalText(text)) return Show(value) + " is not a decimal integer";
    if (!ParseDecimal(text, out)) return Show(value) + " is out of range";
    return {};
  }
  return "expected an integer, got " + std::string(value.type_name()) + " " + Show(value);
}

std::string EncodeFloat(double d, DataType type, const json& shown, uint8_t* out) {
  switch (type) {
    case DataType::Float64: {
      uint64_t bits;
      std::memcpy(&bits, &d, sizeof bits);
      StoreLittleEndian(bits, 8, out);
      return {};
    }
    case DataType::Float32: {
      const auto f = static_cast<float>(d);
      if (static_cast<double>(f) != d) {
        return Show(shown) + " is not exactly representable as FLOAT32";
      }
      uint32_t bits;
      std::memcpy(&bits, &f, sizeof bits);
      StoreLittleEndian(bits, 4, out);
      return {};
    }
    case DataType::Float16: {
      uint16_t bits;
      if (!DoubleToHalfExact(d, &bits)) {
        return Show(shown) + " is not exactly representable as FLOAT16";
      }
      StoreLittleEndian(bits, 2, out);
      return {};
    }
    default: return "internal: not a float type";
  }
}

std::string EncodeInteger(const Integer& v, DataType type, const json& shown, uint8_t* out) {
  if (IsFloat(type)) {
    // Through double: exact below 2^64 only when the round trip gives the same integer.
    const auto d = static_cast<double>(v.magnitude);
    if (d >= kTwoPow64 || static_cast<uint64_t>(d) != v.magnitude) {
      return Show(shown) + " is not exactly representable as " + DataTypeName(type);
    }
    return EncodeFloat(v.negative ? -d : d, type, shown, out);
  }
  const uint32_t bitsWide = 8 * ElementSizeInBytes(type);
  const uint64_t unsignedMax = bitsWide == 64 ? ~uint64_t{0} : (uint64_t{1} << bitsWide) - 1;
  // Signed types reach 2^(n-1) - 1 up and 2^(n-1) down; unsigned ones only -0 below zero.
  const uint64_t maxMagnitude =
      !IsSigned(type) ? (v.negative ? 0 : unsignedMax) : (unsignedMax >> 1) + (v.negative ? 1 : 0);
  if (v.magnitude > maxMagnitude) return OutOfRange(shown, type);
  const uint64_t bits =
      (v.negative ? 0 - v.magnitude : v.magnitude) & unsignedMax;  // two's complement
  StoreLittleEndian(bits, bitsWide / 8, out);
  return {};
}

// Canonical quiet NaN (sign clear) or an infinity, as the type's bits.
uint64_t SpecialBits(DataType type, bool nan, bool negative) {
  switch (type) {
    case DataType::Float16: return nan ? 0x7e00 : (negative ? 0xfc00 : 0x7c00);
    case DataType::Float32: return nan ? 0x7fc00000 : (negative ? 0xff800000 : 0x7f800000);
    default: return nan ? 0x7ff8000000000000 : (negative ? 0xfff0000000000000 : 0x7ff0000000000000);
  }
}

}  // namespace

bool DoubleToHalfExact(double d, uint16_t* bits) {
  const uint16_t sign = std::signbit(d) ? 0x8000 : 0;
  const double magnitude = std::fabs(d);
  if (std::isnan(d)) return false;  // NaNs come as "nan" or hex, never as numbers
  if (std::isinf(d)) {
    *bits = sign | 0x7c00;
    return true;
  }
  if (magnitude == 0) {
    *bits = sign;
    return true;
  }
  if (magnitude > 65504.0) return false;
  int exponent;
  std::frexp(magnitude, &exponent);   // magnitude = m * 2^exponent, m in [0.5, 1)
  const int unbiased = exponent - 1;  // magnitude in [2^unbiased, 2^(unbiased+1))
  if (unbiased >= -14) {
    // Normal: 10 fraction bits. ldexp is exact here (no overflow or underflow of a double).
    const double scaled = std::ldexp(magnitude, 10 - unbiased);  // in [1024, 2048)
    if (scaled != std::trunc(scaled)) return false;
    *bits = sign | static_cast<uint16_t>((unbiased + 15) << 10) |
            static_cast<uint16_t>(static_cast<uint32_t>(scaled) - 1024);
    return true;
  }
  // Subnormal: a multiple of 2^-24 below 2^-14.
  const double scaled = std::ldexp(magnitude, 24);
  if (scaled != std::trunc(scaled)) return false;
  *bits = sign | static_cast<uint16_t>(scaled);
  return true;
}

std::string EncodeValue(const json& value, DataType type, uint8_t* out) {
  const uint32_t size = ElementSizeInBytes(type);
  if (size == 0) return "internal: unknown data type";
  if (value.is_string()) {
    const std::string& text = value.get_ref<const std::string&>();
    uint64_t bits;
    bool tooWide;
    if (ParseHex(text, &bits, &tooWide)) {
      if (tooWide || (size < 8 && bits >> (8 * size) != 0)) {
        return Show(value) + " does not fit the " + std::to_string(size) + " bytes of " +
               DataTypeName(type);
      }
      StoreLittleEndian(bits, size, out);
      return {};
    }
    if (text == "nan" || text == "inf" || text == "-inf") {
      if (!IsFloat(type)) return Show(value) + " is not a value of " + DataTypeName(type);
      StoreLittleEndian(SpecialBits(type, text == "nan", text[0] == '-'), size, out);
      return {};
    }
    if (!IsDecimalText(text)) {
      return Show(value) +
             " is not a value: use a number, a decimal integer, \"nan\", "
             "\"inf\", \"-inf\" or \"0x\" hex bits";
    }
  } else if (value.is_number_float() && IsFloat(type)) {
    return EncodeFloat(value.get<double>(), type, value, out);
  } else if (!value.is_number()) {
    return "expected a number or a string, got " + std::string(value.type_name()) + " " +
           Show(value);
  }
  Integer integer;
  std::string error = ReadInteger(value, &integer);
  if (!error.empty()) return error;
  return EncodeInteger(integer, type, value, out);
}

std::string ReadUint32(const json& value, uint32_t* out) {
  Integer integer;
  std::string error = ReadInteger(value, &integer);
  if (!error.empty()) return error;
  if ((integer.negative && integer.magnitude != 0) || integer.magnitude > 0xffffffffu) {
    return Show(value) + " is outside [0, 2^32)";
  }
  *out = static_cast<uint32_t>(integer.magnitude);
  return {};
}

std::string FormatBits(const uint8_t* element, uint32_t elementSize) {
  static const char kDigits[] = "0123456789abcdef";
  std::string text = "0x";
  for (uint32_t i = elementSize; i-- > 0;) {
    text += kDigits[element[i] >> 4];
    text += kDigits[element[i] & 0xf];
  }
  return text;
}

}  // namespace gs::cases
