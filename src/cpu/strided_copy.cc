// The Input -> Output copy that starts a scatter that is not in place: block copies, large
// blocks split so that every thread copies, streamed past the caches when larger than the LLC.
#include <algorithm>
#include <cstring>

#include "cpu/kernel_set.h"
#include "cpu/kernels.h"
#include "cpu/row_walk.h"

namespace gs::cpu {

namespace {

// Large blocks are split into pieces of this many bytes, so that one contiguous tensor is
// still copied by every thread.
constexpr uint64_t kPieceBytes = 256 * 1024;

// Element offsets of unit `unit` in source and destination.
void SeekUnit(const plan::CopyConstants& c, uint64_t unit, uint64_t* coords, uint64_t* src,
              uint64_t* dst) {
  *src = *dst = 0;
  for (uint64_t d = c.rank; d-- > 0;) {
    coords[d] = unit % c.sizes[d];
    unit /= c.sizes[d];
    *src += coords[d] * c.srcStrides[d];
    *dst += coords[d] * c.dstStrides[d];
  }
}

}  // namespace

void RunStridedCopy(const plan::CopyConstants& c, uint32_t elementSize, const uint8_t* source,
                    uint8_t* destination, const Parallel& parallel) {
  const uint64_t blockBytes = c.blockElements * elementSize;
  const KernelTable& kernels = ActiveKernels();
  const bool stream = blockBytes >= 64 && ShouldStreamOutput(2 * c.unitCount * blockBytes);
  auto copy = [&](uint8_t* to, const uint8_t* from, uint64_t bytes) {
    if (stream) {
      kernels.streamCopy(to, from, bytes);
    } else {
      std::memcpy(to, from, bytes);
    }
  };
  if (blockBytes > 2 * kPieceBytes) {
    const uint64_t pieces = (blockBytes + kPieceBytes - 1) / kPieceBytes;
    parallel.For(c.unitCount * pieces, 1, [&](uint64_t begin, uint64_t end) {
      uint64_t coords[plan::kMaxRank] = {};
      for (uint64_t t = begin; t < end; ++t) {
        uint64_t src, dst;
        SeekUnit(c, t / pieces, coords, &src, &dst);
        const uint64_t offset = (t % pieces) * kPieceBytes;
        copy(destination + dst * elementSize + offset, source + src * elementSize + offset,
             std::min(kPieceBytes, blockBytes - offset));
      }
      if (stream) kernels.streamFence();
    });
    return;
  }
  parallel.For(c.unitCount, GrainUnits(blockBytes), [&](uint64_t begin, uint64_t end) {
    uint64_t coords[plan::kMaxRank] = {};
    uint64_t src, dst;
    SeekUnit(c, begin, coords, &src, &dst);
    for (uint64_t unit = begin; unit < end; ++unit) {
      copy(destination + dst * elementSize, source + src * elementSize, blockBytes);
      for (uint64_t d = c.rank; d-- > 0;) {
        src += c.srcStrides[d];
        dst += c.dstStrides[d];
        if (++coords[d] < c.sizes[d]) break;
        src -= c.srcStrides[d] * c.sizes[d];
        dst -= c.dstStrides[d] * c.sizes[d];
        coords[d] = 0;
      }
    }
    if (stream) kernels.streamFence();
  });
}

}  // namespace gs::cpu
