// Bindings, constants and the walk shared by every kernel. Compiled per element size
// (ELEMENT_BYTES = 1, 2, 4 or 8): the typed views move the element's bits unchanged.
//
// glslc (Linux, SPIR-V through vkd3d) needs the storage format of a written typed buffer;
// dxc (Windows) takes it from the view. GS_FORMAT hides the attribute from dxc.
#ifdef TARGET_SPIRV
#define GS_FORMAT(format) [[spv::format_##format]]
#else
#define GS_FORMAT(format)
#endif

#include "plan_constants.h"
#include "gpu_constants.h"

#ifndef ELEMENT_BYTES
#define ELEMENT_BYTES 4
#endif

#if ELEMENT_BYTES == 8
#define Element uint2
#define GS_ELEMENT_FORMAT GS_FORMAT(rg32ui)
#elif ELEMENT_BYTES == 2
#define Element uint
#define GS_ELEMENT_FORMAT GS_FORMAT(r16ui)
#elif ELEMENT_BYTES == 1
#define Element uint
#define GS_ELEMENT_FORMAT GS_FORMAT(r8ui)
#else
#define Element uint
#define GS_ELEMENT_FORMAT GS_FORMAT(r32ui)
#endif

// Root signature (gpu/d3d12/pipelines.cc): b0 root CBV, one table of t0..t2 then u0..u5.
cbuffer Constants : register(b0) {
  KernelConstants kernel;
  CopyConstants copy;
  IndexValidation validation;
  PassConstants pass;
};

Buffer<Element> inputTensor : register(t0);
Buffer<uint> indicesTensor : register(t1);  // R32 words; 64-bit indices take two
Buffer<Element> updatesTensor : register(t2);
GS_ELEMENT_FORMAT RWBuffer<Element> outputTensor : register(u0);
GS_FORMAT(r32ui) RWBuffer<uint> status : register(u1);     // first bad position, its value, list too long
GS_FORMAT(r32ui) RWBuffer<uint> listHeads : register(u2);  // scatters: per output element
GS_FORMAT(r32ui) RWBuffer<uint> listNext : register(u3);   // scatters: per update element
GS_FORMAT(r32ui) RWBuffer<uint> listOrder : register(u4);  // scatters: next update in row-major order
GS_FORMAT(r32ui) RWBuffer<uint> listSource : register(u5); // scatters: the update's element offset

#define GS_THREADS_PER_GROUP 64

// Readable names for the packed fields. Offsets are computed in 32-bit wrapping arithmetic:
// the host only runs views below 2^32 elements, where the wrapped result is the exact one.
#define LOW(array, d) (((d) & 1) ? array[(d) >> 1].z : array[(d) >> 1].x)
#define K_RANK kernel.rank_unitCount.x
#define K_UNITS kernel.rank_unitCount.z
#define K_BLOCK kernel.blockElements_tupleSize.x
#define K_TUPLE kernel.blockElements_tupleSize.z
#define K_TUPLE_STRIDE kernel.tupleStride_reserved.x
#define P_THREADS pass.threadCount_rowWidth_checked_reduction.x
#define P_ROW pass.threadCount_rowWidth_checked_reduction.y
#define P_CHECKED pass.threadCount_rowWidth_checked_reduction.z
#define P_REDUCTION pass.threadCount_rowWidth_checked_reduction.w
#define P_INDEX64 pass.index64_indexSigned_dataKind_elementBytes.x
#define P_SIGNED pass.index64_indexSigned_dataKind_elementBytes.y
#define P_KIND pass.index64_indexSigned_dataKind_elementBytes.z
#define P_LIST_LIMIT pass.listLimit_reserved0_reserved1_reserved2.x

uint ThreadIndex(uint3 id) { return id.y * P_ROW + id.x; }

// A pass after the validation does nothing when a bad index was found (checked mode) or a
// scatter's list was too long for the fold (the host then answers Unsupported).
bool BadIndexFound() { return (P_CHECKED != 0 && status[0] != GS_NO_BAD_INDEX) || status[3] != 0; }

// An index element (by element offset in the Indices view) as low and high words, the high
// word sign-extended for signed 32-bit indices.
uint2 LoadIndex(uint elementOffset) {
  if (P_INDEX64 != 0) {
    return uint2(indicesTensor[elementOffset * 2], indicesTensor[elementOffset * 2 + 1]);
  }
  uint low = indicesTensor[elementOffset];
  return uint2(low, (P_SIGNED != 0 && (low >> 31) != 0) ? 0xffffffffu : 0u);
}

// Position in [0, bound) or false: negative signed values count from the end (a value in
// [-bound, 0) has high word all ones and low word at least 2^32 - bound).
bool ResolveIndex(uint2 value, uint bound, out uint position) {
  if (P_SIGNED != 0 && value.y == 0xffffffffu) {
    position = value.x + bound;
    return value.x >= 0u - bound;
  }
  position = value.x;
  return value.y == 0 && value.x < bound;
}

// The unit's offsets in the walked, indexed and Indices tensors (row-major over the plan).
struct UnitOffsets {
  uint iter;
  uint data;
  uint index;
};

UnitOffsets SeekUnit(uint unit) {
  UnitOffsets o;
  o.iter = 0;
  o.data = 0;
  o.index = 0;
  for (uint d = K_RANK; d-- > 0;) {
    uint size = LOW(kernel.sizes, d);
    uint coord = unit % size;
    unit /= size;
    o.iter += coord * LOW(kernel.iterStrides, d);
    o.data += coord * LOW(kernel.dataStrides, d);
    o.index += coord * LOW(kernel.indexStrides, d);
  }
  return o;
}

// The indexed tensor's element offset of the unit's block, or false when a component of its
// tuple is out of bounds.
bool IndexedOffset(UnitOffsets o, out uint offset) {
  offset = o.data;
  for (uint c = 0; c < K_TUPLE; ++c) {
    uint position;
    if (!ResolveIndex(LoadIndex(o.index + c * K_TUPLE_STRIDE), LOW(kernel.indexedSizes, c),
                      position)) {
      return false;
    }
    offset += position * LOW(kernel.indexedStrides, c);
  }
  return true;
}
