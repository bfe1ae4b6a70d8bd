// Encoding of case-file values into element bytes: exact or an error, never rounded.
#include "values.h"

#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>

namespace gs::cases {
namespace {

using nlohmann::json;

// The element's bits as hex, or "error: ..." when the value is refused.
std::string Encode(const json& value, DataType type) {
  uint8_t bytes[8] = {};
  const std::string error = EncodeValue(value, type, bytes);
  if (!error.empty()) return "error: " + error;
  return FormatBits(bytes, ElementSizeInBytes(type));
}

// The text in a JSON document, parsed as nlohmann parses a case file.
json Number(const char* text) { return json::parse(text); }

TEST(Values, HexIsTheElementsBitsForAnyType) {
  EXPECT_EQ(Encode("0x7e01", DataType::Float16), "0x7e01");
  EXPECT_EQ(Encode("0x7f800001", DataType::Float32), "0x7f800001");
  EXPECT_EQ(Encode("0xFFF0000000000001", DataType::Float64), "0xfff0000000000001");
  EXPECT_EQ(Encode("0x80", DataType::Int8), "0x80");
  EXPECT_EQ(Encode("0x1", DataType::UInt64), "0x0000000000000001");
  EXPECT_EQ(Encode("0x0000ff", DataType::UInt8), "0xff");  // leading zeros are fine
}

TEST(Values, HexMustFitTheElement) {
  EXPECT_NE(Encode("0x100", DataType::UInt8).find("does not fit"), std::string::npos);
  EXPECT_NE(Encode("0x17e00", DataType::Float16).find("does not fit"), std::string::npos);
  EXPECT_NE(Encode("0x10000000000000000", DataType::UInt64).find("does not fit"),
            std::string::npos);
  EXPECT_EQ(Encode("0xffffffffffffffff", DataType::Int64), "0xffffffffffffffff");
  EXPECT_EQ(Encode("0x", DataType::UInt8).rfind("error", 0), 0u);
  EXPECT_EQ(Encode("0x1g", DataType::UInt8).rfind("error", 0), 0u);
}

TEST(Values, NanIsCanonicalQuietWithSignClear) {
  EXPECT_EQ(Encode("nan", DataType::Float16), "0x7e00");
  EXPECT_EQ(Encode("nan", DataType::Float32), "0x7fc00000");
  EXPECT_EQ(Encode("nan", DataType::Float64), "0x7ff8000000000000");
}

TEST(Values, Infinities) {
  EXPECT_EQ(Encode("inf", DataType::Float16), "0x7c00");
  EXPECT_EQ(Encode("-inf", DataType::Float16), "0xfc00");
  EXPECT_EQ(Encode("inf", DataType::Float32), "0x7f800000");
  EXPECT_EQ(Encode("-inf", DataType::Float32), "0xff800000");
  EXPECT_EQ(Encode("inf", DataType::Float64), "0x7ff0000000000000");
  EXPECT_EQ(Encode("-inf", DataType::Float64), "0xfff0000000000000");
}

TEST(Values, SpecialFloatWordsAreNotIntegers) {
  EXPECT_NE(Encode("nan", DataType::Int32).find("not a value of INT32"), std::string::npos);
  EXPECT_NE(Encode("inf", DataType::UInt8).find("not a value of UINT8"), std::string::npos);
  EXPECT_EQ(Encode("NaN", DataType::Float32).rfind("error", 0), 0u);  // the spelling is exact
}

TEST(Values, BigIntegersAsStrings) {
  EXPECT_EQ(Encode("18446744073709551615", DataType::UInt64), "0xffffffffffffffff");
  EXPECT_EQ(Encode("9223372036854775807", DataType::Int64), "0x7fffffffffffffff");
  EXPECT_EQ(Encode("-9223372036854775808", DataType::Int64), "0x8000000000000000");
  EXPECT_EQ(Encode("9007199254740993", DataType::Int64), "0x0020000000000001");
  EXPECT_NE(Encode("18446744073709551616", DataType::UInt64).find("out of range"),
            std::string::npos);
  EXPECT_NE(Encode("99999999999999999999999", DataType::UInt64).find("out of range"),
            std::string::npos);
  EXPECT_NE(Encode("9223372036854775808", DataType::Int64).find("out of range"), std::string::npos);
  EXPECT_NE(Encode("-9223372036854775809", DataType::Int64).find("out of range"),
            std::string::npos);
}

TEST(Values, JsonNumbersBeyondTwoPow53MustBeStrings) {
  EXPECT_EQ(Encode(Number("9007199254740992"), DataType::Int64), "0x0020000000000000");
  EXPECT_EQ(Encode(Number("-9007199254740992"), DataType::Int64), "0xffe0000000000000");
  EXPECT_NE(Encode(Number("9007199254740993"), DataType::Int64).find("write it as a string"),
            std::string::npos);
  EXPECT_NE(Encode(Number("-9007199254740993"), DataType::Int64).find("write it as a string"),
            std::string::npos);
  EXPECT_NE(Encode(Number("1e17"), DataType::UInt64).find("write it as a string"),
            std::string::npos);
}

TEST(Values, IntegersMustBeInRange) {
  EXPECT_EQ(Encode(-128, DataType::Int8), "0x80");
  EXPECT_EQ(Encode(127, DataType::Int8), "0x7f");
  EXPECT_NE(Encode(128, DataType::Int8).find("out of range for INT8"), std::string::npos);
  EXPECT_NE(Encode(-129, DataType::Int8).find("out of range for INT8"), std::string::npos);
  EXPECT_EQ(Encode(255, DataType::UInt8), "0xff");
  EXPECT_NE(Encode(256, DataType::UInt8).find("out of range for UINT8"), std::string::npos);
  EXPECT_NE(Encode(-1, DataType::UInt8).find("out of range for UINT8"), std::string::npos);
  EXPECT_NE(Encode(-1, DataType::UInt64).find("out of range"), std::string::npos);
  EXPECT_EQ(Encode(-32768, DataType::Int16), "0x8000");
  EXPECT_EQ(Encode(65535, DataType::UInt16), "0xffff");
  EXPECT_EQ(Encode(-1, DataType::Int32), "0xffffffff");
  EXPECT_EQ(Encode(4294967295u, DataType::UInt32), "0xffffffff");
  EXPECT_NE(Encode(4294967296u, DataType::UInt32).find("out of range"), std::string::npos);
}

TEST(Values, IntegersTakeNoFraction) {
  EXPECT_NE(Encode(Number("1.5"), DataType::Int32).find("not an integer"), std::string::npos);
  EXPECT_EQ(Encode(Number("3.0"), DataType::Int32), "0x00000003");
  EXPECT_EQ(Encode(Number("-2e0"), DataType::Int8), "0xfe");
  EXPECT_EQ(Encode("1.5", DataType::Int32).rfind("error", 0), 0u);
  EXPECT_EQ(Encode("+1", DataType::Int32).rfind("error", 0), 0u);
  EXPECT_EQ(Encode(" 1", DataType::Int32).rfind("error", 0), 0u);
  EXPECT_EQ(Encode("", DataType::Int32).rfind("error", 0), 0u);
}

TEST(Values, OnlyNumbersAndStrings) {
  EXPECT_NE(Encode(true, DataType::Int32).find("got boolean"), std::string::npos);
  EXPECT_NE(Encode(nullptr, DataType::Float32).find("got null"), std::string::npos);
  EXPECT_NE(Encode(json::array({1}), DataType::Float32).find("got array"), std::string::npos);
}

TEST(Values, Float16FromNumbersMustBeExact) {
  EXPECT_EQ(Encode(1.5, DataType::Float16), "0x3e00");
  EXPECT_EQ(Encode(-2, DataType::Float16), "0xc000");
  EXPECT_EQ(Encode(65504, DataType::Float16), "0x7bff");
  EXPECT_EQ(Encode(2048, DataType::Float16), "0x6800");
  EXPECT_EQ(Encode(std::ldexp(1.0, -14), DataType::Float16), "0x0400");  // smallest normal
  EXPECT_EQ(Encode(std::ldexp(1.0, -24), DataType::Float16), "0x0001");  // smallest subnormal
  EXPECT_EQ(Encode(std::ldexp(1023.0, -24), DataType::Float16), "0x03ff");
  EXPECT_EQ(Encode(Number("-0.0"), DataType::Float16), "0x8000");
  EXPECT_EQ(Encode("-0", DataType::Float16), "0x8000");
  for (double inexact :
       {0.1, 2049.0, 65505.0, 65520.0, 1e6, std::ldexp(1.0, -25), std::ldexp(3.0, -26), 1e-300}) {
    EXPECT_NE(Encode(inexact, DataType::Float16).find("not exactly representable as FLOAT16"),
              std::string::npos)
        << inexact;
  }
}

TEST(Values, Float32FromNumbersMustRoundTrip) {
  EXPECT_EQ(Encode(0.5, DataType::Float32), "0x3f000000");
  EXPECT_EQ(Encode(Number("-0.0"), DataType::Float32), "0x80000000");
  EXPECT_EQ(Encode(Number("1.401298464324817e-45"), DataType::Float32), "0x00000001");
  EXPECT_EQ(Encode(Number("3.4028234663852886e+38"), DataType::Float32), "0x7f7fffff");
  EXPECT_EQ(Encode("16777216", DataType::Float32), "0x4b800000");
  EXPECT_NE(Encode(0.1, DataType::Float32).find("not exactly representable as FLOAT32"),
            std::string::npos);
  EXPECT_NE(Encode(16777217, DataType::Float32).find("not exactly representable"),
            std::string::npos);
  EXPECT_NE(Encode(Number("1e39"), DataType::Float32).find("not exactly representable"),
            std::string::npos);
}

TEST(Values, Float64) {
  EXPECT_EQ(Encode(0.1, DataType::Float64), "0x3fb999999999999a");
  EXPECT_EQ(Encode(Number("-0.0"), DataType::Float64), "0x8000000000000000");
  EXPECT_EQ(Encode("-9007199254740992", DataType::Float64), "0xc340000000000000");
  EXPECT_EQ(Encode("18446744073709549568", DataType::Float64), "0x43efffffffffffff");
  EXPECT_NE(Encode("9007199254740993", DataType::Float64).find("not exactly representable"),
            std::string::npos);
  EXPECT_NE(Encode("18446744073709551615", DataType::Float64).find("not exactly"),
            std::string::npos);
}

TEST(Values, ElementBytesAreLittleEndian) {
  uint8_t bytes[4] = {};
  ASSERT_EQ(EncodeValue("0x11223344", DataType::UInt32, bytes), "");
  EXPECT_EQ(bytes[0], 0x44);
  EXPECT_EQ(bytes[3], 0x11);
}

TEST(Values, Uint32Attributes) {
  uint32_t value = 0;
  EXPECT_EQ(ReadUint32(4294967295u, &value), "");
  EXPECT_EQ(value, 4294967295u);
  EXPECT_EQ(ReadUint32("4294967295", &value), "");
  EXPECT_NE(ReadUint32(4294967296u, &value).find("outside [0, 2^32)"), std::string::npos);
  EXPECT_NE(ReadUint32(-1, &value).find("outside [0, 2^32)"), std::string::npos);
  EXPECT_NE(ReadUint32(1.5, &value), "");
  EXPECT_NE(ReadUint32("one", &value), "");
}

}  // namespace
}  // namespace gs::cases
