// ScatterUnitsByDestination: a scatter shared by a team. Every unit's destination is counted
// first, by ranges of units in parallel (this reads every index, so it is also checked mode's
// validation); then the one decision that needs the index values: whether two units start at
// one offset. Units whose blocks overlap start at the same offset, so when none do the units
// touch disjoint blocks and each task writes a contiguous range of them in any order;
// otherwise they are bucketed by destination range (a counting sort that keeps row-major
// order inside each bucket) and each bucket is applied by one task.
#include <algorithm>
#include <atomic>
#include <vector>

#include "cpu/implementations.h"
#include "cpu/scatter.h"

namespace gs::cpu {
namespace {

// A bucket slot that no move filled.
constexpr uint64_t kNoMove = ~uint64_t{0};

struct Move {
  uint64_t destination;  // element offset in Output
  uint64_t source;       // element offset in Updates
};

// The moves grouped by bucket, row-major inside each: bucket b owns moves[starts[b], starts[b + 1]).
struct Buckets {
  std::vector<Move> moves;
  std::vector<uint64_t> starts;
};

// What counting the destinations found.
struct DestinationCount {
  bool allInBounds = false;
  Destinations destinations = Destinations::Repeated;
};

// The greatest s with 2^s <= n, for n >= 1.
uint64_t Log2Floor(uint64_t n) { return 63 - __builtin_clzll(n); }

// The least s with 2^s >= n (63 at most).
uint64_t Log2Ceil(uint64_t n) { return n <= 1 ? 0 : std::min<uint64_t>(63, Log2Floor(n - 1) + 1); }

// Counts the destinations of every unit, and unless they are distinct, buckets the moves.
// Reads the indices and allocates before anything is written (running out of memory leaves
// the output untouched).
template <typename IndexT>
DestinationCount CountAndBucket(const plan::Plan& plan, const uint8_t* indices, const Parallel& parallel,
                                Buckets* out) {
  const plan::KernelConstants& k = plan.walk;
  const uint64_t threads = static_cast<uint64_t>(parallel.concurrency());
  const uint64_t buckets = threads * 4;
  const uint64_t extent = plan.tensor(plan::TensorRole::Output).extentElements;
  // Powers of two, so that each unit costs shifts, not divisions.
  const uint64_t bucketShift = Log2Ceil(std::max<uint64_t>(1, (extent + buckets - 1) / buckets));
  const uint64_t chunkUnits = std::max<uint64_t>(plan.cpu.taskUnits, (k.unitCount + 4 * threads - 1) / (4 * threads));
  const uint64_t chunks = (k.unitCount + chunkUnits - 1) / chunkUnits;
  auto chunkRange = [&](uint64_t c) {
    return std::make_pair(c * chunkUnits, std::min(k.unitCount, (c + 1) * chunkUnits));
  };

  // slots[c * buckets + b]: moves of chunk c into bucket b; then their first slot, and ends
  // their last + 1. The fill pass reads the indices again and the caller may change them in
  // between: it writes only inside the slots the count reserved.
  std::vector<uint64_t> slots(chunks * buckets, 0);
  std::vector<uint64_t> ends(chunks * buckets, 0);
  // Overwrites only: one bit per slot of the output (the largest power of two of elements not
  // over a block), set as the count goes (two starts in one slot only cost the fast path). At
  // most 64 bits a unit, so a bitmap stays small beside the indices. Each lane (a range of
  // chunks that one task counts in order) sets bits in a bitmap of its own without atomics, and
  // the bitmaps are merged after; where one per lane would outweigh the indices, the lanes share
  // one bitmap and set its bits atomically.
  const uint64_t slotShift = Log2Floor(std::max<uint64_t>(1, k.blockElements));
  const uint64_t bitmapWords = ((extent >> slotShift) + 1 + 63) / 64;
  const bool mayBeDistinct = plan.reduction == Reduction::None && bitmapWords <= k.unitCount;
  const uint64_t lanes = std::min(threads, chunks);
  const uint64_t laneWords = (bitmapWords + 7) / 8 * 8;  // a lane's bitmap starts on a line of its own
  const bool bitmapPerLane = mayBeDistinct && lanes * laneWords <= k.unitCount;
  const uint64_t bitmaps = !mayBeDistinct ? 0 : bitmapPerLane ? lanes : 1;
  std::vector<uint64_t> started(bitmaps * laneWords, 0);
  std::atomic<bool> repeated{!mayBeDistinct};
  std::atomic<bool> outOfBounds{false};
  parallel.For(lanes, 1, [&](uint64_t firstLane, uint64_t lastLane) {
    for (uint64_t lane = firstLane; lane < lastLane; ++lane) {
      uint64_t* bitmap = started.data() + (bitmapPerLane ? lane * laneWords : 0);
      bool repeatSeen = repeated.load(std::memory_order_relaxed);
      const auto noteStart = [&](uint64_t destination) {
        const uint64_t slot = destination >> slotShift, bit = uint64_t{1} << (slot % 64);
        uint64_t& word = bitmap[slot / 64];
        uint64_t before;
        if (bitmapPerLane) {
          before = word;
          word = before | bit;
        } else {
          before = __atomic_fetch_or(&word, bit, __ATOMIC_RELAXED);
        }
        repeatSeen = (before & bit) != 0;
      };
      for (uint64_t c = lane * chunks / lanes; c < (lane + 1) * chunks / lanes; ++c) {
        const auto [begin, end] = chunkRange(c);
        uint64_t* counts = &slots[c * buckets];
        if (!ForEachMove<IndexT>(k, indices, begin, end, [&](uint64_t destination, uint64_t) {
              ++counts[destination >> bucketShift];
              if (!repeatSeen) noteStart(destination);
            })) {
          outOfBounds.store(true, std::memory_order_relaxed);
        }
        // Once a repeat is seen the answer is known: the other lanes stop setting bits.
        if (repeatSeen) repeated.store(true, std::memory_order_relaxed);
        repeatSeen = repeated.load(std::memory_order_relaxed);
      }
    }
  });
  if (bitmaps > 1 && !repeated.load()) {
    // Two lanes that started units in one slot: a repeat neither lane could see alone.
    parallel.For(laneWords, 1 << 14, [&](uint64_t first, uint64_t last) {
      bool seen = false;
      for (uint64_t w = first; w < last && !seen; ++w) {
        uint64_t any = 0;
        for (uint64_t lane = 0; lane < bitmaps; ++lane) {
          const uint64_t bits = started[lane * laneWords + w];
          seen |= (any & bits) != 0;
          any |= bits;
        }
      }
      if (seen) repeated.store(true, std::memory_order_relaxed);
    });
  }
  DestinationCount count;
  count.allInBounds = !outOfBounds.load();
  count.destinations = repeated.load() ? Destinations::Repeated : Destinations::Distinct;
  if (count.destinations == Destinations::Distinct) return count;

  out->starts.assign(buckets + 1, 0);
  uint64_t total = 0;
  for (uint64_t b = 0; b < buckets; ++b) {
    out->starts[b] = total;
    for (uint64_t c = 0; c < chunks; ++c) {
      const uint64_t n = slots[c * buckets + b];
      slots[c * buckets + b] = total;
      total += n;
      ends[c * buckets + b] = total;
    }
  }
  out->starts[buckets] = total;
  out->moves.assign(total, Move{kNoMove, 0});  // slots left unfilled (indices changed) are skipped
  parallel.For(chunks, 1, [&](uint64_t first, uint64_t last) {
    for (uint64_t c = first; c < last; ++c) {
      const auto [begin, end] = chunkRange(c);
      uint64_t* next = &slots[c * buckets];
      const uint64_t* slotEnds = &ends[c * buckets];
      ForEachMove<IndexT>(k, indices, begin, end, [&](uint64_t destination, uint64_t source) {
        const uint64_t b = destination >> bucketShift;
        if (next[b] < slotEnds[b]) out->moves[next[b]++] = {destination, source};
      });
    }
  });
  return count;
}

// Distinct destinations: contiguous ranges of units, each task reading its updates in order.
template <typename IndexT>
void ApplyDistinct(const plan::Plan& plan, const plan::HostBuffers& buffers, const Parallel& parallel) {
  const BlockWriter write = MakeWriter(plan, buffers);
  parallel.For(plan.walk.unitCount, plan.cpu.taskUnits, [&](uint64_t begin, uint64_t end) {
    ForEachMoveHinting<IndexT>(
        plan.walk, buffers.indices, begin, end, write.hintAhead,
        [&](uint64_t destination) { write.Hint(buffers.output, destination); },
        [&](uint64_t destination, uint64_t source) { write(buffers.output, destination, buffers.updates, source); });
    write.Fence();
  });
}

// Repeated destinations: one task per bucket, its moves in row-major order.
void ApplyBuckets(const plan::Plan& plan, const plan::HostBuffers& buffers, const Parallel& parallel,
                  const Buckets& buckets) {
  const BlockWriter write = MakeWriter(plan, buffers);
  const std::vector<Move>& moves = buckets.moves;
  uint8_t* output = buffers.output;
  parallel.For(buckets.starts.size() - 1, 1, [&](uint64_t first, uint64_t last) {
    // Reductions on floats must see IEEE arithmetic on every thread that runs them.
    IeeeFloatScope ieee;
    for (uint64_t b = first; b < last; ++b) {
      const uint64_t end = buckets.starts[b + 1];
      for (uint64_t m = buckets.starts[b]; m < end; ++m) {
        // Both ends of a move are scattered here: the source is hinted too.
        const uint64_t ahead = m + write.hintAhead;
        if (write.hintAhead != 0 && ahead < end && moves[ahead].destination != kNoMove) {
          write.Hint(output, moves[ahead].destination);
          write.HintSource(buffers.updates, moves[ahead].source);
        }
        if (moves[m].destination != kNoMove) write(output, moves[m].destination, buffers.updates, moves[m].source);
      }
    }
    write.Fence();
  });
}

}  // namespace

Status RunScatterUnitsByDestination(const plan::Plan& plan, const plan::HostBuffers& buffers,
                                    const Parallel& parallel, bool checked) {
  NoteImplementationRun(plan::CpuImplementation::ScatterUnitsByDestination);
  return WithIndexType(plan.indexType, [&](auto tag) -> Status {
    using IndexT = decltype(tag);
    Buckets buckets;
    const DestinationCount count = CountAndBucket<IndexT>(plan, buffers.indices, parallel, &buckets);
    NoteDestinations(count.destinations);
    const Status status = ValidateAndCopy(plan, buffers, parallel, checked, count.allInBounds);
    if (!status.ok()) return status;
    if (count.destinations == Destinations::Distinct) {
      ApplyDistinct<IndexT>(plan, buffers, parallel);
    } else {
      ApplyBuckets(plan, buffers, parallel, buckets);
    }
    return Status::Ok();
  });
}

}  // namespace gs::cpu
