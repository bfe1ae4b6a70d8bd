// The Input -> Output copy that starts a scatter that is not in place: block copies, large
// blocks split so that every thread copies, streamed past the caches when the plan says so.
#include <algorithm>
#include <cstring>

#include "cpu/kernel_set.h"
#include "cpu/implementations.h"
#include "plan/odometer.h"

namespace gs::cpu {

namespace {

// Large blocks are split into pieces of this many bytes, so that one contiguous tensor is
// still copied by every thread.
constexpr uint64_t kPieceBytes = 256 * 1024;

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
  if (blockBytes > 2 * kPieceBytes) {
    const uint64_t pieces = (blockBytes + kPieceBytes - 1) / kPieceBytes;
    parallel.For(c.unitCount * pieces, 1, [&](uint64_t begin, uint64_t end) {
      for (uint64_t t = begin; t < end; ++t) {
        const plan::Odometer<2> unit = CopyOdometer(c, t / pieces);
        const uint64_t offset = (t % pieces) * kPieceBytes;
        copy(destination + unit.offsets[1] * e + offset, source + unit.offsets[0] * e + offset,
             std::min(kPieceBytes, blockBytes - offset));
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
