#include "case_file.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <set>

#include "buffers.h"
#include "values.h"

namespace gs::cases {
namespace {

using nlohmann::json;

constexpr const char* kRoleNames[kRoleCount] = {"InputTensor", "IndicesTensor", "UpdatesTensor",
                                                "OutputTensor"};

// A case that cannot be read: the reason travels up as this exception and becomes a FAIL.
struct FormatError {
  std::string message;
};

[[noreturn]] void Reject(std::string message) { throw FormatError{std::move(message)}; }

std::string Quote(const std::string& text) { return "\"" + text + "\""; }

const std::string& GetString(const json& value, const std::string& what) {
  if (!value.is_string()) Reject(what + " must be a string, got " + value.type_name());
  return value.get_ref<const std::string&>();
}

const json& GetArray(const json& value, const std::string& what) {
  if (!value.is_array()) Reject(what + " must be an array, got " + value.type_name());
  return value;
}

std::vector<uint32_t> ReadUint32List(const json& value, const std::string& what) {
  std::vector<uint32_t> list;
  for (const json& item : GetArray(value, what)) {
    uint32_t v;
    const std::string error = ReadUint32(item, &v);
    if (!error.empty()) Reject(what + "[" + std::to_string(list.size()) + "]: " + error);
    list.push_back(v);
  }
  return list;
}

std::vector<uint8_t> ReadValues(const json& value, DataType type, const std::string& what) {
  const uint32_t elementSize = ElementSizeInBytes(type);
  const json& array = GetArray(value, what);
  std::vector<uint8_t> bytes(array.size() * elementSize);
  for (size_t i = 0; i < array.size(); ++i) {
    const std::string error = EncodeValue(array[i], type, &bytes[i * elementSize]);
    if (!error.empty()) Reject(what + "[" + std::to_string(i) + "]: " + error);
  }
  return bytes;
}

TensorSpec ParseTensor(const json& object, Role role) {
  const std::string name = RoleName(role);
  if (!object.is_object()) Reject(name + " must be an object, got " + object.type_name());
  const bool isOutput = role == Role::Output;
  for (const auto& item : object.items()) {
    const std::string& key = item.key();
    if (key == "dataType" || key == "sizes" || key == "strides") continue;
    if (key == "data" && !isOutput) continue;
    if ((key == "fill" || key == "expected") && isOutput) continue;
    if (key == "data")
      Reject("OutputTensor takes \"fill\" (its bytes before the call), not \"data\"");
    if (key == "fill" || key == "expected")
      Reject(name + " is an input: \"" + key + "\" is only for OutputTensor");
    Reject("unknown key " + Quote(key) + " in " + name);
  }

  TensorSpec spec;
  if (!object.contains("dataType")) Reject(name + " has no dataType");
  const std::string& typeName = GetString(object["dataType"], name + ".dataType");
  if (!ParseDataType(typeName.c_str(), &spec.dataType)) {
    Reject(name + ".dataType: unknown data type " + Quote(typeName));
  }
  if (!object.contains("sizes")) Reject(name + " has no sizes");
  spec.sizes = ReadUint32List(object["sizes"], name + ".sizes");
  if (object.contains("strides")) {
    spec.strides = ReadUint32List(object["strides"], name + ".strides");
    if (spec.strides->size() != spec.sizes.size()) {
      Reject(name + ": strides has " + std::to_string(spec.strides->size()) + " values, sizes " +
           std::to_string(spec.sizes.size()));
    }
  }
  const char* dataKey = isOutput ? "fill" : "data";
  if (object.contains(dataKey)) {
    spec.data = ReadValues(object[dataKey], spec.dataType, name + "." + dataKey);
  }
  if (object.contains("expected")) {
    spec.expected = ReadValues(object["expected"], spec.dataType, name + ".expected");
  }
  return spec;
}

void ParseAttributes(const json& object, Case* c) {
  if (!object.is_object())
    Reject(std::string("attributes must be an object, got ") + object.type_name());
  const char* opName = OperatorTypeName(c->op);
  for (const auto& item : object.items()) {
    const std::string& key = item.key();
    if (key == "Reduction") {
      if (!IsScatter(c->op)) Reject(std::string("attribute Reduction does not belong to ") + opName);
      const std::string& value = GetString(item.value(), "attribute Reduction");
      if (!ParseReduction(value.c_str(), &c->reduction)) {
        Reject("attribute Reduction: unknown reduction " + Quote(value) +
             " (NONE, ADD, MULTIPLY, MIN or MAX)");
      }
      continue;
    }
    int a = 0;
    while (a < kAttributeCount && key != AttributeName(static_cast<Attribute>(a))) ++a;
    if (a == kAttributeCount) Reject("unknown attribute " + Quote(key));
    if (!HasAttribute(c->op, static_cast<Attribute>(a))) {
      Reject("attribute " + key + " does not belong to " + opName);
    }
    uint32_t value;
    const std::string error = ReadUint32(item.value(), &value);
    if (!error.empty()) Reject("attribute " + key + ": " + error);
    c->attributes[a] = value;
  }
}

void ParseTensors(const json& object, Case* c) {
  if (!object.is_object())
    Reject(std::string("tensors must be an object, got ") + object.type_name());
  for (const auto& item : object.items()) {
    int r = 0;
    while (r < kRoleCount && item.key() != kRoleNames[r]) ++r;
    if (r == kRoleCount) Reject("unknown tensor " + Quote(item.key()));
    const auto role = static_cast<Role>(r);
    if (role == Role::Updates && !IsScatter(c->op)) {
      Reject(std::string("UpdatesTensor does not belong to ") + OperatorTypeName(c->op));
    }
    c->tensors[r] = ParseTensor(item.value(), role);
  }
}

uint64_t CountOf(const TensorSpec& spec, const std::string& what) {
  uint64_t count;
  if (!ElementCount(spec.sizes, &count)) Reject(what + " has more elements than 2^64");
  return count;
}

// Rules between the parts of a case. A case expecting an error may break the ones that only
// make a desc invalid (missing tensors or attributes, short buffers, a mismatched in-place
// view): handing such a desc to the library is the point of the case.
void CheckConsistency(Case* c) {
  const bool strict = !c->expectError;
  const char* opName = OperatorTypeName(c->op);
  for (int a = 0; a < kAttributeCount; ++a) {
    const auto attribute = static_cast<Attribute>(a);
    if (strict && HasAttribute(c->op, attribute) && !c->attributes[a]) {
      Reject(std::string(opName) + " needs attribute " + AttributeName(attribute));
    }
  }
  for (int r = 0; r < kRoleCount; ++r) {
    const auto role = static_cast<Role>(r);
    if (role == Role::Updates && !IsScatter(c->op)) continue;
    const std::optional<TensorSpec>& spec = c->tensors[r];
    const std::string name = kRoleNames[r];
    if (!spec) {
      if (strict) Reject(std::string(opName) + " needs " + name);
      continue;
    }
    const uint32_t elementSize = spec->ElementSize();
    // Packed data holds exactly the view; strided data is the whole buffer, any length.
    if (spec->data && !spec->strides && strict) {
      const uint64_t count = CountOf(*spec, name);
      if (spec->data->size() / elementSize != count) {
        Reject(name + "." + (role == Role::Output ? "fill" : "data") + " has " +
             std::to_string(spec->data->size() / elementSize) + " values, the tensor has " +
             std::to_string(count) + " elements");
      }
    }
    if (role != Role::Output) {
      if (!spec->data && strict) Reject(name + " has no data");
      continue;
    }
    if (c->expectError && spec->expected) {
      Reject("OutputTensor has \"expected\", but the case expects an error");
    }
    if (!c->expectError && !spec->expected) {
      Reject("OutputTensor has no \"expected\" (nor does the case say \"expect\": \"error\")");
    }
    if (spec->expected) {
      const uint64_t count = CountOf(*spec, name);
      if (spec->expected->size() / elementSize != count) {
        Reject("OutputTensor.expected has " + std::to_string(spec->expected->size() / elementSize) +
             " values, the tensor has " + std::to_string(count) + " elements");
      }
    }
  }
  if (c->inPlace) {
    const std::optional<TensorSpec>& input = c->tensor(Role::Input);
    const std::optional<TensorSpec>& output = c->tensor(Role::Output);
    if (output && output->data)
      Reject("an in-place OutputTensor carries no \"fill\": its buffer is InputTensor's");
    if (strict && !IsScatter(c->op))
      Reject(std::string("inPlace is only for the scatters, not ") + opName);
    if (strict && input && output &&
        (input->sizes != output->sizes || input->strides != output->strides ||
         input->dataType != output->dataType)) {
      Reject("inPlace: OutputTensor must repeat InputTensor's dataType, sizes and strides");
    }
  }
}

Case ParseCase(const json& object) {
  if (!object.is_object()) Reject(std::string("a case must be an object, got ") + object.type_name());
  for (const auto& item : object.items()) {
    static const std::set<std::string> kKeys = {"name",   "operator",      "attributes", "tensors",
                                                "expect", "errorContains", "mode",       "inPlace"};
    if (kKeys.count(item.key()) == 0) Reject("unknown key " + Quote(item.key()) + " in case");
  }
  Case c;
  // The name first, so that later errors are reported under it.
  if (!object.contains("name")) Reject("case has no name");
  c.name = GetString(object["name"], "name");
  if (c.name.empty()) Reject("name is empty");

  if (!object.contains("operator")) Reject("case has no operator");
  const std::string& opName = GetString(object["operator"], "operator");
  if (!ParseOperatorType(opName.c_str(), &c.op)) Reject("unknown operator " + Quote(opName));

  if (object.contains("expect")) {
    const std::string& expect = GetString(object["expect"], "expect");
    if (expect != "error") Reject("expect must be \"error\", got " + Quote(expect));
    c.expectError = true;
  }
  if (object.contains("errorContains")) {
    if (!c.expectError) Reject("errorContains needs \"expect\": \"error\"");
    c.errorContains = GetString(object["errorContains"], "errorContains");
  }
  if (object.contains("mode")) {
    const std::string& mode = GetString(object["mode"], "mode");
    if (mode != "checked" && mode != "unchecked") {
      Reject("mode must be \"checked\" or \"unchecked\", got " + Quote(mode));
    }
    c.unchecked = mode == "unchecked";
  }
  if (object.contains("inPlace")) {
    if (!object["inPlace"].is_boolean()) Reject("inPlace must be true or false");
    c.inPlace = object["inPlace"].get<bool>();
  }
  if (object.contains("attributes")) ParseAttributes(object["attributes"], &c);
  if (!object.contains("tensors")) Reject("case has no tensors");
  ParseTensors(object["tensors"], &c);
  CheckConsistency(&c);
  return c;
}

// JSON allows repeated keys and nlohmann keeps the last; a case file must not rely on that.
class DuplicateKeyCheck {
 public:
  bool operator()(int /*depth*/, json::parse_event_t event, json& parsed) {
    switch (event) {
      case json::parse_event_t::object_start: keys_.emplace_back(); break;
      case json::parse_event_t::object_end: keys_.pop_back(); break;
      case json::parse_event_t::key:
        if (!keys_.back().insert(parsed.get<std::string>()).second && error_->empty()) {
          *error_ = "duplicate key " + Quote(parsed.get<std::string>());
        }
        break;
      default: break;
    }
    return true;
  }
  explicit DuplicateKeyCheck(std::string* error) : error_(error) {}

 private:
  std::vector<std::set<std::string>> keys_;
  std::string* error_;
};

}  // namespace

const char* RoleName(Role role) { return kRoleNames[static_cast<int>(role)]; }

bool IsScatter(OperatorType op) {
  return op == OperatorType::ScatterElements || op == OperatorType::ScatterNd;
}

bool HasAttribute(OperatorType op, Attribute attribute) {
  switch (op) {
    case OperatorType::Gather:
      return attribute == Attribute::Axis || attribute == Attribute::IndexDimensions;
    case OperatorType::GatherElements:
    case OperatorType::ScatterElements: return attribute == Attribute::Axis;
    case OperatorType::GatherNd:
    case OperatorType::ScatterNd:
      return attribute == Attribute::InputDimensionCount ||
             attribute == Attribute::IndicesDimensionCount;
    case OperatorType::GatherNd1:
      return attribute == Attribute::InputDimensionCount ||
             attribute == Attribute::IndicesDimensionCount ||
             attribute == Attribute::BatchDimensionCount;
  }
  return false;
}

// The deepest nesting of arrays and objects in the text (strings skipped). The case format
// nests a few levels; a file nested thousands deep would exhaust the stack of any recursive
// walk of the parsed value, so it is refused before parsing.
size_t NestingDepth(const std::string& text) {
  size_t depth = 0, deepest = 0;
  bool inString = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char ch = text[i];
    if (inString) {
      if (ch == '\\') ++i;
      else if (ch == '"') inString = false;
    } else if (ch == '"') {
      inString = true;
    } else if (ch == '[' || ch == '{') {
      deepest = std::max(deepest, ++depth);
    } else if ((ch == ']' || ch == '}') && depth > 0) {
      --depth;
    }
  }
  return deepest;
}

CaseFile ParseCaseFile(const std::string& text, const std::string& sourceName) {
  CaseFile file;
  constexpr size_t kMaxNesting = 64;
  if (const size_t depth = NestingDepth(text); depth > kMaxNesting) {
    file.error = "arrays and objects nested " + std::to_string(depth) + " deep; the case format needs at most " +
                 std::to_string(kMaxNesting);
    return file;
  }
  json root;
  std::string duplicate;
  try {
    root = json::parse(text, DuplicateKeyCheck(&duplicate));
  } catch (const json::exception& e) {
    file.error = std::string("not valid JSON: ") + e.what();
    return file;
  }
  if (!duplicate.empty()) {
    file.error = duplicate;
    return file;
  }
  if (!root.is_object()) {
    file.error = "the file must be an object {\"cases\": [...]}";
    return file;
  }
  for (const auto& item : root.items()) {
    if (item.key() != "cases") {
      file.error = "unknown key " + Quote(item.key()) + " at the top level";
      return file;
    }
  }
  if (!root.contains("cases") || !root["cases"].is_array()) {
    file.error = "the file has no \"cases\" array";
    return file;
  }
  const json& cases = root["cases"];
  for (size_t i = 0; i < cases.size(); ++i) {
    CaseEntry entry;
    entry.label = sourceName + "#" + std::to_string(i);
    const json& object = cases[i];
    if (object.is_object() && object.contains("name") && object["name"].is_string() &&
        !object["name"].get_ref<const std::string&>().empty()) {
      entry.label = object["name"].get<std::string>();
    }
    try {
      entry.value = ParseCase(object);
    } catch (const FormatError& e) {
      entry.error = e.message;
    } catch (const std::exception& e) {  // e.g. bad_alloc on an absurd array
      entry.error = std::string("cannot read the case: ") + e.what();
    }
    file.entries.push_back(std::move(entry));
  }
  return file;
}

CaseFile ReadCaseFile(const std::string& path) {
  CaseFile file;
  std::error_code error;
  if (!std::filesystem::is_regular_file(path, error)) {
    file.error = "cannot read the file (missing, or not a regular file)";
    return file;
  }
  std::ifstream in(path, std::ios::binary);
  std::string text;
  if (in) text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  if (!in || in.bad()) {
    file.error = "cannot read the file";
    return file;
  }
  return ParseCaseFile(text, path);
}

}  // namespace gs::cases
