#include "limits.h"

#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <numeric>
#include <stdexcept>
#include <utility>

#include "buffer.h"
#include "loops.h"

namespace gs_limits {
namespace {

using gs_bench::Buffer;
using gs_bench::Case;

// ---- Buffers, filled as gs-bench fills them (same seeds, same index law) ----

std::vector<uint64_t> Shape(const Case& c, const char* tensor) {
  return c.spec.at("shapes").at(tensor).get<std::vector<uint64_t>>();
}

uint64_t Product(const std::vector<uint64_t>& shape) {
  return std::accumulate(shape.begin(), shape.end(), uint64_t{1}, std::multiplies<>());
}

// `count` indices of the case, as gs-bench draws them (gs_bench::DrawIndices).
template <class I>
Buffer Indices(const Case& c, uint64_t count, const std::vector<uint64_t>& bounds) {
  if ((c.spec.at("index_dtype").get<std::string>() == "INT32") != (sizeof(I) == 4)) {
    throw std::runtime_error(c.name + ": index type is not the suite's");
  }
  Buffer b(count * sizeof(I));
  I* p = static_cast<I*>(b.data());
  gs_bench::DrawIndices(c, count, bounds, [p](uint64_t i, uint64_t value) { p[i] = static_cast<I>(value); });
  return b;
}

// Deterministic bytes (their values never matter to a loop).
Buffer Data(size_t bytes, uint64_t salt) {
  Buffer b(bytes);
  auto* p = static_cast<unsigned char*>(b.data());
  for (size_t i = 0; i + 8 <= bytes; i += 8) {
    const uint64_t v = (i + salt) * 0x9E3779B97F4A7C15ull;
    std::memcpy(p + i, &v, 8);
  }
  return b;
}

// A case's buffers: src is what is read (input, a scatter's updates), dst what is written
// (output, a scatter's table).
struct Buffers {
  Buffer src, idx, dst;
};

// ---- The cases ----

// <case>[/<variant>], as gs-bench names it: a lone "default" variant is left out.
std::string CaseName(const Case& c, const std::string& variant) {
  const bool name_variant = c.variants.size() > 1 || c.variants.at(0) != "default";
  return c.name + (name_variant ? "/" + variant : std::string());
}

// A case's limits without loops yet: its buffers made by `make` at prepare, freed at release.
CaseLimits Limits(const Case& c, const std::string& variant, const std::shared_ptr<Buffers>& b,
                  std::function<void(Buffers&)> make) {
  CaseLimits l;
  l.name = CaseName(c, variant);
  l.total_bytes = c.total_bytes.at(variant);
  l.prepare = [b, make] { make(*b); };
  l.release = [b] { *b = Buffers(); };
  l.output = [b]() -> const void* { return b->dst.data(); };
  return l;
}

// Loop `name`: f over the view of the buffers that view() makes when the loop runs.
template <class View, class MakeView>
void Add(CaseLimits* l, std::string name, size_t units, bool avx512,
         void (*f)(const View&, size_t, size_t), MakeView view) {
  l->loops.push_back({std::move(name), units, avx512,
                      [f, view](size_t begin, size_t end) { f(view(), begin, end); }});
}

template <class E, class I>
CaseLimits LastAxisLimits(const Case& c, const std::string& variant) {
  const std::vector<uint64_t> shape = Shape(c, "OutputTensor");
  const size_t rows = shape.at(0), cols = shape.at(1), count = rows * cols;
  auto b = std::make_shared<Buffers>();
  CaseLimits l = Limits(c, variant, b, [&c, count, cols](Buffers& b) {
    b.src = Data(count * sizeof(E) + kLine,
                 1);  // + 64: a word gathered at the last element stays inside
    b.idx = Indices<I>(c, count, {cols});
    b.dst = Data(count * sizeof(E), 2);
  });
  auto view = [b, rows, cols] {
    return LastAxis<E, I>{static_cast<const E*>(b->src.data()),
                          static_cast<const I*>(b->idx.data()), static_cast<E*>(b->dst.data()),
                          rows, cols};
  };
  Add(&l, "traffic", rows, false, Traffic<E, I>, view);
#ifdef GS_LIMITS_X86
  Add(&l, "traffic_avx512", rows, true, TrafficAvx512<E, I>, view);
#endif
  Add(&l, "scalar", rows, false, ScalarRows<E, I, false>, view);
  Add(&l, "scalar_next_row", rows, false, ScalarRows<E, I, true>, view);
#ifdef GS_LIMITS_X86
  const std::string vector = sizeof(E) == 4 ? "vector_gather" : "vector_gather_words";
  Add(&l, vector, rows, true, VectorRows<E, I, false>, view);
  Add(&l, vector + "_next_row", rows, true, VectorRows<E, I, true>, view);
  Add(&l, vector + "_lanes8_next_row", rows, true, VectorRows<E, I, true, true>, view);
  Add(&l, vector + "_in_cache", rows, true, VectorRowsInCache<E, I, false>, view);
  Add(&l, vector + "_lanes8_in_cache", rows, true, VectorRowsInCache<E, I, true>, view);
#endif
  return l;
}

CaseLimits StripLimits(const Case& c, const std::string& variant) {
  const std::vector<uint64_t> shape = Shape(c, "IndicesTensor");
  const size_t rows = shape.at(0), cols = shape.at(1), bound = Shape(c, "InputTensor").at(0);
  auto b = std::make_shared<Buffers>();
  CaseLimits l = Limits(c, variant, b, [&c, rows, cols, bound](Buffers& b) {
    b.idx = Indices<int64_t>(c, rows * cols, {bound});
    b.dst = Data(rows * cols * sizeof(float), 2);
  });
  auto view = [b, rows, cols] {
    return Strips{static_cast<const int64_t*>(b->idx.data()), static_cast<float*>(b->dst.data()),
                  rows, cols};
  };
  const size_t strips = (cols + kStrip - 1) / kStrip;
  Add(&l, "strip_pattern", strips, false, StripPattern<0>, view);
  Add(&l, "strip_pattern_prefetch8", strips, false, StripPattern<8>, view);
  Add(&l, "strip_gather", strips, false, StripGather, view);
  Add(&l, "rowmajor_traffic", rows, false, RowMajorTraffic, view);
  return l;
}

// Input [batches..., table rows, row elements] (float); one index per dense row (q = 1).
template <class I, bool kScatter>
CaseLimits RowLimits(const Case& c, const std::string& variant) {
  const std::vector<uint64_t> in = Shape(c, "InputTensor");
  const size_t row_bytes = in.back() * sizeof(float), table_rows = in.at(in.size() - 2);
  const size_t batches = Product(in) / in.back() / table_rows;
  const size_t units = Product(Shape(c, "IndicesTensor")), per_batch = units / batches;
  auto b = std::make_shared<Buffers>();
  CaseLimits l = Limits(c, variant, b, [&c, row_bytes, table_rows, batches, units](Buffers& b) {
    const size_t table = batches * table_rows * row_bytes, dense = units * row_bytes;
    b.src = Data(kScatter ? dense : table, 1);
    b.idx = Indices<I>(c, units, {table_rows});
    b.dst = Data(kScatter ? table : dense, 2);
  });
  auto view = [b, table_rows, per_batch, row_bytes] {
    char* table = static_cast<char*>(kScatter ? b->dst.data() : b->src.data());
    char* dense = static_cast<char*>(kScatter ? b->src.data() : b->dst.data());
    return Rows<I>{table,    static_cast<const I*>(b->idx.data()), dense, table_rows, per_batch,
                   row_bytes};
  };
  if (!kScatter)
    Add(&l, "sequential_rows", units, false, CopyRows<false, false, LineCopy, I>, view);
  Add(&l, "random_rows", units, false, CopyRows<kScatter, true, Memcpy, I>, view);
#ifdef GS_LIMITS_X86
  if (kScatter) {
    Add(&l, "random_rows_stream", units, false, StreamRows<true, true, 0, I>, view);
  } else {
    Add(&l, "random_rows_prefetch8", units, false, StreamRows<false, true, 8, I>, view);
    Add(&l, "random_rows_prefetch32", units, false, StreamRows<false, true, 32, I>, view);
    Add(&l, "random_rows_prefetch8_l2", units, false, StreamRows<false, true, 8, I, true>, view);
    Add(&l, "random_rows_prefetch32_l2", units, false, StreamRows<false, true, 32, I, true>, view);
    Add(&l, "random_rows_prefetch64_l2", units, false, StreamRows<false, true, 64, I, true>, view);
  }
#endif
  if (kScatter) Add(&l, "sequential_rows", units, false, CopyRows<true, false, LineCopy, I>, view);
  return l;
}

CaseLimits ElementLimits(const Case& c, const std::string& variant) {
  const std::vector<uint64_t> in = Shape(c, "InputTensor");
  const size_t rows = in.at(0), cols = in.at(1), units = Product(Shape(c, "OutputTensor"));
  auto b = std::make_shared<Buffers>();
  CaseLimits l = Limits(c, variant, b, [&c, rows, cols, units](Buffers& b) {
    b.src = Data(rows * cols * sizeof(float), 1);
    b.idx = Indices<int64_t>(c, units * 2, {rows, cols});
    b.dst = Data(units * sizeof(float), 2);
  });
  auto view = [b, rows, cols] {
    return Elements{static_cast<const float*>(b->src.data()),
                    static_cast<const int64_t*>(b->idx.data()), static_cast<float*>(b->dst.data()),
                    rows, cols};
  };
  Add(&l, "random_elements", units, false, RandomElements<false>, view);
  Add(&l, "random_elements_prefetch", units, false, RandomElements<true>, view);
  return l;
}

}  // namespace

bool HasAvx512() {
#ifdef GS_LIMITS_X86
  return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
         __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq");
#else
  return false;
#endif
}

std::vector<CaseLimits> MakeLimits(const std::vector<Case>& cases) {
  // The cases whose targets are missed, by <case>[/<variant>]; f32 moves as uint32_t.
  using Make = CaseLimits (*)(const Case&, const std::string&);
  static const std::map<std::string, Make> kMakers = {
      {"gather_elements/f32/axis1/i64", LastAxisLimits<uint32_t, int64_t>},
      {"gather_elements/f32/axis1/i32", LastAxisLimits<uint32_t, int32_t>},
      {"gather_elements/f16/axis1/i64", LastAxisLimits<uint16_t, int64_t>},
      {"gather_elements/i8/axis1/i64", LastAxisLimits<int8_t, int64_t>},
      {"gather_elements/f32/axis0/i64", StripLimits},
      {"scatter_elements/f32/axis0/i64/inplace", StripLimits},
      {"gather_nd/f32/rows256/q1/i64", RowLimits<int64_t, false>},
      {"gather_nd1/f32/batch1/rows64/q1/i64", RowLimits<int64_t, false>},
      {"gather/f32/embedding/axis0/i64", RowLimits<int64_t, false>},
      {"gather/f32/embedding/axis0/i32", RowLimits<int32_t, false>},
      {"scatter_nd/f32/rows256/q1/i64/inplace", RowLimits<int64_t, true>},
      {"gather_nd/f32/elements/q2/i64", ElementLimits},
  };
  std::vector<CaseLimits> limits;
  for (const Case& c : cases) {
    for (const std::string& v : c.variants) {
      if (auto it = kMakers.find(CaseName(c, v)); it != kMakers.end())
        limits.push_back(it->second(c, v));
    }
  }
  return limits;
}

}  // namespace gs_limits
