// The reference loops over logical coordinates exactly as the spec's pseudocode reads:
// gathers over the output, scatters over the updates, every element addressed through its
// tensor's sizes and strides. No folding, no fast paths.
#include "reference.h"

#include <cmath>
#include <cstring>
#include <sstream>

#include "fp16.h"

namespace gs_reference {
namespace {

using gs::DataType;
using gs::OperatorType;
using gs::Reduction;
using gs::TensorDesc;

constexpr uint32_t kMaxRank = gs::kMaxDimensionCount;

// A tensor view with packed strides filled in.
struct View {
  DataType type = DataType::Float32;
  uint32_t rank = 0;
  uint64_t sizes[kMaxRank] = {};
  uint64_t strides[kMaxRank] = {};
  uint32_t element_size = 0;

  uint64_t ByteOffset(const uint64_t* coord) const {
    uint64_t offset = 0;
    for (uint32_t i = 0; i < rank; ++i) offset += coord[i] * strides[i];
    return offset * element_size;
  }
  uint64_t Count() const {
    uint64_t count = 1;
    for (uint32_t i = 0; i < rank; ++i) count *= sizes[i];
    return count;
  }
};

View MakeView(const TensorDesc& desc) {
  View view;
  view.type = desc.DataType;
  view.rank = desc.DimensionCount;
  view.element_size = ElementSize(desc.DataType);
  uint64_t packed = 1;
  for (uint32_t i = view.rank; i-- > 0;) {
    view.sizes[i] = desc.Sizes[i];
    view.strides[i] = desc.Strides ? desc.Strides[i] : packed;
    packed *= desc.Sizes[i];
  }
  return view;
}

// Calls f(coord, flat) for every logical element in row-major order.
template <typename F>
void ForEachCoordinate(const View& view, F&& f) {
  uint64_t coord[kMaxRank] = {};
  const uint64_t count = view.Count();
  for (uint64_t flat = 0; flat < count; ++flat) {
    f(static_cast<const uint64_t*>(coord), flat);
    for (uint32_t i = view.rank; i-- > 0;) {
      if (++coord[i] < view.sizes[i]) break;
      coord[i] = 0;
    }
  }
}

// --- indices -------------------------------------------------------------------------------

struct RawIndex {
  bool is_signed = false;
  int64_t signed_value = 0;
  uint64_t unsigned_value = 0;

  std::string Text() const {
    return is_signed ? std::to_string(signed_value) : std::to_string(unsigned_value);
  }
};

RawIndex ReadIndex(DataType type, const uint8_t* p) {
  RawIndex raw;
  switch (type) {
    case DataType::Int32: {
      int32_t v;
      std::memcpy(&v, p, 4);
      raw.is_signed = true;
      raw.signed_value = v;
      break;
    }
    case DataType::Int64: {
      int64_t v;
      std::memcpy(&v, p, 8);
      raw.is_signed = true;
      raw.signed_value = v;
      break;
    }
    case DataType::UInt32: {
      uint32_t v;
      std::memcpy(&v, p, 4);
      raw.unsigned_value = v;
      break;
    }
    default: {  // UInt64 (index types are validated by the desc's author)
      uint64_t v;
      std::memcpy(&v, p, 8);
      raw.unsigned_value = v;
      break;
    }
  }
  return raw;
}

// Signed: i < 0 means i + dim; unsigned values never wrap. In range means [0, dim).
bool ResolveIndex(const RawIndex& raw, uint64_t dim, uint64_t* resolved) {
  if (raw.is_signed) {
    int64_t v = raw.signed_value;
    if (v < 0) v += static_cast<int64_t>(dim);  // dim < 2^33: no overflow
    if (v < 0 || static_cast<uint64_t>(v) >= dim) return false;
    *resolved = static_cast<uint64_t>(v);
    return true;
  }
  if (raw.unsigned_value >= dim) return false;
  *resolved = raw.unsigned_value;
  return true;
}

// --- how each operator addresses elements ---------------------------------------------------

// "iterated" is the tensor the operator walks (gather: Output, scatter: Updates); "addressed"
// is the one the indices point into (gather: Input, scatter: Output).
struct Addressing {
  enum class Kind { Elements, Gather, Nd } kind = Kind::Elements;
  View indices;
  View addressed;
  const uint8_t* indices_data = nullptr;
  uint32_t rank = 0;
  uint32_t axis = 0;              // Elements, Gather
  uint32_t index_dimensions = 0;  // Gather
  uint32_t input_dims = 0;        // Nd: InputDimensionCount
  uint32_t indices_dims = 0;      // Nd: IndicesDimensionCount
  uint32_t batch_dims = 0;        // Nd: BatchDimensionCount

  // Size of the addressed dimension that the indices element at `coord` selects along.
  uint64_t IndexedDimSize(const uint64_t* coord) const {
    switch (kind) {
      case Kind::Elements:
      case Kind::Gather:
        return addressed.sizes[axis];
      case Kind::Nd:
        return addressed.sizes[rank - input_dims + batch_dims + coord[rank - 1]];
    }
    return 0;
  }

  RawIndex IndexAt(const uint64_t* coord) const {
    return ReadIndex(indices.type, indices_data + indices.ByteOffset(coord));
  }

  // Maps a coordinate of the iterated tensor to one of the addressed tensor; false when an
  // index involved is out of range.
  bool Map(const uint64_t* it, uint64_t* out) const {
    switch (kind) {
      case Kind::Elements: return MapElements(it, out);
      case Kind::Gather: return MapGather(it, out);
      case Kind::Nd: return MapNd(it, out);
    }
    return false;
  }

  // out[i, idx[i,j,k], k] (Axis = 1): the indices have the iterated tensor's shape.
  bool MapElements(const uint64_t* it, uint64_t* out) const {
    uint64_t v;
    if (!ResolveIndex(IndexAt(it), addressed.sizes[axis], &v)) return false;
    for (uint32_t i = 0; i < rank; ++i) out[i] = it[i];
    out[axis] = v;
    return true;
  }

  // Output = {In[0..Axis), last IndexDimensions of Indices, In(Axis..]} right-aligned: the
  // concatenation has n = rank - 1 + k dims; when n > rank its first n - rank (ones of Input)
  // are cropped, when n < rank the output has rank - n leading ones.
  bool MapGather(const uint64_t* it, uint64_t* out) const {
    const uint32_t k = index_dimensions;
    const uint32_t n = rank - 1 + k;
    uint64_t concat[2 * kMaxRank] = {};
    for (uint32_t i = 0; i < n; ++i) {
      if (n >= rank) {
        concat[i] = i < n - rank ? 0 : it[i - (n - rank)];
      } else {
        concat[i] = it[i + (rank - n)];
      }
    }
    uint64_t index_coord[kMaxRank] = {};
    for (uint32_t j = 0; j < k; ++j) index_coord[rank - k + j] = concat[axis + j];
    uint64_t v;
    if (!ResolveIndex(IndexAt(index_coord), addressed.sizes[axis], &v)) return false;
    for (uint32_t i = 0; i < rank; ++i) {
      if (i < axis) {
        out[i] = concat[i];
      } else if (i == axis) {
        out[i] = v;
      } else {
        out[i] = concat[i - 1 + k];
      }
    }
    return true;
  }

  // The iterated tensor's m meaningful dims are: B batch dims, the indices dims without the
  // tuple dim, the addressed tensor's trailing dims; out[b, idx[b, j, :], t].
  bool MapNd(const uint64_t* it, uint64_t* out) const {
    const uint32_t q = static_cast<uint32_t>(indices.sizes[rank - 1]);
    const uint32_t m = indices_dims - 1 + input_dims - batch_dims - q;
    const uint64_t* meaningful = it + (rank - m);
    uint64_t index_coord[kMaxRank] = {};
    for (uint32_t i = 0; i + 1 < indices_dims; ++i) {
      index_coord[rank - indices_dims + i] = meaningful[i];  // batch, then index dims
    }
    for (uint32_t i = 0; i < rank; ++i) out[i] = 0;
    const uint32_t first = rank - input_dims;
    for (uint32_t b = 0; b < batch_dims; ++b) out[first + b] = meaningful[b];
    for (uint32_t j = 0; j < q; ++j) {
      index_coord[rank - 1] = j;
      uint64_t v;
      if (!ResolveIndex(IndexAt(index_coord), addressed.sizes[first + batch_dims + j], &v)) {
        return false;
      }
      out[first + batch_dims + j] = v;
    }
    for (uint32_t t = 0; t < input_dims - batch_dims - q; ++t) {
      out[first + batch_dims + q + t] = meaningful[indices_dims - 1 + t];
    }
    return true;
  }
};

// Checked mode: the first out-of-range element of the indices in row-major order.
bool FindBadIndex(const Addressing& addressing, BadIndex* bad, std::string* error) {
  bool found = false;
  ForEachCoordinate(addressing.indices, [&](const uint64_t* coord, uint64_t flat) {
    if (found) return;
    const RawIndex raw = addressing.IndexAt(coord);
    const uint64_t dim = addressing.IndexedDimSize(coord);
    uint64_t resolved;
    if (ResolveIndex(raw, dim, &resolved)) return;
    found = true;
    if (bad) {
      bad->FlatPosition = flat;
      bad->Value = raw.Text();
    }
    if (error) {
      std::ostringstream message;
      message << "IndicesTensor element " << flat << " holds " << raw.Text() << ", outside ["
              << (raw.is_signed ? "-" + std::to_string(dim) : std::string("0")) << ", " << dim
              << ")";
      *error = message.str();
    }
  });
  return found;
}

// --- scatter arithmetic ---------------------------------------------------------------------

template <typename T>
T Load(const uint8_t* p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

template <typename T>
void Store(uint8_t* p, T v) {
  std::memcpy(p, &v, sizeof v);
}

// Integers: ADD and MULTIPLY wrap, computed on the unsigned bits (width-independent modulo
// 2^64, then truncated); MIN and MAX compare with the type's signedness.
template <typename T>
void CombineInteger(Reduction reduction, uint8_t* acc_p, const uint8_t* upd_p) {
  using U = std::make_unsigned_t<T>;
  const T acc = Load<T>(acc_p);
  const T upd = Load<T>(upd_p);
  const uint64_t a = static_cast<U>(acc);
  const uint64_t b = static_cast<U>(upd);
  switch (reduction) {
    case Reduction::None: Store<T>(acc_p, upd); break;
    case Reduction::Add: Store<U>(acc_p, static_cast<U>(a + b)); break;
    case Reduction::Multiply: Store<U>(acc_p, static_cast<U>(a * b)); break;
    case Reduction::Min: Store<T>(acc_p, upd < acc ? upd : acc); break;
    case Reduction::Max: Store<T>(acc_p, upd > acc ? upd : acc); break;
  }
}

// Floats: F is the arithmetic type, Bits the storage; to/from convert between them.
// MIN/MAX pick one operand's stored bits unchanged; ADD/MULTIPLY canonicalise NaN results.
template <typename Bits, typename F, typename ToF, typename FromF>
void CombineFloat(Reduction reduction, uint8_t* acc_p, const uint8_t* upd_p, Bits canonical_nan,
                  ToF to_f, FromF from_f) {
  const Bits acc_bits = Load<Bits>(acc_p);
  const Bits upd_bits = Load<Bits>(upd_p);
  const F acc = to_f(acc_bits);
  const F upd = to_f(upd_bits);
  Bits result = acc_bits;
  switch (reduction) {
    case Reduction::None:
      result = upd_bits;
      break;
    case Reduction::Add:
    case Reduction::Multiply: {
      const F r = reduction == Reduction::Add ? acc + upd : acc * upd;
      result = std::isnan(r) ? canonical_nan : from_f(r);
      break;
    }
    case Reduction::Min:
    case Reduction::Max:
      if (std::isnan(acc)) {
        result = acc_bits;
      } else if (std::isnan(upd)) {
        result = upd_bits;
      } else if (reduction == Reduction::Min) {
        result = upd < acc ? upd_bits : acc_bits;
      } else {
        result = upd > acc ? upd_bits : acc_bits;
      }
      break;
  }
  Store<Bits>(acc_p, result);
}

void Combine(DataType type, Reduction reduction, uint8_t* acc, const uint8_t* upd) {
  switch (type) {
    case DataType::Int8: return CombineInteger<int8_t>(reduction, acc, upd);
    case DataType::Int16: return CombineInteger<int16_t>(reduction, acc, upd);
    case DataType::Int32: return CombineInteger<int32_t>(reduction, acc, upd);
    case DataType::Int64: return CombineInteger<int64_t>(reduction, acc, upd);
    case DataType::UInt8: return CombineInteger<uint8_t>(reduction, acc, upd);
    case DataType::UInt16: return CombineInteger<uint16_t>(reduction, acc, upd);
    case DataType::UInt32: return CombineInteger<uint32_t>(reduction, acc, upd);
    case DataType::UInt64: return CombineInteger<uint64_t>(reduction, acc, upd);
    case DataType::Float16:
      // One add or multiply in float32 rounded once to half equals the half-precision result.
      return CombineFloat<uint16_t, float>(
          reduction, acc, upd, uint16_t{0x7e00}, [](uint16_t h) { return HalfToFloat(h); },
          [](float f) { return FloatToHalf(f); });
    case DataType::Float32:
      return CombineFloat<uint32_t, float>(
          reduction, acc, upd, uint32_t{0x7fc00000u}, [](uint32_t b) { return FloatFromBits(b); },
          [](float f) { return FloatBits(f); });
    case DataType::Float64:
      return CombineFloat<uint64_t, double>(
          reduction, acc, upd, uint64_t{0x7ff8000000000000ull},
          [](uint64_t b) {
            double d;
            std::memcpy(&d, &b, 8);
            return d;
          },
          [](double d) {
            uint64_t b;
            std::memcpy(&b, &d, 8);
            return b;
          });
  }
}

// --- the operators --------------------------------------------------------------------------

struct Unpacked {
  const TensorDesc* input = nullptr;
  const TensorDesc* indices = nullptr;
  const TensorDesc* updates = nullptr;  // scatters only
  const TensorDesc* output = nullptr;
  Reduction reduction = Reduction::None;
  Addressing addressing;
};

Unpacked Unpack(const gs::OperatorDesc& desc) {
  Unpacked u;
  Addressing& a = u.addressing;
  switch (desc.Type) {
    case OperatorType::Gather: {
      const auto& d = *static_cast<const gs::GatherOperatorDesc*>(desc.Desc);
      u.input = d.InputTensor, u.indices = d.IndicesTensor, u.output = d.OutputTensor;
      a.kind = Addressing::Kind::Gather;
      a.axis = d.Axis;
      a.index_dimensions = d.IndexDimensions;
      break;
    }
    case OperatorType::GatherElements: {
      const auto& d = *static_cast<const gs::GatherElementsOperatorDesc*>(desc.Desc);
      u.input = d.InputTensor, u.indices = d.IndicesTensor, u.output = d.OutputTensor;
      a.kind = Addressing::Kind::Elements;
      a.axis = d.Axis;
      break;
    }
    case OperatorType::GatherNd: {
      const auto& d = *static_cast<const gs::GatherNdOperatorDesc*>(desc.Desc);
      u.input = d.InputTensor, u.indices = d.IndicesTensor, u.output = d.OutputTensor;
      a.kind = Addressing::Kind::Nd;
      a.input_dims = d.InputDimensionCount;
      a.indices_dims = d.IndicesDimensionCount;
      break;
    }
    case OperatorType::GatherNd1: {
      const auto& d = *static_cast<const gs::GatherNd1OperatorDesc*>(desc.Desc);
      u.input = d.InputTensor, u.indices = d.IndicesTensor, u.output = d.OutputTensor;
      a.kind = Addressing::Kind::Nd;
      a.input_dims = d.InputDimensionCount;
      a.indices_dims = d.IndicesDimensionCount;
      a.batch_dims = d.BatchDimensionCount;
      break;
    }
    case OperatorType::ScatterElements: {
      const auto& d = *static_cast<const gs::ScatterElementsOperatorDesc*>(desc.Desc);
      u.input = d.InputTensor, u.indices = d.IndicesTensor, u.updates = d.UpdatesTensor;
      u.output = d.OutputTensor;
      u.reduction = d.Reduction;
      a.kind = Addressing::Kind::Elements;
      a.axis = d.Axis;
      break;
    }
    case OperatorType::ScatterNd: {
      const auto& d = *static_cast<const gs::ScatterNdOperatorDesc*>(desc.Desc);
      u.input = d.InputTensor, u.indices = d.IndicesTensor, u.updates = d.UpdatesTensor;
      u.output = d.OutputTensor;
      u.reduction = d.Reduction;
      a.kind = Addressing::Kind::Nd;
      a.input_dims = d.InputDimensionCount;
      a.indices_dims = d.IndicesDimensionCount;
      break;
    }
  }
  a.rank = u.input->DimensionCount;
  a.indices = MakeView(*u.indices);
  // Gathers address the input, scatters the output (same sizes as the input).
  a.addressed = MakeView(u.updates ? *u.output : *u.input);
  return u;
}

}  // namespace

bool RunReference(const gs::OperatorDesc& desc, const RefBuffers& buffers, gs::IndexChecking mode,
                  std::string* error, BadIndex* bad) {
  Unpacked u = Unpack(desc);
  u.addressing.indices_data = buffers.Indices;
  if (mode == gs::IndexChecking::Checked && FindBadIndex(u.addressing, bad, error)) return false;

  const View input = MakeView(*u.input);
  const View output = MakeView(*u.output);
  const uint32_t size = output.element_size;
  uint64_t target[kMaxRank];

  if (u.updates == nullptr) {  // gather: walk the output
    ForEachCoordinate(output, [&](const uint64_t* coord, uint64_t) {
      uint8_t* dst = buffers.Output + output.ByteOffset(coord);
      if (u.addressing.Map(coord, target)) {
        std::memcpy(dst, buffers.Input + input.ByteOffset(target), size);
      } else {
        std::memset(dst, 0, size);
      }
    });
    return true;
  }

  // scatter: out = in (skipped in place), then fold the updates in row-major order.
  if (buffers.Output != buffers.Input) {
    ForEachCoordinate(output, [&](const uint64_t* coord, uint64_t) {
      std::memcpy(buffers.Output + output.ByteOffset(coord), buffers.Input + input.ByteOffset(coord),
                  size);
    });
  }
  const View updates = MakeView(*u.updates);
  ForEachCoordinate(updates, [&](const uint64_t* coord, uint64_t) {
    if (!u.addressing.Map(coord, target)) return;  // unchecked: dropped
    Combine(output.type, u.reduction, buffers.Output + output.ByteOffset(target),
            buffers.Updates + updates.ByteOffset(coord));
  });
  return true;
}

// --- helpers --------------------------------------------------------------------------------

uint32_t ElementSize(DataType type) {
  switch (type) {
    case DataType::Float64:
    case DataType::Int64:
    case DataType::UInt64:
      return 8;
    case DataType::Float32:
    case DataType::Int32:
    case DataType::UInt32:
      return 4;
    case DataType::Float16:
    case DataType::Int16:
    case DataType::UInt16:
      return 2;
    case DataType::Int8:
    case DataType::UInt8:
      return 1;
  }
  return 0;
}

const char* TypeName(DataType type) {
  switch (type) {
    case DataType::Float64: return "FLOAT64";
    case DataType::Float32: return "FLOAT32";
    case DataType::Float16: return "FLOAT16";
    case DataType::Int64: return "INT64";
    case DataType::Int32: return "INT32";
    case DataType::Int16: return "INT16";
    case DataType::Int8: return "INT8";
    case DataType::UInt64: return "UINT64";
    case DataType::UInt32: return "UINT32";
    case DataType::UInt16: return "UINT16";
    case DataType::UInt8: return "UINT8";
  }
  return "?";
}

const char* OperatorName(OperatorType type) {
  switch (type) {
    case OperatorType::Gather: return "GATHER";
    case OperatorType::GatherElements: return "GATHER_ELEMENTS";
    case OperatorType::GatherNd: return "GATHER_ND";
    case OperatorType::GatherNd1: return "GATHER_ND1";
    case OperatorType::ScatterElements: return "SCATTER_ELEMENTS";
    case OperatorType::ScatterNd: return "SCATTER_ND";
  }
  return "?";
}

const char* ReductionText(Reduction reduction) {
  switch (reduction) {
    case Reduction::None: return "NONE";
    case Reduction::Add: return "ADD";
    case Reduction::Multiply: return "MULTIPLY";
    case Reduction::Min: return "MIN";
    case Reduction::Max: return "MAX";
  }
  return "?";
}

bool IsSignedIndexType(DataType type) {
  return type == DataType::Int32 || type == DataType::Int64;
}

uint64_t ViewSpanInElements(const TensorDesc& desc) {
  const View view = MakeView(desc);
  if (view.Count() == 0) return 0;  // an empty tensor reaches no element
  uint64_t span = 1;
  for (uint32_t i = 0; i < view.rank; ++i) span += (view.sizes[i] - 1) * view.strides[i];
  return span;
}

uint64_t ElementCount(const TensorDesc& desc) { return MakeView(desc).Count(); }

uint64_t ElementOffset(const TensorDesc& desc, uint64_t flat) {
  const View view = MakeView(desc);
  uint64_t offset = 0;
  for (uint32_t i = view.rank; i-- > 0;) {
    offset += (flat % view.sizes[i]) * view.strides[i];
    flat /= view.sizes[i];
  }
  return offset;
}

std::string DescribeTensor(const TensorDesc& desc) {
  std::ostringstream s;
  s << TypeName(desc.DataType) << " sizes {";
  for (uint32_t i = 0; i < desc.DimensionCount; ++i) s << (i ? "," : "") << desc.Sizes[i];
  s << "}";
  if (desc.Strides) {
    s << " strides {";
    for (uint32_t i = 0; i < desc.DimensionCount; ++i) s << (i ? "," : "") << desc.Strides[i];
    s << "}";
  }
  s << " bytes " << desc.TotalTensorSizeInBytes;
  return s.str();
}

std::string DescribeOperator(const gs::OperatorDesc& desc) {
  const Unpacked u = Unpack(desc);
  const Addressing& a = u.addressing;
  std::ostringstream s;
  s << OperatorName(desc.Type);
  switch (a.kind) {
    case Addressing::Kind::Elements: s << " Axis " << a.axis; break;
    case Addressing::Kind::Gather:
      s << " Axis " << a.axis << " IndexDimensions " << a.index_dimensions;
      break;
    case Addressing::Kind::Nd:
      s << " InputDimensionCount " << a.input_dims << " IndicesDimensionCount "
        << a.indices_dims;
      if (desc.Type == OperatorType::GatherNd1) s << " BatchDimensionCount " << a.batch_dims;
      break;
  }
  if (u.updates) s << " Reduction " << ReductionText(u.reduction);
  s << "\n  InputTensor   " << DescribeTensor(*u.input);
  s << "\n  IndicesTensor " << DescribeTensor(*u.indices);
  if (u.updates) s << "\n  UpdatesTensor " << DescribeTensor(*u.updates);
  s << "\n  OutputTensor  " << DescribeTensor(*u.output);
  return s.str();
}

}  // namespace gs_reference
