// Elements and indices as every CPU walk and kernel sees them, defined once.
// The functions have internal linkage (static): each kernel set's translation unit is built
// with its own instruction-set flags, and a shared inline copy could hand AVX-512 code to a
// CPU without it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "gs/tensor.h"

namespace gs::cpu {

// Elements move by size only: a struct of N bytes that is copied, never interpreted.
template <size_t N>
struct Bytes {
  uint8_t b[N];
};

// The unsigned integer of N bytes: elements move as one, and a select on it is a cmov.
template <size_t N>
using Word = std::conditional_t<N == 1, uint8_t, std::conditional_t<N == 2, uint16_t,
             std::conditional_t<N == 4, uint32_t, uint64_t>>>;

// An index value made into a position in [0, bound): negative signed values count from the
// end; unsigned values never wrap. `ok` is false when the value is out of bounds (the
// position is then meaningless). Branch-free, so that kernels can vectorise around it.
template <typename IndexT>
static inline uint64_t ResolveIndex(IndexT value, uint64_t bound, bool* ok) {
  uint64_t p;
  if constexpr (std::is_signed_v<IndexT>) {
    const int64_t v = value;
    p = static_cast<uint64_t>(v < 0 ? v + static_cast<int64_t>(bound) : v);  // wraps when < 0
  } else {
    p = static_cast<uint64_t>(value);
  }
  *ok = p < bound;
  return p;
}

// The index at element offset `elementOffset` of a buffer that may be unaligned.
template <typename IndexT>
static inline IndexT LoadIndex(const uint8_t* indices, uint64_t elementOffset) {
  IndexT value;
  std::memcpy(&value, indices + elementOffset * sizeof(IndexT), sizeof(IndexT));
  return value;
}

// Calls fn(IndexT{}) for the index type.
template <typename Fn>
static inline decltype(auto) WithIndexType(DataType type, Fn&& fn) {
  switch (type) {
    case DataType::Int32: return fn(int32_t{});
    case DataType::Int64: return fn(int64_t{});
    case DataType::UInt32: return fn(uint32_t{});
    default: return fn(uint64_t{});
  }
}

// Calls fn(Bytes<size>{}) for an element size of 1, 2, 4 or 8.
template <typename Fn>
static inline decltype(auto) WithElementSize(uint32_t size, Fn&& fn) {
  switch (size) {
    case 1: return fn(Bytes<1>{});
    case 2: return fn(Bytes<2>{});
    case 4: return fn(Bytes<4>{});
    default: return fn(Bytes<8>{});
  }
}

}  // namespace gs::cpu
