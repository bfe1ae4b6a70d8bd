// The reductions' arithmetic as templates over how binary16 converts (a Half: ToFloat and
// FromFloatNotNaN), built generic in reductions.cc and, with conversion instructions, into the
// kernel sets that have them (simd/half_folds.h). Internal linkage, as cpu/elements.h: each
// kernel set's translation unit has its own instruction-set flags, and a shared inline copy
// could hand its code to a CPU without them.
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "cpu/elements.h"
#include "cpu/float16.h"  // Picks
#include "gs/operators.h"

namespace gs::cpu {
namespace {

template <typename T>
T LoadValue(const uint8_t* p) {
  T value;
  std::memcpy(&value, p, sizeof(T));
  return value;
}

template <typename T>
void StoreValue(uint8_t* p, T value) {
  std::memcpy(p, &value, sizeof(T));
}

// Integers wrap around: compute in an unsigned type at least 32 bits wide, so that no
// promotion to int can overflow, and truncate.
template <typename T, Reduction R>
T CombineInteger(T acc, T update) {
  using Unsigned = std::make_unsigned_t<T>;
  using Wide = std::conditional_t<(sizeof(T) < 4), uint32_t, Unsigned>;
  const Wide a = static_cast<Unsigned>(acc), b = static_cast<Unsigned>(update);
  if constexpr (R == Reduction::Add) return static_cast<T>(static_cast<Unsigned>(a + b));
  if constexpr (R == Reduction::Multiply) return static_cast<T>(static_cast<Unsigned>(a * b));
  if constexpr (R == Reduction::Min) return update < acc ? update : acc;
  if constexpr (R == Reduction::Max) return update > acc ? update : acc;
  return update;
}

// Floats: a NaN from ADD or MULTIPLY becomes the canonical quiet NaN (sign clear); MIN and MAX
// keep an accumulated NaN, else take the update's NaN, and keep acc on ties such as +0/-0.
// Values are compared and combined as Wide (binary32 for binary16: exact for one operation).
// ADD and MULTIPLY pick as P says (float16.h).
template <typename Bits, typename Wide, Reduction R, Picks P, Bits kCanonicalNaN, typename ToWide,
          typename FromWide>
Bits CombineFloat(Bits acc, Bits update, ToWide toWide, FromWide fromWide) {
  const Wide a = toWide(acc), b = toWide(update);
  if constexpr (R == Reduction::Min || R == Reduction::Max) {
    if (a != a) return acc;
    if (b != b) return update;
    if constexpr (R == Reduction::Min) return b < a ? update : acc;
    return b > a ? update : acc;
  } else {
    const Wide result = R == Reduction::Add ? a + b : a * b;
    return Pick<P, Bits>(result != result, kCanonicalNaN, fromWide(result));
  }
}

template <DataType D>
struct Storage;
template <> struct Storage<DataType::Float64> { using type = uint64_t; };
template <> struct Storage<DataType::Float32> { using type = uint32_t; };
template <> struct Storage<DataType::Float16> { using type = uint16_t; };
template <> struct Storage<DataType::Int64> { using type = int64_t; };
template <> struct Storage<DataType::Int32> { using type = int32_t; };
template <> struct Storage<DataType::Int16> { using type = int16_t; };
template <> struct Storage<DataType::Int8> { using type = int8_t; };
template <> struct Storage<DataType::UInt64> { using type = uint64_t; };
template <> struct Storage<DataType::UInt32> { using type = uint32_t; };
template <> struct Storage<DataType::UInt16> { using type = uint16_t; };
template <> struct Storage<DataType::UInt8> { using type = uint8_t; };

template <DataType D, Reduction R, Picks P, class Half>
typename Storage<D>::type CombineValue(typename Storage<D>::type acc, typename Storage<D>::type update) {
  if constexpr (D == DataType::Float64) {
    auto toWide = [](uint64_t bits) { double d; std::memcpy(&d, &bits, 8); return d; };
    auto fromWide = [](double d) { uint64_t bits; std::memcpy(&bits, &d, 8); return bits; };
    return CombineFloat<uint64_t, double, R, P, 0x7ff8000000000000ull>(acc, update, toWide, fromWide);
  } else if constexpr (D == DataType::Float32) {
    auto toWide = [](uint32_t bits) { float f; std::memcpy(&f, &bits, 4); return f; };
    auto fromWide = [](float f) { uint32_t bits; std::memcpy(&bits, &f, 4); return bits; };
    return CombineFloat<uint32_t, float, R, P, 0x7fc00000u>(acc, update, toWide, fromWide);
  } else if constexpr (D == DataType::Float16) {
    return CombineFloat<uint16_t, float, R, P, uint16_t{0x7e00}>(acc, update, Half::ToFloat,
                                                                   Half::FromFloatNotNaN);
  } else {
    return CombineInteger<typename Storage<D>::type, R>(acc, update);
  }
}

template <DataType D, Reduction R, Picks P, class Half>
void CombineArray(uint8_t* accumulator, const uint8_t* update, uint64_t count) {
  using T = typename Storage<D>::type;
  for (uint64_t i = 0; i < count; ++i) {
    uint8_t* acc = accumulator + i * sizeof(T);
    StoreValue<T>(acc, CombineValue<D, R, P, Half>(LoadValue<T>(acc), LoadValue<T>(update + i * sizeof(T))));
  }
}

template <DataType D, Reduction R, typename IndexT, class Half>
void FoldRow(uint8_t* data, uint64_t step, uint64_t stride, uint64_t bound, const uint8_t* indices,
             const uint8_t* updates, uint64_t width) {
  using T = typename Storage<D>::type;
  for (uint64_t j = 0; j < width; ++j) {
    bool ok;
    const uint64_t p = ResolveIndex(LoadIndex<IndexT>(indices, j), bound, &ok);
    if (!ok) continue;
    uint8_t* acc = data + (p * stride + j * step) * sizeof(T);
    StoreValue<T>(acc, CombineValue<D, R, Picks::OneValue, Half>(LoadValue<T>(acc),
                                                                 LoadValue<T>(updates + j * sizeof(T))));
  }
}

}  // namespace
}  // namespace gs::cpu
