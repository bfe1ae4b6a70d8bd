// Row-major position over up to kMaxRank dims with the element offset it has in several
// tensors at once: the one walk every CPU loop, the copy and the validation use.
// Offsets use wrapping uint64 arithmetic: intermediate values may wrap, final ones are exact.
#pragma once

#include <cstddef>
#include <cstdint>

namespace gs::plan {

// Set rank, sizes and strides, then Seek before the first Next.
template <size_t kTensors>
struct Odometer {
  uint64_t rank = 0;
  const uint64_t* sizes = nullptr;
  const uint64_t* strides[kTensors] = {};  // strides[t][d]: tensor t's stride along dim d
  uint64_t coords[8];                      // [0, rank), set by Seek
  uint64_t offsets[kTensors] = {};

  // Moves to the position-th element of the walk.
  void Seek(uint64_t position) {
    for (size_t t = 0; t < kTensors; ++t) offsets[t] = 0;
    for (uint64_t d = rank; d-- > 0;) {
      // Position 0 (where most walks start) needs no division.
      coords[d] = position == 0 ? 0 : position % sizes[d];
      position = position == 0 ? 0 : position / sizes[d];
      for (size_t t = 0; t < kTensors; ++t) offsets[t] += coords[d] * strides[t][d];
    }
    const uint64_t inner = rank == 0 ? 0 : rank - 1;
    for (size_t t = 0; t < kTensors; ++t) innerSteps_[t] = rank == 0 ? 0 : strides[t][inner];
    innerLeft_ = rank == 0 ? UINT64_MAX : sizes[inner] - coords[inner];
  }

  // The innermost dim steps without reading the walk's arrays; only its wrap carries.
  void Next() {
    for (size_t t = 0; t < kTensors; ++t) offsets[t] += innerSteps_[t];
    if (--innerLeft_ == 0) Carry();
  }

 private:
  // Out of line: inlined, its loop over the outer dims unrolls into every caller's set-up.
  [[gnu::noinline]] void Carry() {
    const uint64_t inner = rank - 1;
    innerLeft_ = sizes[inner];
    coords[inner] = 0;
    for (size_t t = 0; t < kTensors; ++t) offsets[t] -= innerSteps_[t] * sizes[inner];
    for (uint64_t d = inner; d-- > 0;) {
      for (size_t t = 0; t < kTensors; ++t) offsets[t] += strides[t][d];
      if (++coords[d] < sizes[d]) return;
      for (size_t t = 0; t < kTensors; ++t) offsets[t] -= strides[t][d] * sizes[d];
      coords[d] = 0;
    }
  }

  uint64_t innerSteps_[kTensors] = {};
  uint64_t innerLeft_ = 0;
};

}  // namespace gs::plan
