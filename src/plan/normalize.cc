#include "plan/normalize.h"

#include <algorithm>

namespace gs::plan {
namespace {

// Folds dims of a walk with N stride arrays in place; returns the new rank.
// Outer dim d and inner dim d+1 fold when every stride of d equals the inner stride times the
// inner size: then (i, j) and the single index i * size + j address the same element.
template <size_t N>
uint32_t FoldDims(uint64_t* sizes, uint64_t (*strides)[kMaxRank], uint32_t rank) {
  uint32_t kept = 0;
  for (uint32_t d = 0; d < rank; ++d) {
    if (sizes[d] == 1) continue;
    sizes[kept] = sizes[d];
    for (size_t s = 0; s < N; ++s) strides[s][kept] = strides[s][d];
    ++kept;
  }
  uint32_t folded = 0;
  for (uint32_t d = 0; d < kept; ++d) {
    if (folded > 0) {
      const uint32_t outer = folded - 1;
      bool contiguous = true;
      for (size_t s = 0; s < N; ++s) {
        contiguous = contiguous && strides[s][outer] == strides[s][d] * sizes[d];
      }
      if (contiguous) {
        sizes[outer] *= sizes[d];
        for (size_t s = 0; s < N; ++s) strides[s][outer] = strides[s][d];
        continue;
      }
    }
    sizes[folded] = sizes[d];
    for (size_t s = 0; s < N; ++s) strides[s][folded] = strides[s][d];
    ++folded;
  }
  return folded;
}

uint64_t Product(const uint64_t* sizes, uint64_t rank) {
  uint64_t product = 1;
  for (uint64_t d = 0; d < rank; ++d) product *= sizes[d];
  return product;
}

}  // namespace

KernelConstants NormalizeWalk(const WalkDim* dims, uint32_t rank, const TupleComponent* tuple,
                              uint32_t tupleSize, uint64_t tupleStride) {
  KernelConstants k = {};
  k.tupleSize = tupleSize;
  for (uint32_t c = 0; c < tupleSize; ++c) {
    k.indexedSizes[c] = tuple[c].size;
    k.indexedStrides[c] = tuple[c].stride;
  }
  // An empty walk has no units (rank 0 with unitCount 0, unlike a single unit of rank 0).
  for (uint32_t d = 0; d < rank; ++d) {
    if (dims[d].size == 0) {
      k.blockElements = 1;
      return k;
    }
  }
  uint64_t strides[3][kMaxRank] = {};
  for (uint32_t d = 0; d < rank; ++d) {
    k.sizes[d] = dims[d].size;
    strides[0][d] = dims[d].iterStride;
    strides[1][d] = dims[d].dataStride;
    strides[2][d] = dims[d].indexStride;
  }
  k.rank = FoldDims<3>(k.sizes, strides, rank);
  k.blockElements = 1;
  if (k.rank > 0) {
    const uint64_t last = k.rank - 1;
    if (strides[0][last] == 1 && strides[1][last] == 1 && strides[2][last] == 0) {
      k.blockElements = k.sizes[last];
      k.sizes[last] = 0;
      k.rank = last;
    }
  }
  std::copy(strides[0], strides[0] + k.rank, k.iterStrides);
  std::copy(strides[1], strides[1] + k.rank, k.dataStrides);
  std::copy(strides[2], strides[2] + k.rank, k.indexStrides);
  k.unitCount = Product(k.sizes, k.rank);
  k.tupleStride = tupleSize > 1 ? tupleStride : 0;
  return k;
}

CopyConstants NormalizeCopy(const TensorView& source, const TensorView& destination) {
  CopyConstants c = {};
  if (source.elementCount == 0) return c;  // nothing to copy: unitCount 0
  uint64_t strides[2][kMaxRank] = {};
  for (uint32_t d = 0; d < source.dimensionCount; ++d) {
    c.sizes[d] = source.sizes[d];
    strides[0][d] = source.strides[d];
    strides[1][d] = destination.strides[d];
  }
  c.rank = FoldDims<2>(c.sizes, strides, source.dimensionCount);
  c.blockElements = 1;
  if (c.rank > 0 && strides[0][c.rank - 1] == 1 && strides[1][c.rank - 1] == 1) {
    c.blockElements = c.sizes[c.rank - 1];
    c.sizes[c.rank - 1] = 0;
    --c.rank;
  }
  std::copy(strides[0], strides[0] + c.rank, c.srcStrides);
  std::copy(strides[1], strides[1] + c.rank, c.dstStrides);
  c.unitCount = Product(c.sizes, c.rank);
  return c;
}

IndexValidation NormalizeValidation(const TensorView& indices, const TupleComponent* tuple,
                                    uint32_t tupleSize) {
  IndexValidation v = {};
  v.tupleSize = 1;
  if (indices.elementCount == 0) return v;  // nothing to validate (also every q = 0 tuple)
  uint64_t strides[1][kMaxRank] = {};
  for (uint32_t d = 0; d < indices.dimensionCount; ++d) {
    v.sizes[d] = indices.sizes[d];
    strides[0][d] = indices.strides[d];
  }
  v.rank = FoldDims<1>(v.sizes, strides, indices.dimensionCount);
  std::copy(strides[0], strides[0] + v.rank, v.strides);
  v.elementCount = indices.elementCount;
  v.tupleSize = tupleSize;
  for (uint32_t c = 0; c < tupleSize; ++c) v.bounds[c] = tuple[c].size;
  return v;
}

}  // namespace gs::plan
