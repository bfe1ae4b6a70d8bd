// Reading case files: every key known, every rule between the parts of a case checked.
#include "case_file.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

namespace gs::cases {
namespace {

using nlohmann::json;

// A valid GATHER_ELEMENTS case to mutate.
json BaseCase() {
  return json::parse(R"({
    "name": "base",
    "operator": "GATHER_ELEMENTS",
    "attributes": {"Axis": 0},
    "tensors": {
      "InputTensor":   {"dataType": "FLOAT32", "sizes": [3], "data": [1, 2, 3]},
      "IndicesTensor": {"dataType": "UINT32",  "sizes": [2], "data": [2, 0]},
      "OutputTensor":  {"dataType": "FLOAT32", "sizes": [2], "expected": [3, 1]}
    }
  })");
}

CaseEntry ParseOne(const json& c) {
  const CaseFile file = ParseCaseFile(json{{"cases", json::array({c})}}.dump(), "test.json");
  EXPECT_EQ(file.error, "");
  EXPECT_EQ(file.entries.size(), 1u);
  return file.entries.empty() ? CaseEntry{} : file.entries[0];
}

// The reason a case is refused; "" when it reads.
std::string ErrorOf(const json& c) { return ParseOne(c).error; }

#define EXPECT_REFUSED(c, text) EXPECT_NE(ErrorOf(c).find(text), std::string::npos) << ErrorOf(c)

TEST(CaseFile, ReadsTheBaseCase) {
  const CaseEntry entry = ParseOne(BaseCase());
  ASSERT_TRUE(entry.value) << entry.error;
  const Case& c = *entry.value;
  EXPECT_EQ(entry.label, "base");
  EXPECT_EQ(c.op, OperatorType::GatherElements);
  EXPECT_EQ(c.attributes[static_cast<int>(Attribute::Axis)], 0u);
  EXPECT_FALSE(c.expectError);
  ASSERT_TRUE(c.tensor(Role::Input));
  EXPECT_EQ(c.tensor(Role::Input)->data->size(), 12u);
  EXPECT_EQ(c.tensor(Role::Indices)->dataType, DataType::UInt32);
  EXPECT_EQ(c.tensor(Role::Output)->expected->size(), 8u);
  EXPECT_FALSE(c.tensor(Role::Updates));
}

TEST(CaseFile, UnknownKeysAreErrorsEverywhere) {
  json c = BaseCase();
  c["comment"] = "x";
  EXPECT_REFUSED(c, "unknown key \"comment\" in case");

  c = BaseCase();
  c["tensors"]["InputTensor"]["layout"] = "NCHW";
  EXPECT_REFUSED(c, "unknown key \"layout\" in InputTensor");

  c = BaseCase();
  c["tensors"]["BiasTensor"] = c["tensors"]["InputTensor"];
  EXPECT_REFUSED(c, "unknown tensor \"BiasTensor\"");

  c = BaseCase();
  c["attributes"]["Axes"] = 0;
  EXPECT_REFUSED(c, "unknown attribute \"Axes\"");
}

TEST(CaseFile, AttributesMustBelongToTheOperator) {
  json c = BaseCase();
  c["attributes"]["BatchDimensionCount"] = 0;
  EXPECT_REFUSED(c, "attribute BatchDimensionCount does not belong to GATHER_ELEMENTS");

  c = BaseCase();
  c["attributes"]["Reduction"] = "ADD";
  EXPECT_REFUSED(c, "attribute Reduction does not belong to GATHER_ELEMENTS");

  c = BaseCase();
  c["tensors"]["UpdatesTensor"] = c["tensors"]["InputTensor"];
  EXPECT_REFUSED(c, "UpdatesTensor does not belong to GATHER_ELEMENTS");
}

TEST(CaseFile, TensorKeysBelongToTheirRole) {
  json c = BaseCase();
  c["tensors"]["InputTensor"]["expected"] = {1, 2, 3};
  EXPECT_REFUSED(c, "\"expected\" is only for OutputTensor");

  c = BaseCase();
  c["tensors"]["OutputTensor"]["data"] = {1, 2};
  EXPECT_REFUSED(c, "OutputTensor takes \"fill\"");
}

TEST(CaseFile, AttributeValues) {
  json c = BaseCase();
  c["expect"] = "error";
  c["tensors"]["OutputTensor"].erase("expected");
  c["attributes"]["Axis"] = 4294967295u;
  const CaseEntry entry = ParseOne(c);
  ASSERT_TRUE(entry.value) << entry.error;
  EXPECT_EQ(entry.value->attributes[static_cast<int>(Attribute::Axis)], 4294967295u);

  c["attributes"]["Axis"] = "4294967295";
  EXPECT_EQ(ErrorOf(c), "");
  c["attributes"]["Axis"] = 4294967296u;
  EXPECT_REFUSED(c, "attribute Axis: 4294967296 is outside [0, 2^32)");
  c["attributes"]["Axis"] = -1;
  EXPECT_REFUSED(c, "outside [0, 2^32)");
}

TEST(CaseFile, ReductionOnScatters) {
  json c = json::parse(R"({
    "name": "s", "operator": "SCATTER_ND",
    "attributes": {"InputDimensionCount": 1, "IndicesDimensionCount": 2, "Reduction": "MAX"},
    "tensors": {
      "InputTensor":   {"dataType": "INT8", "sizes": [1, 2], "data": [1, 2]},
      "IndicesTensor": {"dataType": "INT64", "sizes": [1, 1], "data": [0]},
      "UpdatesTensor": {"dataType": "INT8", "sizes": [1, 1], "data": [5]},
      "OutputTensor":  {"dataType": "INT8", "sizes": [1, 2], "expected": [5, 2]}
    }
  })");
  const CaseEntry entry = ParseOne(c);
  ASSERT_TRUE(entry.value) << entry.error;
  EXPECT_EQ(entry.value->reduction, Reduction::Max);
  c["attributes"]["Reduction"] = "SUM";
  EXPECT_REFUSED(c, "unknown reduction \"SUM\"");
  c["attributes"].erase("Reduction");
  EXPECT_EQ(ParseOne(c).value->reduction, Reduction::None);
}

TEST(CaseFile, ValueErrorsNameTheirPlace) {
  json c = BaseCase();
  c["tensors"]["InputTensor"]["data"][1] = 0.1;
  EXPECT_REFUSED(c, "InputTensor.data[1]: 0.1 is not exactly representable as FLOAT32");
  c = BaseCase();
  c["tensors"]["IndicesTensor"]["data"][0] = -1;
  EXPECT_REFUSED(c, "IndicesTensor.data[0]: -1 is out of range for UINT32");
  c = BaseCase();
  c["tensors"]["OutputTensor"]["expected"][0] = "nan?";
  EXPECT_REFUSED(c, "OutputTensor.expected[0]");
  c = BaseCase();
  c["tensors"]["InputTensor"]["dataType"] = "BFLOAT16";
  EXPECT_REFUSED(c, "unknown data type \"BFLOAT16\"");
  c = BaseCase();
  c["tensors"]["InputTensor"]["sizes"] = {-3};
  EXPECT_REFUSED(c, "InputTensor.sizes[0]");
}

TEST(CaseFile, LengthsMustMatchTheView) {
  json c = BaseCase();
  c["tensors"]["InputTensor"]["data"] = {1, 2};
  EXPECT_REFUSED(c, "InputTensor.data has 2 values, the tensor has 3 elements");
  c = BaseCase();
  c["tensors"]["OutputTensor"]["expected"] = {1, 2, 3};
  EXPECT_REFUSED(c, "OutputTensor.expected has 3 values, the tensor has 2 elements");
  c = BaseCase();
  c["tensors"]["InputTensor"]["strides"] = {1, 1};
  EXPECT_REFUSED(c, "strides has 2 values, sizes 1");

  // Strided data is the whole backing buffer: any length.
  c = BaseCase();
  c["tensors"]["InputTensor"]["strides"] = {2};
  c["tensors"]["InputTensor"]["data"] = {1, 0, 2, 0, 3};
  EXPECT_EQ(ErrorOf(c), "");
}

TEST(CaseFile, SuccessNeedsEveryTensorAndAttribute) {
  json c = BaseCase();
  c["attributes"].erase("Axis");
  EXPECT_REFUSED(c, "GATHER_ELEMENTS needs attribute Axis");
  c = BaseCase();
  c["tensors"].erase("IndicesTensor");
  EXPECT_REFUSED(c, "GATHER_ELEMENTS needs IndicesTensor");
  c = BaseCase();
  c["tensors"]["OutputTensor"].erase("expected");
  EXPECT_REFUSED(c, "OutputTensor has no \"expected\"");
}

// A case expecting an error hands the library whatever desc it describes.
TEST(CaseFile, ExpectedErrorsMayDescribeInvalidDescs) {
  json c = BaseCase();
  c["expect"] = "error";
  c["errorContains"] = "Axis";
  c["tensors"]["OutputTensor"].erase("expected");
  c["attributes"].erase("Axis");
  c["tensors"]["InputTensor"]["sizes"] = {0};
  c["tensors"]["InputTensor"]["data"] = {1, 2};
  c["tensors"].erase("IndicesTensor");
  const CaseEntry entry = ParseOne(c);
  ASSERT_TRUE(entry.value) << entry.error;
  EXPECT_TRUE(entry.value->expectError);
  EXPECT_EQ(entry.value->errorContains, "Axis");

  c["tensors"]["OutputTensor"]["expected"] = {1, 2};
  EXPECT_REFUSED(c, "has \"expected\", but the case expects an error");
  c = BaseCase();
  c["errorContains"] = "x";
  EXPECT_REFUSED(c, "errorContains needs \"expect\": \"error\"");
  c = BaseCase();
  c["expect"] = "success";
  EXPECT_REFUSED(c, "expect must be \"error\"");
}

TEST(CaseFile, ModeAndInPlace) {
  json c = BaseCase();
  c["mode"] = "unchecked";
  EXPECT_TRUE(ParseOne(c).value->unchecked);
  c["mode"] = "fast";
  EXPECT_REFUSED(c, "mode must be");
  c = BaseCase();
  c["inPlace"] = true;
  EXPECT_REFUSED(c, "inPlace is only for the scatters");
  c["inPlace"] = "yes";
  EXPECT_REFUSED(c, "inPlace must be true or false");
}

TEST(CaseFile, CasesWithoutNamesAreLabelledByPosition) {
  json c = BaseCase();
  c.erase("name");
  const CaseEntry entry = ParseOne(c);
  EXPECT_EQ(entry.label, "test.json#0");
  EXPECT_EQ(entry.error, "case has no name");
}

TEST(CaseFile, ABadCaseDoesNotSpoilTheOthers) {
  json bad = BaseCase();
  bad["name"] = "bad";
  bad["tensors"]["InputTensor"]["data"][0] = true;
  const CaseFile file = ParseCaseFile(json{{"cases", {BaseCase(), bad, 7}}}.dump(), "f.json");
  ASSERT_EQ(file.entries.size(), 3u);
  EXPECT_TRUE(file.entries[0].value);
  EXPECT_EQ(file.entries[1].label, "bad");
  EXPECT_NE(file.entries[1].error.find("got boolean"), std::string::npos);
  EXPECT_EQ(file.entries[2].label, "f.json#2");
  EXPECT_NE(file.entries[2].error.find("a case must be an object"), std::string::npos);
}

// Nesting 60,000 deep (a 120 KB file) once overflowed the stack: refused before parsing, in
// `attributes`, `data` and `sizes` alike, while brackets inside strings do not count.
TEST(CaseFile, DeepNestingIsRefusedBeforeParsing) {
  for (const char* key : {"Axis", "data", "sizes"}) {
    const std::string deep = "{\"cases\": [{\"" + std::string(key) + "\": " +
                             std::string(60000, '[') + std::string(60000, ']') + "}]}";
    EXPECT_EQ(ParseCaseFile(deep, "f").error,
              "arrays and objects nested 60003 deep; the case format needs at most 64") << key;
  }
  const std::string quoted = "{\"cases\": [], \"x\": \"" + std::string(100, '[') + "\"}";
  EXPECT_NE(ParseCaseFile(quoted, "f").error.find("unknown key"), std::string::npos);
}

TEST(CaseFile, MalformedFiles) {
  EXPECT_NE(ParseCaseFile("{\"cases\": [", "f").error.find("not valid JSON"), std::string::npos);
  EXPECT_NE(ParseCaseFile("", "f").error.find("not valid JSON"), std::string::npos);
  EXPECT_NE(ParseCaseFile("[]", "f").error.find("must be an object"), std::string::npos);
  EXPECT_NE(ParseCaseFile("{}", "f").error.find("no \"cases\" array"), std::string::npos);
  EXPECT_NE(ParseCaseFile("{\"cases\": {}}", "f").error.find("no \"cases\" array"),
            std::string::npos);
  EXPECT_NE(ParseCaseFile("{\"cases\": [], \"version\": 2}", "f").error.find("unknown key"),
            std::string::npos);
  EXPECT_NE(ParseCaseFile("{\"cases\": [{\"name\": \"a\", \"name\": \"b\"}]}", "f")
                .error.find("duplicate key \"name\""),
            std::string::npos);
  EXPECT_EQ(ParseCaseFile("{\"cases\": []}", "f").error, "");
  EXPECT_NE(ReadCaseFile("/nonexistent/cases.json").error.find("cannot read"), std::string::npos);
}

TEST(CaseFile, DeeplyNestedJsonDoesNotCrash) {
  const std::string deep =
      "{\"cases\": [" + std::string(100000, '[') + std::string(100000, ']') + "]}";
  const CaseFile file = ParseCaseFile(deep, "deep.json");
  EXPECT_TRUE(file.entries.empty());
  EXPECT_EQ(file.error, "arrays and objects nested 100002 deep; the case format needs at most 64");
}

}  // namespace
}  // namespace gs::cases
