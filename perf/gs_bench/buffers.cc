#include "buffers.h"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <map>
#include <new>
#include <stdexcept>
#include <utility>
#include <vector>

#include "operator_desc.h"  // tools/case_runner: the desc switch gs-cases uses too

namespace gs_bench {
namespace {

using json = nlohmann::json;
using gs::cases::Attribute;

uint64_t Product(const std::vector<uint32_t>& shape) {
  uint64_t n = 1;
  for (uint32_t s : shape) n *= s;
  return n;
}

void StoreIndex(void* data, gs::DataType type, uint64_t i, uint64_t value) {
  switch (type) {
    case gs::DataType::Int64: static_cast<int64_t*>(data)[i] = static_cast<int64_t>(value); break;
    case gs::DataType::UInt64: static_cast<uint64_t*>(data)[i] = value; break;
    case gs::DataType::Int32: static_cast<int32_t*>(data)[i] = static_cast<int32_t>(value); break;
    case gs::DataType::UInt32: static_cast<uint32_t*>(data)[i] = static_cast<uint32_t>(value); break;
    default: throw std::runtime_error("unsupported index data type");
  }
}

// Deterministic, finite values of the element type.
void FillData(void* data, gs::DataType type, uint64_t count, uint32_t salt) {
  for (uint64_t i = 0; i < count; ++i) {
    uint32_t v = static_cast<uint32_t>((i * 2654435761u + salt) >> 7) & 0x3ff;
    switch (gs::ElementSizeInBytes(type)) {
      case 1: static_cast<uint8_t*>(data)[i] = static_cast<uint8_t>(v & 0x7f); break;
      case 2:
        // FLOAT16: 1.0 .. 2.0 (0x3C00 + mantissa); integers: small values.
        static_cast<uint16_t*>(data)[i] =
            static_cast<uint16_t>(type == gs::DataType::Float16 ? 0x3C00 + v : v);
        break;
      case 4:
        if (type == gs::DataType::Float32) {
          static_cast<float*>(data)[i] = static_cast<float>(v);
        } else {
          static_cast<uint32_t*>(data)[i] = v;
        }
        break;
      case 8:
        if (type == gs::DataType::Float64) {
          static_cast<double*>(data)[i] = static_cast<double>(v);
        } else {
          static_cast<uint64_t*>(data)[i] = v;
        }
        break;
      default: throw std::runtime_error("bad element type");
    }
  }
}

struct TensorShape {
  std::vector<uint32_t> sizes;
  gs::TensorDesc desc;
};

// The suite entry read: types, packed tensors and the desc's parts.
struct SuiteDesc {
  gs::DataType dtype, itype;
  bool scatter = false;
  std::map<std::string, TensorShape> tensors;
  gs::cases::OperatorParts parts;
  // For each index element: the bound of the input dimension it indexes (tuple component k
  // of element i bounds it at [i % size]).
  std::vector<uint64_t> tuple_bounds;

  const TensorShape& at(const char* name) const { return tensors.at(name); }
};

gs::DataType ParseType(const json& spec, const char* key) {
  gs::DataType type;
  const std::string name = spec.at(key).get<std::string>();
  if (!gs::ParseDataType(name.c_str(), &type)) throw std::runtime_error(std::string("bad ") + key + " " + name);
  return type;
}

// Packed tensors; TotalTensorSizeInBytes a multiple of 4, as DirectML wants.
void ReadShapes(const json& shapes, SuiteDesc* d) {
  for (const char* name : {"InputTensor", "IndicesTensor", "UpdatesTensor", "OutputTensor"}) {
    if (!shapes.contains(name)) continue;
    TensorShape& s = d->tensors[name];
    s.sizes = shapes.at(name).get<std::vector<uint32_t>>();
    s.desc.DataType = std::string(name) == "IndicesTensor" ? d->itype : d->dtype;
    s.desc.DimensionCount = static_cast<uint32_t>(s.sizes.size());
    s.desc.Sizes = s.sizes.data();
    s.desc.Strides = nullptr;
    uint64_t bytes = Product(s.sizes) * gs::ElementSizeInBytes(s.desc.DataType);
    s.desc.TotalTensorSizeInBytes = (bytes + 3) / 4 * 4;
  }
  auto desc_of = [&](const char* name) -> const gs::TensorDesc* {
    auto it = d->tensors.find(name);
    return it == d->tensors.end() ? nullptr : &it->second.desc;
  };
  d->parts.input = desc_of("InputTensor");
  d->parts.indices = desc_of("IndicesTensor");
  d->parts.updates = desc_of("UpdatesTensor");
  d->parts.output = desc_of("OutputTensor");
}

// Attributes by their DirectML names; an ND op's absent InputDimensionCount is the input's rank.
void ReadAttributes(const json& attrs, uint32_t rank, SuiteDesc* d) {
  for (int a = 0; a < gs::cases::kAttributeCount; ++a) {
    const char* name = gs::cases::AttributeName(static_cast<Attribute>(a));
    if (attrs.contains(name)) d->parts.attributes[a] = attrs.at(name).get<uint32_t>();
  }
  auto& idc = d->parts.attributes[static_cast<int>(Attribute::InputDimensionCount)];
  if (!idc) idc = rank;
  if (attrs.contains("Reduction")) {
    const std::string s = attrs.at("Reduction").get<std::string>();
    if (!gs::ParseReduction(s.c_str(), &d->parts.reduction)) throw std::runtime_error("bad Reduction " + s);
  }
}

// Elementwise ops (gather/scatter elements, gather): every element indexes dim `axis`.
// ND ops: the last indices dimension is the tuple; component k indexes input dim
// rank - InputDimensionCount + BatchDimensionCount + k.
std::vector<uint64_t> TupleBounds(const SuiteDesc& d) {
  auto attribute = [&](Attribute a) { return d.parts.attributes[static_cast<int>(a)].value_or(0); };
  const std::vector<uint32_t>& in_shape = d.at("InputTensor").sizes;
  const uint32_t rank = static_cast<uint32_t>(in_shape.size());
  switch (d.parts.op) {
    case gs::OperatorType::Gather:
    case gs::OperatorType::GatherElements:
    case gs::OperatorType::ScatterElements: return {in_shape.at(attribute(Attribute::Axis))};
    default: break;
  }
  std::vector<uint64_t> bounds;
  const uint32_t q = d.at("IndicesTensor").sizes.back();
  const uint32_t first =
      rank - attribute(Attribute::InputDimensionCount) + attribute(Attribute::BatchDimensionCount);
  for (uint32_t k = 0; k < q; ++k) bounds.push_back(in_shape.at(first + k));
  return bounds;
}

SuiteDesc ReadDesc(const json& spec) {
  SuiteDesc d;
  const std::string op_name = spec.at("op").get<std::string>();
  if (!gs::ParseOperatorType(op_name.c_str(), &d.parts.op)) throw std::runtime_error("bad op " + op_name);
  d.dtype = ParseType(spec, "dtype");
  d.itype = ParseType(spec, "index_dtype");
  d.scatter = d.parts.op == gs::OperatorType::ScatterElements || d.parts.op == gs::OperatorType::ScatterNd;
  ReadShapes(spec.at("shapes"), &d);
  const json& attrs = spec.contains("attributes") ? spec.at("attributes") : json::object();
  ReadAttributes(attrs, static_cast<uint32_t>(d.at("InputTensor").sizes.size()), &d);
  d.tuple_bounds = TupleBounds(d);
  return d;
}

// The suite's index distribution (DrawIndices), from the case's seed.
void FillIndices(const Case& c, const SuiteDesc& d, void* indices) {
  DrawIndices(c, Product(d.at("IndicesTensor").sizes), d.tuple_bounds,
              [&](uint64_t i, uint64_t value) { StoreIndex(indices, d.itype, i, value); });
}

// The buffers and bindings; the "inplace" scatter variant binds Output to Input.
void AllocateBuffers(const Case& c, const std::string& variant, const SuiteDesc& d, Prepared* p) {
  const TensorShape& ti = d.at("InputTensor");
  const TensorShape& tx = d.at("IndicesTensor");
  const TensorShape& to = d.at("OutputTensor");
  p->input = Buffer(ti.desc.TotalTensorSizeInBytes);
  FillData(p->input.data(), d.dtype, Product(ti.sizes), 1);
  p->indices = Buffer(tx.desc.TotalTensorSizeInBytes);
  if (d.scatter) {
    const TensorShape& tu = d.at("UpdatesTensor");
    p->updates = Buffer(tu.desc.TotalTensorSizeInBytes);
    FillData(p->updates.data(), d.dtype, Product(tu.sizes), 2);
  }
  const bool inplace = d.scatter && variant == "inplace";
  if (!inplace) {
    p->output = Buffer(to.desc.TotalTensorSizeInBytes);
    std::memset(p->output.data(), 0, p->output.size());
  }
  FillIndices(c, d, p->indices.data());

  p->bindings.InputTensor = {p->input.data(), ti.desc.TotalTensorSizeInBytes};
  p->bindings.IndicesTensor = {p->indices.data(), tx.desc.TotalTensorSizeInBytes};
  if (d.scatter) {
    p->bindings.UpdatesTensor = {p->updates.data(), d.at("UpdatesTensor").desc.TotalTensorSizeInBytes};
  }
  p->bindings.OutputTensor = {inplace ? p->input.data() : p->output.data(),
                              to.desc.TotalTensorSizeInBytes};
}

}  // namespace

gs::CpuExecuteOptions CpuOptions(bool checked, int threads) {
  gs::CpuExecuteOptions options;
  options.Checking = checked ? gs::IndexChecking::Checked : gs::IndexChecking::Unchecked;
  options.ThreadCount = threads;
  return options;
}

std::unique_ptr<Prepared> Prepare(const Case& c, const std::string& variant) {
  auto p = std::make_unique<Prepared>();
  const SuiteDesc d = ReadDesc(c.spec);
  gs::cases::DescStorage storage;
  gs::Status st = gs::CompileOperator(gs::cases::BuildOperatorDesc(d.parts, &storage), &p->op);
  if (!st.ok()) {
    p->error = "CompileOperator: " + st.message();
    return p;
  }
  AllocateBuffers(c, variant, d, p.get());
  return p;
}

}  // namespace gs_bench
