#include "random_desc.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <numeric>
#include <sstream>

#include "fp16.h"
#include "reference.h"

namespace gs_property {
namespace {

using gs::DataType;
using gs::OperatorType;
using gs_reference::ElementOffset;
using gs_reference::ElementSize;
using gs_reference::OwnedTensor;

constexpr DataType kElementTypes[] = {
    DataType::Float64, DataType::Float32, DataType::Float16, DataType::Int64,
    DataType::Int32,   DataType::Int16,   DataType::Int8,    DataType::UInt64,
    DataType::UInt32,  DataType::UInt16,  DataType::UInt8};
constexpr DataType kIndexTypes[] = {DataType::Int32, DataType::Int64, DataType::UInt32,
                                    DataType::UInt64};
constexpr OperatorType kOperators[] = {OperatorType::Gather,          OperatorType::GatherElements,
                                       OperatorType::GatherNd,        OperatorType::GatherNd1,
                                       OperatorType::ScatterElements, OperatorType::ScatterNd};
constexpr OperatorType kScatters[] = {OperatorType::ScatterElements, OperatorType::ScatterNd};

// splitmix64: a tiny generator whose sequence is the same on every platform and library.
class Rng {
 public:
  explicit Rng(uint64_t seed) : state_(seed) {}
  uint64_t Next() {
    uint64_t z = (state_ += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  // Uniform in [lo, hi] (the tiny modulo bias does not matter here).
  uint64_t Range(uint64_t lo, uint64_t hi) { return lo + Next() % (hi - lo + 1); }
  bool Chance(int percent) { return Range(0, 99) < static_cast<uint64_t>(percent); }
  template <typename T, size_t N>
  T Pick(const T (&items)[N]) {
    return items[Range(0, N - 1)];
  }

 private:
  uint64_t state_;
};

uint64_t Product(const std::vector<uint32_t>& sizes) {
  uint64_t p = 1;
  for (uint32_t s : sizes) p *= s;
  return p;
}

std::vector<uint32_t> Ones(size_t n) { return std::vector<uint32_t>(n, 1); }

std::vector<uint32_t> Concat(std::initializer_list<std::vector<uint32_t>> parts) {
  std::vector<uint32_t> all;
  for (const auto& p : parts) all.insert(all.end(), p.begin(), p.end());
  return all;
}

// Leading ones up to `rank` (the dims are right-aligned).
std::vector<uint32_t> PadTo(const std::vector<uint32_t>& dims, uint32_t rank) {
  return Concat({Ones(rank - dims.size()), dims});
}

// `count` dims whose product is at most `budget`: many ones and small sizes, some larger.
std::vector<uint32_t> RandomDims(Rng& rng, size_t count, uint64_t budget, bool large) {
  std::vector<uint32_t> dims(count);
  for (auto& d : dims) {
    const uint64_t r = rng.Range(0, 99);
    if (large) {
      d = static_cast<uint32_t>(r < 15 ? 1 : r < 50 ? rng.Range(2, 16) : rng.Range(17, 3000));
    } else {
      d = static_cast<uint32_t>(r < 25 ? 1 : r < 85 ? rng.Range(2, 5) : rng.Range(6, 19));
    }
  }
  while (Product(dims) > budget) {
    auto largest = std::max_element(dims.begin(), dims.end());
    *largest = std::max<uint32_t>(1, *largest / 2);
  }
  return dims;
}

// --- shapes -----------------------------------------------------------------------------

struct Shapes {
  std::vector<uint32_t> input, indices, updates, output;
  uint32_t axis = 0, index_dimensions = 0, input_dims = 0, indices_dims = 0, batch_dims = 0;
  // Size of the input dim that each indices element selects along (ND: per tuple component).
  std::vector<uint32_t> indexed_dim;  // GATHER/ELEMENTS: one entry; ND: q entries
};

// out/updates = indices shape; Indices.Sizes == Input.Sizes except on Axis.
Shapes ElementsShapes(Rng& rng, uint32_t rank, uint64_t budget, bool large, bool scatter) {
  Shapes s;
  s.axis = static_cast<uint32_t>(rng.Range(0, rank - 1));
  s.input = RandomDims(rng, rank, budget, large);
  s.indices = s.input;
  s.indices[s.axis] = static_cast<uint32_t>(rng.Range(1, 2 * s.input[s.axis] + 1));
  s.output = scatter ? s.input : s.indices;
  if (scatter) s.updates = s.indices;
  s.indexed_dim = {s.input[s.axis]};
  return s;
}

// Elements shapes with at least 64 rows of at least 64 elements each along the walk (the CPU
// engine's strip walks start there): mostly axis 0, some axis 1 of three dims.
Shapes StripShapes(Rng& rng, bool scatter) {
  Shapes s;
  const bool rank3 = rng.Chance(40);
  s.axis = rank3 && rng.Chance(30) ? 1 : 0;
  if (!rank3) {
    s.input = {static_cast<uint32_t>(rng.Range(1, 300)), static_cast<uint32_t>(rng.Range(64, 700))};
  } else {
    s.input = {static_cast<uint32_t>(rng.Range(1, 8)), static_cast<uint32_t>(rng.Range(1, 8)),
               static_cast<uint32_t>(rng.Range(16, 100))};
    s.input[s.axis] = static_cast<uint32_t>(rng.Range(1, 200));
  }
  s.indices = s.input;
  s.indices[s.axis] = static_cast<uint32_t>(rng.Range(64, 200));
  s.output = scatter ? s.input : s.indices;
  if (scatter) s.updates = s.indices;
  s.indexed_dim = {s.input[s.axis]};
  return s;
}

// GatherND/GatherND1 whose tuples address single elements (q = InputDimensionCount - B), with
// index rows of every length up to 150 so that vector loops and their tails both run.
Shapes TupleShapes(Rng& rng, bool batched) {
  Shapes s;
  const uint32_t idc = static_cast<uint32_t>(rng.Range(2, 4));
  const uint32_t b = batched ? static_cast<uint32_t>(rng.Range(0, 1)) : 0;
  const uint32_t q = idc - b;
  std::vector<uint32_t> in(idc);
  for (auto& d : in) d = static_cast<uint32_t>(rng.Range(1, 40));
  const std::vector<uint32_t> batch(in.begin(), in.begin() + b);
  std::vector<uint32_t> index_dims = {static_cast<uint32_t>(rng.Range(1, 150))};
  if (rng.Chance(40)) index_dims.insert(index_dims.begin(), static_cast<uint32_t>(rng.Range(1, 4)));
  const uint32_t rank = std::max<uint32_t>(idc, b + static_cast<uint32_t>(index_dims.size()) + 1);
  s.input_dims = idc, s.indices_dims = b + static_cast<uint32_t>(index_dims.size()) + 1, s.batch_dims = b;
  s.input = PadTo(in, rank);
  s.indices = PadTo(Concat({batch, index_dims, {q}}), rank);
  s.output = PadTo(Concat({batch, index_dims}), rank);
  s.indexed_dim.assign(in.begin() + b, in.end());
  return s;
}

// Output = {In[0..Axis), last k of Indices, In(Axis..]}: n = rank - 1 + k dims. With k >= 2
// the first k - 1 must be Input's leading ones (the only thing that may be cropped), so Axis
// >= k - 1 and Input[0..k-1) = 1; with fewer dims the output gets leading ones.
// Empty tensors (onnx): one dim of the input (not a cropped leading one) or of the indices is 0.
Shapes GatherShapes(Rng& rng, uint32_t rank, uint64_t budget, bool large, bool onnx = false) {
  Shapes s;
  const uint32_t k = static_cast<uint32_t>(rng.Range(0, rank - 1));
  s.index_dimensions = k;
  s.axis = static_cast<uint32_t>(rng.Range(k >= 2 ? k - 1 : 0, rank - 1));
  s.input = RandomDims(rng, rank, budget, large);
  for (uint32_t i = 0; i + 1 < k; ++i) s.input[i] = 1;
  s.indices = PadTo(RandomDims(rng, k, budget, large), rank);
  if (onnx && rng.Chance(50)) {
    if (k > 0 && rng.Chance(50)) {
      s.indices[rank - 1 - rng.Range(0, k - 1)] = 0;
    } else {
      s.input[rng.Range(k >= 2 ? k - 1 : 0, rank - 1)] = 0;
    }
  }
  std::vector<uint32_t> concat(s.input.begin(), s.input.begin() + s.axis);
  concat.insert(concat.end(), s.indices.end() - k, s.indices.end());
  concat.insert(concat.end(), s.input.begin() + s.axis + 1, s.input.end());
  if (concat.size() > rank) concat.erase(concat.begin(), concat.begin() + (concat.size() - rank));
  s.output = PadTo(concat, rank);
  s.indexed_dim = {s.input[s.axis]};
  return s;
}

// Tuple size q, batch count B: 1 <= q, B <= IndicesDimensionCount - 1, B + q <=
// InputDimensionCount; the output (updates) has B batch dims, the indices dims without the
// tuple dim, the trailing input dims, and must fit in rank.
// onnx: q may be 0 (empty tuples, each selecting the whole trailing block), and one input or
// index dim may be 0 (an empty tensor).
Shapes NdShapes(Rng& rng, uint32_t rank, uint64_t budget, bool large, bool batched,
                bool scatter, bool onnx = false) {
  Shapes s;
  uint32_t idc, xdc, b, q;
  for (;;) {
    idc = static_cast<uint32_t>(rng.Range(1, rank));
    xdc = static_cast<uint32_t>(rng.Range(1, rank));
    b = batched ? static_cast<uint32_t>(rng.Range(0, std::min(xdc, idc) - 1)) : 0;
    q = static_cast<uint32_t>(rng.Range(onnx && rng.Chance(50) ? 0 : 1, idc - b));
    if (xdc - 1 + idc - b - q <= rank) break;
  }
  s.input_dims = idc, s.indices_dims = xdc, s.batch_dims = b;
  std::vector<uint32_t> in = RandomDims(rng, idc, budget, large);
  std::vector<uint32_t> index_dims = RandomDims(rng, xdc - 1 - b, budget, large);
  if (onnx && rng.Chance(30)) {
    if (!index_dims.empty() && rng.Chance(50)) {
      index_dims[rng.Range(0, index_dims.size() - 1)] = 0;
    } else {
      in[rng.Range(0, idc - 1)] = 0;
    }
  }
  const std::vector<uint32_t> batch(in.begin(), in.begin() + b);
  const std::vector<uint32_t> trailing(in.begin() + b + q, in.end());
  s.input = PadTo(in, rank);
  s.indices = PadTo(Concat({batch, index_dims, {q}}), rank);
  const std::vector<uint32_t> moving = PadTo(Concat({batch, index_dims, trailing}), rank);
  if (scatter) {
    s.updates = moving;
    s.output = s.input;
  } else {
    s.output = moving;
  }
  s.indexed_dim.assign(in.begin() + b, in.begin() + b + q);
  return s;
}

// What ONNX and PyTorch accept beyond DirectML (semantics.md): GATHER_ELEMENTS and
// SCATTER_ELEMENTS indices smaller than the input off the axis, q = 0, empty tensors.
Shapes OnnxShapes(Rng& rng, OperatorType type, uint32_t rank, uint64_t budget) {
  const bool scatter = type == OperatorType::ScatterElements || type == OperatorType::ScatterNd;
  switch (type) {
    case OperatorType::Gather: return GatherShapes(rng, rank, budget, false, true);
    case OperatorType::GatherNd: return NdShapes(rng, rank, budget, false, false, false, true);
    case OperatorType::GatherNd1: return NdShapes(rng, rank, budget, false, true, false, true);
    case OperatorType::ScatterNd: return NdShapes(rng, rank, budget, false, false, true, true);
    default: break;
  }
  Shapes s = ElementsShapes(rng, rank, budget, false, scatter);
  for (uint32_t d = 0; d < rank; ++d) {
    if (d != s.axis && rng.Chance(50)) s.indices[d] = static_cast<uint32_t>(rng.Range(1, s.input[d]));
  }
  if (rng.Chance(30)) {
    if (rng.Chance(50)) {
      s.indices[rng.Range(0, rank - 1)] = 0;
    } else {
      s.input[s.axis] = 0;  // every index out of bounds
      s.indexed_dim = {0};
    }
  }
  if (scatter) {
    s.output = s.input;
    s.updates = s.indices;
  } else {
    s.output = s.indices;
  }
  return s;
}

Shapes RandomShapes(Rng& rng, OperatorType type, uint32_t rank, uint64_t budget, bool large) {
  switch (type) {
    case OperatorType::Gather: return GatherShapes(rng, rank, budget, large);
    case OperatorType::GatherElements: return ElementsShapes(rng, rank, budget, large, false);
    case OperatorType::ScatterElements: return ElementsShapes(rng, rank, budget, large, true);
    case OperatorType::GatherNd: return NdShapes(rng, rank, budget, large, false, false);
    case OperatorType::GatherNd1: return NdShapes(rng, rank, budget, large, true, false);
    case OperatorType::ScatterNd: return NdShapes(rng, rank, budget, large, false, true);
  }
  return {};
}

// --- strides ----------------------------------------------------------------------------

// Empty (packed) or explicit strides: packed, padded, transposed, huge strides on size-1
// dims, and for tensors that are only read, broadcast (0) and overlapping strides.
std::vector<uint32_t> RandomStrides(Rng& rng, const std::vector<uint32_t>& sizes, bool read_only) {
  const uint64_t style = rng.Range(0, 99);
  if (style < 35) return {};
  const size_t rank = sizes.size();
  std::vector<uint32_t> strides(rank);
  std::vector<size_t> order(rank);  // outermost first
  std::iota(order.begin(), order.end(), 0);
  const bool transposed = style >= 60 && style < 80;
  const bool padded = style >= 45;
  if (transposed) {
    for (size_t i = rank; i > 1; --i) std::swap(order[i - 1], order[rng.Range(0, i - 1)]);
  }
  uint64_t step = 1;
  for (size_t i = rank; i-- > 0;) {
    strides[order[i]] = static_cast<uint32_t>(step);
    step = step * sizes[order[i]] + (padded && rng.Chance(50) ? rng.Range(1, 3) : 0);
  }
  for (size_t d = 0; d < rank; ++d) {
    if (sizes[d] == 1 && rng.Chance(40)) {
      strides[d] = static_cast<uint32_t>(rng.Range(0, 1) ? rng.Range(0, 0xffffffffu)
                                                         : rng.Range(1000, 100000));
    }
  }
  if (read_only && style >= 80 && style < 92) {
    for (size_t d = 0; d < rank; ++d) {
      if (rng.Chance(40)) strides[d] = 0;
    }
  } else if (read_only && style >= 92) {
    for (size_t d = 0; d < rank; ++d) strides[d] = static_cast<uint32_t>(rng.Range(0, 2));
  }
  return strides;
}

OwnedTensor MakeTensor(Rng& rng, DataType type, const std::vector<uint32_t>& sizes,
                       bool read_only) {
  OwnedTensor t;
  t.type = type;
  t.sizes = sizes;
  t.strides = RandomStrides(rng, sizes, read_only);
  const uint64_t slack = rng.Chance(50) ? 0 : rng.Range(1, 4);
  t.total_bytes = (gs_reference::ViewSpanInElements(t.Desc()) + slack) * ElementSize(type);
  return t;
}

// --- values -----------------------------------------------------------------------------

// Bit patterns the reductions find hard: NaNs with payloads (both signs, quiet and
// signalling), signed zeros, infinities, subnormals, extremes, and small exact numbers.
uint64_t SpecialBits(Rng& rng, DataType type) {
  static const uint64_t f64[] = {
      0x0000000000000000, 0x8000000000000000, 0x7ff0000000000000, 0xfff0000000000000,
      0x7ff8000000000000, 0xfff8000000000000, 0x7ff0000000000001, 0x7ff4000000001234,
      0xffffffffffffffff, 0x0000000000000001, 0x800fffffffffffff, 0x0010000000000000,
      0x7fefffffffffffff, 0xffefffffffffffff, 0x3ff0000000000000, 0xbff0000000000000,
      0x4000000000000000, 0x3fe0000000000000, 0x3ff0000000000001, 0x3ca0000000000000};
  static const uint64_t f32[] = {
      0x00000000, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000, 0xffc00000, 0x7f800001,
      0x7fa12345, 0xffffffff, 0x00000001, 0x807fffff, 0x00800000, 0x7f7fffff, 0xff7fffff,
      0x3f800000, 0xbf800000, 0x40000000, 0x3f000000, 0x3f800001, 0x33800000};
  static const uint64_t f16[] = {0x0000, 0x8000, 0x7c00, 0xfc00, 0x7e00, 0xfe00, 0x7c01,
                                 0x7d23, 0xffff, 0x0001, 0x83ff, 0x0400, 0x7bff, 0xfbff,
                                 0x3c00, 0xbc00, 0x4000, 0x3800, 0x3c01, 0x6800};
  switch (type) {
    case DataType::Float64: return rng.Pick(f64);
    case DataType::Float32: return rng.Pick(f32);
    case DataType::Float16: return rng.Pick(f16);
    default: break;
  }
  const uint32_t bits = ElementSize(type) * 8;
  const uint64_t mask = bits == 64 ? ~0ull : (1ull << bits) - 1;
  const bool is_signed = type == DataType::Int8 || type == DataType::Int16 ||
                         type == DataType::Int32 || type == DataType::Int64;
  const uint64_t top = 1ull << (bits - 1);
  const uint64_t ints[] = {0, 1, mask /* -1 or max */, top /* min or 2^(n-1) */, top - 1,
                           top + 1, mask - 1, 2, 3, is_signed ? (mask - 1) : 7};
  return rng.Pick(ints) & mask;
}

// A small exact number (multiples of 1/8 in [-64, 64]), so sums and products stay finite
// and interesting.
uint64_t SmallNumberBits(Rng& rng, DataType type) {
  const double value = (static_cast<double>(rng.Range(0, 1024)) - 512.0) / 8.0;
  switch (type) {
    case DataType::Float64: {
      uint64_t b;
      std::memcpy(&b, &value, 8);
      return b;
    }
    case DataType::Float32: return gs_reference::FloatBits(static_cast<float>(value));
    case DataType::Float16: return gs_reference::FloatToHalf(static_cast<float>(value));
    default: return static_cast<uint64_t>(static_cast<int64_t>(value * 8) / 8);
  }
}

void FillValues(Rng& rng, DataType type, bool stress, std::vector<uint8_t>* bytes) {
  const uint32_t size = ElementSize(type);
  for (size_t off = 0; off < bytes->size(); off += size) {
    const uint64_t r = rng.Range(0, 99);
    const uint64_t bits = r < (stress ? 40 : 10)   ? SpecialBits(rng, type)
                          : r < (stress ? 80 : 40) ? SmallNumberBits(rng, type)
                                                   : rng.Next();
    std::memcpy(bytes->data() + off, &bits, size);  // little-endian: the low bytes
  }
}

void StoreIndex(DataType type, uint8_t* p, int64_t value) {
  std::memcpy(p, &value, ElementSize(type));  // two's complement, low bytes
}

// An index value that is out of range for a dim of size `dim` in this index type.
int64_t BadIndexValue(Rng& rng, DataType type, uint64_t dim) {
  const bool is_signed = gs_reference::IsSignedIndexType(type);
  const bool wide = ElementSize(type) == 8;
  switch (rng.Range(0, 5)) {
    case 0: return static_cast<int64_t>(dim);
    case 1: return static_cast<int64_t>(dim + rng.Range(1, 1000));
    case 2:  // negative beyond -dim (signed), or a huge unsigned value
      return is_signed ? -static_cast<int64_t>(dim) - static_cast<int64_t>(rng.Range(1, 5))
                       : (wide ? -1 : 0xffffffffll);
    case 3:  // type extremes
      if (is_signed) return wide ? std::numeric_limits<int64_t>::min() : INT32_MIN;
      return wide ? std::numeric_limits<int64_t>::min() /* 2^63 */ : 0x80000000ll;
    case 4:  // truncates to a valid 32-bit value: catches 64-bit indices read as 32-bit
      return wide && dim > 0 ? (int64_t{1} << 32) + static_cast<int64_t>(rng.Range(0, dim - 1))
                             : static_cast<int64_t>(dim);
    default:
      return is_signed ? (wide ? std::numeric_limits<int64_t>::max() : INT32_MAX)
                       : (wide ? -2 : 0xfffffffell);
  }
}

// Fills the indices buffer: every element in the view gets a value valid for all logical
// positions that read it (a broadcast element may serve tuple components of different dims);
// elements outside the view get garbage, which the engine must never read.
void FillIndices(Rng& rng, const OwnedTensor& t, const Shapes& shapes, bool collide,
                 std::vector<uint8_t>* bytes) {
  const uint32_t size = ElementSize(t.type);
  const gs::TensorDesc desc = t.Desc();
  const uint64_t count = gs_reference::ElementCount(desc);
  const bool nd = shapes.input_dims > 0;  // ND: the tuple component is the last coordinate
  std::vector<uint64_t> limit(bytes->size() / size, 0);  // 0: not in the view
  for (uint64_t flat = 0; flat < count; ++flat) {
    const uint64_t dim = shapes.indexed_dim[nd ? flat % shapes.indexed_dim.size() : 0];
    uint64_t& l = limit[ElementOffset(desc, flat)];
    l = l == 0 ? dim : std::min(l, dim);
  }
  const bool is_signed = gs_reference::IsSignedIndexType(t.type);
  for (size_t e = 0; e < limit.size(); ++e) {
    int64_t value;
    if (limit[e] == 0) {
      value = static_cast<int64_t>(rng.Next());
    } else {
      const uint64_t range = collide ? std::min<uint64_t>(limit[e], 2) : limit[e];
      value = static_cast<int64_t>(rng.Range(0, range - 1));
      if (is_signed && rng.Chance(40)) value -= static_cast<int64_t>(limit[e]);  // i - dim
    }
    StoreIndex(t.type, bytes->data() + e * size, value);
  }
}

// Overwrites `count` random logical positions with out-of-range values.
void PlantBadIndices(Rng& rng, const OwnedTensor& t, const Shapes& shapes, uint64_t count,
                     std::vector<uint8_t>* bytes) {
  const gs::TensorDesc desc = t.Desc();
  const uint64_t total = gs_reference::ElementCount(desc);
  const bool nd = shapes.input_dims > 0;
  for (uint64_t i = 0; i < count && total > 0; ++i) {
    const uint64_t flat = rng.Range(0, total - 1);
    const uint64_t dim = shapes.indexed_dim[nd ? flat % shapes.indexed_dim.size() : 0];
    StoreIndex(t.type, bytes->data() + ElementOffset(desc, flat) * ElementSize(t.type),
               BadIndexValue(rng, t.type, dim));
  }
}

uint64_t MovingCount(const Shapes& s, bool scatter) {
  return Product(scatter ? s.updates : s.output);
}

}  // namespace

const char* CaseKindName(CaseKind kind) {
  switch (kind) {
    case CaseKind::Basic: return "basic";
    case CaseKind::Reduction: return "reduction";
    case CaseKind::CheckedBad: return "checked-bad";
    case CaseKind::Unchecked: return "unchecked";
    case CaseKind::InPlace: return "in-place";
    case CaseKind::Large: return "large";
    case CaseKind::Strips: return "strips";
    case CaseKind::TupleRows: return "tuple_rows";
    case CaseKind::Onnx: return "onnx";
  }
  return "?";
}

bool ParseCaseKind(const std::string& name, CaseKind* kind) {
  for (CaseKind k : {CaseKind::Basic, CaseKind::Reduction, CaseKind::CheckedBad,
                     CaseKind::Unchecked, CaseKind::InPlace, CaseKind::Large,
                     CaseKind::Strips, CaseKind::TupleRows, CaseKind::Onnx}) {
    if (name == CaseKindName(k)) {
      *kind = k;
      return true;
    }
  }
  return false;
}

std::string RandomCase::Describe() const {
  gs_reference::OwnedOperator copy = op;
  std::ostringstream s;
  s << "case " << CaseKindName(kind) << ":" << seed << " (rerun with GS_PROPERTY_REPRO="
    << CaseKindName(kind) << ":" << seed << ")"
    << (mode == gs::IndexChecking::Checked ? " checked" : " unchecked")
    << (in_place ? " in-place" : "") << "\n  " << gs_reference::DescribeOperator(copy.Desc());
  return s.str();
}

RandomCase GenerateCase(CaseKind kind, uint64_t seed) {
  Rng rng(seed * 0x2545f4914f6cdd1dull + static_cast<uint64_t>(kind) * 0x9e3779b97f4a7c15ull);
  RandomCase c;
  c.kind = kind;
  c.seed = seed;
  const bool scatter_only = kind == CaseKind::Reduction || kind == CaseKind::InPlace;
  const bool large = kind == CaseKind::Large;
  const bool strips = kind == CaseKind::Strips;
  const bool tuples = kind == CaseKind::TupleRows;
  // The seed's low digits walk every operator x element type x index type combination.
  const OperatorType type = strips ? (seed % 2 ? OperatorType::ScatterElements
                                               : OperatorType::GatherElements)
                            : tuples ? (seed % 2 ? OperatorType::GatherNd1 : OperatorType::GatherNd)
                            : scatter_only ? kScatters[seed % 2]
                                           : kOperators[seed % 6];
  const DataType element = kElementTypes[(seed / 6) % 11];
  const DataType index = kIndexTypes[(seed / 66) % 4];
  const bool scatter = type == OperatorType::ScatterElements || type == OperatorType::ScatterNd;

  // Shapes: retry until the moving tensor (gather output, scatter updates) has the size the
  // kind wants.
  // A tenth of the small cases are medium-sized, to cross the engine's tile boundaries.
  const bool medium = !large && rng.Chance(10);
  const bool onnx = kind == CaseKind::Onnx;
  const uint64_t min_moving = onnx ? 0 : large ? 100000 : medium ? 4096 : rng.Chance(80) ? 8 : 1;
  const uint64_t max_moving = large ? 400000 : medium ? 40000 : 2048;
  Shapes shapes;
  while (strips) {
    shapes = StripShapes(rng, scatter);
    if (MovingCount(shapes, scatter) <= 400000) break;
  }
  if (tuples) shapes = TupleShapes(rng, type == OperatorType::GatherNd1);
  while (!strips && !tuples) {
    const uint32_t rank = static_cast<uint32_t>(large ? rng.Range(1, 5) : rng.Range(1, 8));
    const uint64_t budget = large ? 400000 : medium ? rng.Range(512, 20000) : rng.Range(8, 512);
    shapes = onnx ? OnnxShapes(rng, type, rank, budget) : RandomShapes(rng, type, rank, budget, large);
    const uint64_t moving = MovingCount(shapes, scatter);
    if (moving >= min_moving && moving <= max_moving && Product(shapes.input) <= 1000000) break;
  }

  gs_reference::OwnedOperator& op = c.op;
  op.type = type;
  op.axis = shapes.axis;
  op.index_dimensions = shapes.index_dimensions;
  op.input_dims = shapes.input_dims;
  op.indices_dims = shapes.indices_dims;
  op.batch_dims = shapes.batch_dims;
  if (scatter) {
    static const gs::Reduction kReductions[] = {gs::Reduction::None, gs::Reduction::Add,
                                                gs::Reduction::Multiply, gs::Reduction::Min,
                                                gs::Reduction::Max};
    op.reduction = rng.Pick(kReductions);
  }

  // Bad indices: CheckedBad and Unchecked always; the in-place and large kinds mix in both
  // (a large checked case must still report the first bad element in row-major order).
  enum class Bad { None, Checked, Unchecked } bad = Bad::None;
  if (kind == CaseKind::CheckedBad) {
    bad = Bad::Checked;
  } else if (kind == CaseKind::Unchecked) {
    bad = Bad::Unchecked;
  } else if (kind == CaseKind::InPlace || kind == CaseKind::Large || strips || tuples || onnx) {
    const uint64_t r = rng.Range(0, 99);
    bad = r < 20 ? Bad::Checked : r < 45 ? Bad::Unchecked : Bad::None;
  }
  c.in_place = kind == CaseKind::InPlace ||
               (scatter && (kind == CaseKind::CheckedBad || kind == CaseKind::Large || strips) &&
                rng.Chance(30));
  op.input = MakeTensor(rng, element, shapes.input, /*read_only=*/!c.in_place);
  op.indices = MakeTensor(rng, index, shapes.indices, true);
  if (scatter) op.updates = MakeTensor(rng, element, shapes.updates, true);
  if (c.in_place) {
    op.output = op.input;
  } else {
    op.output = MakeTensor(rng, element, shapes.output, false);
  }
  if ((strips || tuples) && rng.Chance(60)) {  // mostly packed, as those walks need
    for (OwnedTensor* t : {&op.input, &op.indices, &op.updates, &op.output}) {
      if (t->sizes.empty() || (c.in_place && t == &op.output)) continue;
      t->strides.clear();
      t->total_bytes = (gs_reference::ViewSpanInElements(t->Desc()) + (rng.Chance(50) ? 0 : 3)) *
                       ElementSize(t->type);
    }
    if (c.in_place) op.output = op.input;
  }

  const bool stress = kind == CaseKind::Reduction || rng.Chance(30);
  c.input.resize(op.input.total_bytes);
  FillValues(rng, element, stress, &c.input);
  if (scatter) {
    c.updates.resize(op.updates.total_bytes);
    FillValues(rng, element, stress, &c.updates);
  }
  if (!c.in_place) {
    c.output.resize(op.output.total_bytes);
    for (auto& b : c.output) b = static_cast<uint8_t>(rng.Next());  // the sentinel pattern
  }

  c.indices.resize(op.indices.total_bytes);
  const bool collide = scatter && (kind == CaseKind::Reduction || rng.Chance(40));
  FillIndices(rng, op.indices, shapes, collide, &c.indices);
  const uint64_t index_count = Product(shapes.indices);
  if (bad == Bad::Checked) {
    PlantBadIndices(rng, op.indices, shapes, rng.Range(1, 3), &c.indices);
  } else if (bad == Bad::Unchecked) {
    c.mode = gs::IndexChecking::Unchecked;
    PlantBadIndices(rng, op.indices, shapes, rng.Range(1, 1 + index_count / 8), &c.indices);
  }
  c.thread_count = static_cast<int>(rng.Range(0, 2));
  return c;
}

uint64_t ScaledSeedCount(uint64_t count) {
  const char* scale = std::getenv("GS_PROPERTY_SCALE");
  double x = scale ? std::strtod(scale, nullptr) : 1.0;
  if (!(x > 0)) x = 1.0;
  return std::max<uint64_t>(1, static_cast<uint64_t>(static_cast<double>(count) * x));
}

}  // namespace gs_property
