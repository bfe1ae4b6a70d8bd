// The constants a kernel reads, defined once for the C++ plan compiler and the HLSL kernels
// (gpu/hlsl/common.hlsli includes this file; keep it valid HLSL).
//
// Every field is a 64-bit value. In an HLSL cbuffer every array element starts on a 16-byte
// register, so a 64-bit array cannot be declared element by element there: both sides lay the
// fields out as pairs of 64-bit values, which C++ sees as uint64_t fields and HLSL as one uint4
// (low word first, as both machines are little-endian). A C++ uint64_t[8] is then
// byte for byte an HLSL uint4[4]. plan.h checks the offsets with static_assert.
// Include guards, not #pragma once: glslang does not know it.
#ifndef GS_PLAN_CONSTANTS_H
#define GS_PLAN_CONSTANTS_H

#ifdef __cplusplus
#include <cstddef>
#include <cstdint>
#define GS_PAIR(first, second) uint64_t first; uint64_t second;
#define GS_ARRAY8(name) uint64_t name[8];
namespace gs::plan {
#else
#define GS_PAIR(first, second) uint4 first##_##second;
#define GS_ARRAY8(name) uint4 name[4];
#endif

// Which tensor a plan walks and which one it indexes:
//   gathers:  walk Output ("iter"), read Input ("data") at the indexed position
//   scatters: walk Updates ("iter"), write Output ("data") at the indexed position
struct KernelConstants {
  GS_PAIR(rank,            // walked dims left after normalisation (0..8)
          unitCount)       // product of sizes[0..rank): one unit moves one block
  GS_PAIR(blockElements,   // contiguous elements a unit moves (iter and data both stride 1)
          tupleSize)       // index components per unit: q for the ND operators, else 1
  GS_PAIR(tupleStride,     // Indices stride between the components of one tuple
          reserved)        // keeps the arrays on a 16-byte register
  GS_ARRAY8(sizes)
  GS_ARRAY8(iterStrides)     // walked tensor
  GS_ARRAY8(dataStrides)     // indexed tensor; 0 on dims that the indices drive
  GS_ARRAY8(indexStrides)    // Indices; 0 on dims the index does not vary along
  GS_ARRAY8(indexedSizes)    // bound of each tuple component
  GS_ARRAY8(indexedStrides)  // indexed-tensor stride each component moves along
};

// A strided element copy (the Input -> Output step of a scatter that is not in place).
struct CopyConstants {
  GS_PAIR(rank, unitCount)
  GS_PAIR(blockElements, reserved)
  GS_ARRAY8(sizes)
  GS_ARRAY8(srcStrides)
  GS_ARRAY8(dstStrides)
};

// Checked mode: every Indices element is validated in row-major order before anything is
// written. Element at flat position p is component (p % tupleSize) of its tuple.
struct IndexValidation {
  GS_PAIR(rank, elementCount)
  GS_PAIR(tupleSize, reserved)
  GS_ARRAY8(sizes)
  GS_ARRAY8(strides)
  GS_ARRAY8(bounds)  // per tuple component
};

#ifdef __cplusplus
// The HLSL side: 16-byte registers, the pairs first, then each array in 4 registers.
static_assert(sizeof(KernelConstants) == 27 * 16 && offsetof(KernelConstants, sizes) == 3 * 16 &&
              offsetof(KernelConstants, indexedStrides) == 23 * 16, "KernelConstants layout");
static_assert(sizeof(CopyConstants) == 14 * 16 && offsetof(CopyConstants, sizes) == 2 * 16,
              "CopyConstants layout");
static_assert(sizeof(IndexValidation) == 14 * 16 && offsetof(IndexValidation, sizes) == 2 * 16,
              "IndexValidation layout");
}  // namespace gs::plan
#endif
#undef GS_PAIR
#undef GS_ARRAY8
#endif  // GS_PLAN_CONSTANTS_H
