// Normalisation: the smallest equivalent walk, so kernels loop over as few dims as possible.
#pragma once

#include <cstdint>

#include "plan/plan.h"

namespace gs::plan {

// One dim of the walked tensor with its strides in the three tensors it touches.
struct WalkDim {
  uint64_t size;
  uint64_t iterStride;
  uint64_t dataStride;
  uint64_t indexStride;
};

// One component of an index tuple: its bound and the indexed tensor's stride along it.
struct TupleComponent {
  uint64_t size;
  uint64_t stride;
};

// Drops size-1 dims, folds dims that are contiguous in every tensor, and turns a trailing
// dim that is contiguous in both walked and indexed tensors (and constant in the indices)
// into the block one unit moves.
KernelConstants NormalizeWalk(const WalkDim* dims, uint32_t rank, const TupleComponent* tuple,
                              uint32_t tupleSize, uint64_t tupleStride);

// The Input -> Output element copy of a scatter, normalised the same way.
CopyConstants NormalizeCopy(const TensorView& source, const TensorView& destination);

// The Indices view in row-major order (folded; flat positions are preserved).
IndexValidation NormalizeValidation(const TensorView& indices, const TupleComponent* tuple,
                                    uint32_t tupleSize);

}  // namespace gs::plan
