// The Input -> Output copy that starts a scatter that is not in place.
#include <cstring>

#include "cpu/kernels.h"

namespace gs::cpu {

void RunStridedCopy(const plan::CopyConstants& c, uint32_t elementSize, const uint8_t* source,
                    uint8_t* destination, const Parallel& parallel) {
  const uint64_t blockBytes = c.blockElements * elementSize;
  parallel.For(c.unitCount, GrainUnits(blockBytes), [&](uint64_t begin, uint64_t end) {
    uint64_t coords[plan::kMaxRank] = {};
    uint64_t rest = begin, src = 0, dst = 0;
    for (uint64_t d = c.rank; d-- > 0;) {
      coords[d] = rest % c.sizes[d];
      rest /= c.sizes[d];
      src += coords[d] * c.srcStrides[d];
      dst += coords[d] * c.dstStrides[d];
    }
    for (uint64_t unit = begin; unit < end; ++unit) {
      std::memcpy(destination + dst * elementSize, source + src * elementSize, blockBytes);
      for (uint64_t d = c.rank; d-- > 0;) {
        src += c.srcStrides[d];
        dst += c.dstStrides[d];
        if (++coords[d] < c.sizes[d]) break;
        src -= c.srcStrides[d] * c.sizes[d];
        dst -= c.dstStrides[d] * c.sizes[d];
        coords[d] = 0;
      }
    }
  });
}

}  // namespace gs::cpu
