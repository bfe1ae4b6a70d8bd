// Gathers, keyed by element size and index type.
#include <cstring>

#include "cpu/kernels.h"
#include "cpu/walk.h"

namespace gs::cpu {
namespace {

template <typename Element, typename IndexT>
void GatherUnits(const plan::KernelConstants& k, const uint8_t* input, const uint8_t* indices,
                 uint8_t* output, uint64_t begin, uint64_t end) {
  constexpr uint64_t size = sizeof(Element);
  const uint64_t blockBytes = k.blockElements * size;
  UnitCursor cursor;
  cursor.Seek(k, begin);
  for (uint64_t unit = begin; unit < end; ++unit, cursor.Next(k)) {
    uint8_t* destination = output + cursor.iterOffset * size;
    uint64_t source;
    const bool inBounds = IndexedOffset<IndexT>(k, indices, cursor, &source);
    if (k.blockElements == 1) {
      Element value{};
      if (inBounds) std::memcpy(&value, input + source * size, size);
      std::memcpy(destination, &value, size);
    } else if (inBounds) {
      std::memcpy(destination, input + source * size, blockBytes);
    } else {
      std::memset(destination, 0, blockBytes);
    }
  }
}

}  // namespace

void RunGather(const plan::Plan& plan, const uint8_t* input, const uint8_t* indices,
               uint8_t* output, const Parallel& parallel) {
  const plan::KernelConstants& k = plan.kernel;
  WithElementSize(plan.elementSize, [&](auto element) {
    WithIndexType(plan.indexType, [&](auto index) {
      using Element = decltype(element);
      using IndexT = decltype(index);
      const uint64_t grain = GrainUnits(k.blockElements * sizeof(Element) + k.tupleSize * sizeof(IndexT));
      parallel.For(k.unitCount, grain, [&](uint64_t begin, uint64_t end) {
        GatherUnits<Element, IndexT>(k, input, indices, output, begin, end);
      });
    });
  });
}

}  // namespace gs::cpu
