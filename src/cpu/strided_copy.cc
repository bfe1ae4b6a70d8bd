// The Input -> Output copy that starts a scatter that is not in place: block copies, large
// blocks split into the plan's pieces so that every thread copies, streamed past the caches
// when the plan says so.
#include <algorithm>
#include <cstring>

#include "cpu/kernel_set.h"
#include "cpu/implementations.h"
#include "plan/odometer.h"

namespace gs::cpu {

namespace {

// Source (offsets[0]) and destination (offsets[1]) element offsets of a copy's units.
plan::Odometer<2> CopyOdometer(const plan::CopyConstants& c, uint64_t unit) {
  plan::Odometer<2> odometer;
  odometer.rank = c.rank;
  odometer.sizes = c.sizes;
  odometer.strides[0] = c.srcStrides;
  odometer.strides[1] = c.dstStrides;
  odometer.Seek(unit);
  return odometer;
}

}  // namespace

void RunStridedCopy(const plan::Plan& plan, const uint8_t* source, uint8_t* destination,
                    const Parallel& parallel) {
  const plan::CopyConstants& c = plan.copy;
  const uint64_t e = plan.elementSize;
  const uint64_t blockBytes = c.blockElements * e;
  const KernelTable& kernels = KernelsOf(plan.cpu.kernelSet);
  const bool stream = plan.cpu.streamCopy;
  auto copy = [&](uint8_t* to, const uint8_t* from, uint64_t bytes) {
    if (stream) {
      kernels.streamCopy(to, from, bytes);
    } else {
      std::memcpy(to, from, bytes);
    }
  };
  const uint64_t pieceBytes = plan.cpu.copyPieceBytes;
  if (pieceBytes != 0) {
    const uint64_t pieces = (blockBytes + pieceBytes - 1) / pieceBytes;
    parallel.For(c.unitCount * pieces, 1, [&](uint64_t begin, uint64_t end) {
      for (uint64_t t = begin; t < end; ++t) {
        const plan::Odometer<2> unit = CopyOdometer(c, t / pieces);
        const uint64_t offset = (t % pieces) * pieceBytes;
        copy(destination + unit.offsets[1] * e + offset, source + unit.offsets[0] * e + offset,
             std::min(pieceBytes, blockBytes - offset));
      }
      if (stream) kernels.streamFence();
    });
    return;
  }
  parallel.For(c.unitCount, plan::TaskUnits(blockBytes), [&](uint64_t begin, uint64_t end) {
    plan::Odometer<2> unit = CopyOdometer(c, begin);
    for (uint64_t u = begin; u < end; ++u, unit.Next()) {
      copy(destination + unit.offsets[1] * e, source + unit.offsets[0] * e, blockBytes);
    }
    if (stream) kernels.streamFence();
  });
}

}  // namespace gs::cpu
