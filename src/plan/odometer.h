// Row-major position over up to kMaxRank dims with the element offset it has in several
// tensors at once: the one walk every CPU loop, the copy and the validation use.
// Offsets use wrapping uint64 arithmetic: intermediate values may wrap, final ones are exact.
#pragma once

#include <cstddef>
#include <cstdint>

namespace gs::plan {

template <size_t kTensors>
struct Odometer {
  uint64_t rank = 0;
  const uint64_t* sizes = nullptr;
  const uint64_t* strides[kTensors] = {};  // strides[t][d]: tensor t's stride along dim d
  uint64_t coords[8] = {};
  uint64_t offsets[kTensors] = {};

  // Moves to the position-th element of the walk.
  void Seek(uint64_t position) {
    for (size_t t = 0; t < kTensors; ++t) offsets[t] = 0;
    for (uint64_t d = rank; d-- > 0;) {
      coords[d] = position % sizes[d];
      position /= sizes[d];
      for (size_t t = 0; t < kTensors; ++t) offsets[t] += coords[d] * strides[t][d];
    }
  }

  void Next() {
    for (uint64_t d = rank; d-- > 0;) {
      for (size_t t = 0; t < kTensors; ++t) offsets[t] += strides[t][d];
      if (++coords[d] < sizes[d]) return;
      for (size_t t = 0; t < kTensors; ++t) offsets[t] -= strides[t][d] * sizes[d];
      coords[d] = 0;
    }
  }
};

}  // namespace gs::plan
