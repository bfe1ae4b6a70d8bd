// Walking the units of a plan and resolving their indices, shared by every CPU kernel.
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "plan/plan.h"

namespace gs::cpu {

// Row-major position over the walked dims with the element offset in each tensor.
// Offsets use wrapping uint64 arithmetic: intermediate values may wrap, final ones are exact.
struct UnitCursor {
  uint64_t coords[plan::kMaxRank] = {};
  uint64_t iterOffset = 0;
  uint64_t dataOffset = 0;
  uint64_t indexOffset = 0;

  void Seek(const plan::KernelConstants& k, uint64_t unit) {
    iterOffset = dataOffset = indexOffset = 0;
    for (uint64_t d = k.rank; d-- > 0;) {
      coords[d] = unit % k.sizes[d];
      unit /= k.sizes[d];
      iterOffset += coords[d] * k.iterStrides[d];
      dataOffset += coords[d] * k.dataStrides[d];
      indexOffset += coords[d] * k.indexStrides[d];
    }
  }

  void Next(const plan::KernelConstants& k) {
    for (uint64_t d = k.rank; d-- > 0;) {
      iterOffset += k.iterStrides[d];
      dataOffset += k.dataStrides[d];
      indexOffset += k.indexStrides[d];
      if (++coords[d] < k.sizes[d]) return;
      iterOffset -= k.iterStrides[d] * k.sizes[d];
      dataOffset -= k.dataStrides[d] * k.sizes[d];
      indexOffset -= k.indexStrides[d] * k.sizes[d];
      coords[d] = 0;
    }
  }
};

// An index value made into a position in [0, bound): negative signed values count from the
// end; unsigned values never wrap. False when the value is out of bounds.
template <typename IndexT>
inline bool ResolveIndex(IndexT value, uint64_t bound, uint64_t* position) {
  if constexpr (std::is_signed_v<IndexT>) {
    int64_t v = value;
    if (v < 0) v += static_cast<int64_t>(bound);  // bound < 2^32: cannot overflow
    if (v < 0 || static_cast<uint64_t>(v) >= bound) return false;
    *position = static_cast<uint64_t>(v);
  } else {
    if (static_cast<uint64_t>(value) >= bound) return false;
    *position = static_cast<uint64_t>(value);
  }
  return true;
}

template <typename IndexT>
inline IndexT LoadIndex(const uint8_t* indices, uint64_t elementOffset) {
  IndexT value;
  std::memcpy(&value, indices + elementOffset * sizeof(IndexT), sizeof(IndexT));
  return value;
}

// The indexed tensor's element offset for the unit at the cursor, or false when a component
// of its tuple is out of bounds.
template <typename IndexT>
inline bool IndexedOffset(const plan::KernelConstants& k, const uint8_t* indices,
                          const UnitCursor& cursor, uint64_t* offset) {
  uint64_t result = cursor.dataOffset;
  for (uint64_t c = 0; c < k.tupleSize; ++c) {
    uint64_t position;
    if (!ResolveIndex(LoadIndex<IndexT>(indices, cursor.indexOffset + c * k.tupleStride),
                      k.indexedSizes[c], &position)) {
      return false;
    }
    result += position * k.indexedStrides[c];
  }
  *offset = result;
  return true;
}

// Calls fn.template operator()<IndexT>() for the plan's index type.
template <typename Fn>
inline decltype(auto) WithIndexType(DataType type, Fn&& fn) {
  switch (type) {
    case DataType::Int32: return fn(int32_t{});
    case DataType::Int64: return fn(int64_t{});
    case DataType::UInt32: return fn(uint32_t{});
    default: return fn(uint64_t{});
  }
}

// Elements moved by size only: a struct of N bytes that is copied, never interpreted.
template <size_t N>
struct Bytes {
  uint8_t b[N];
};

template <typename Fn>
inline decltype(auto) WithElementSize(uint32_t size, Fn&& fn) {
  switch (size) {
    case 1: return fn(Bytes<1>{});
    case 2: return fn(Bytes<2>{});
    case 4: return fn(Bytes<4>{});
    default: return fn(Bytes<8>{});
  }
}

}  // namespace gs::cpu
