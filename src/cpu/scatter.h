// Deterministic parallel scatter.
//
// The last update in row-major order of the updates wins, and reductions fold in that order,
// whatever the thread count. Units are bucketed by destination range (a counting sort that
// keeps row-major order inside each bucket); each bucket is then applied by one task. Units
// whose blocks overlap start at the same offset, so they always share a bucket; overwrites
// whose units all start at distinct offsets need no order at all, and each task writes a
// contiguous range of units (reading its updates in order, as buckets cannot). Element
// scatters along a dim other than the last need no buckets: columns own disjoint outputs, so
// strips of columns run in parallel, each in row order (plan::CpuImplementation::ScatterStrips).
#pragma once

#include <cstdint>
#include <vector>

#include "cpu/parallel.h"
#include "plan/plan.h"

namespace gs::cpu {

class ScatterSchedule {
 public:
  // Reads the indices and allocates everything the scatter needs, before anything is written
  // (so that running out of memory leaves the output untouched).
  ScatterSchedule(const plan::Plan& plan, const uint8_t* indices, const Parallel& parallel);

  // Folds the updates into the output.
  void Apply(const uint8_t* updates, uint8_t* output) const;

  // True when building the schedule read every index and found them all in bounds: checked
  // mode then needs no validation pass of its own (the bucketed schedule counts destinations
  // from every index; the other walks read the indices only while writing).
  bool IndicesKnownValid() const { return indicesChecked_ && allInBounds_; }

 private:
  struct Move {
    uint64_t destination;  // element offset in Output
    uint64_t source;       // element offset in Updates
  };

  void ApplyInOrder(const uint8_t* updates, uint8_t* output) const;
  void ApplyDistinct(const uint8_t* updates, uint8_t* output) const;
  void ApplyStrips(const uint8_t* updates, uint8_t* output) const;

  const plan::Plan& plan_;
  const uint8_t* indices_;
  const Parallel& parallel_;
  std::vector<Move> moves_;             // grouped by bucket, row-major inside each
  std::vector<uint64_t> bucketStarts_;  // bucket b owns moves_[starts[b], starts[b + 1])
  bool indicesChecked_ = false;         // every index was resolved while bucketing
  bool allInBounds_ = false;
  bool distinctBlocks_ = false;         // no two units start at one offset: any order will do
};

}  // namespace gs::cpu
