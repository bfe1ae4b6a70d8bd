// Walking the units of a plan and resolving their indices, shared by every CPU walk.
#pragma once

#include <cstdint>

#include "cpu/elements.h"
#include "plan/odometer.h"
#include "plan/plan.h"

namespace gs::cpu {

// A unit's offset in the walked tensor (iter), the indexed tensor before its index (data) and
// the Indices, at a row-major position of the plan's walk.
class UnitCursor {
 public:
  UnitCursor(const plan::KernelConstants& k, uint64_t unit) {
    odometer_.rank = k.rank;
    odometer_.sizes = k.sizes;
    odometer_.strides[0] = k.iterStrides;
    odometer_.strides[1] = k.dataStrides;
    odometer_.strides[2] = k.indexStrides;
    odometer_.Seek(unit);
  }
  void Next() { odometer_.Next(); }
  uint64_t iter() const { return odometer_.offsets[0]; }
  uint64_t data() const { return odometer_.offsets[1]; }
  uint64_t index() const { return odometer_.offsets[2]; }

 private:
  plan::Odometer<3> odometer_;
};

// The indexed tensor's element offset for the unit at the cursor, or false when a component
// of its tuple is out of bounds.
template <typename IndexT>
inline bool IndexedOffset(const plan::KernelConstants& k, const uint8_t* indices,
                          const UnitCursor& cursor, uint64_t* offset) {
  uint64_t result = cursor.data();
  for (uint64_t c = 0; c < k.tupleSize; ++c) {
    bool ok;
    const uint64_t position = ResolveIndex(
        LoadIndex<IndexT>(indices, cursor.index() + c * k.tupleStride), k.indexedSizes[c], &ok);
    if (!ok) return false;
    result += position * k.indexedStrides[c];
  }
  *offset = result;
  return true;
}

}  // namespace gs::cpu
