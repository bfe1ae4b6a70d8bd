// Bindings, constants and the walk shared by every kernel. Compiled per element size
// (ELEMENT_BYTES = 1, 2, 4 or 8) to DXBC by gpu/tools/build-dxbc: the typed views move the
// element's bits unchanged, in the format the host's view gives (gpu/d3d12/descriptors.cc).

#ifndef GS_COMMON_HLSLI
#define GS_COMMON_HLSLI

// Shared with the C++ plan compiler (src/plan/hlsl_shared; the build gets src/ as include path).
#include "plan/hlsl_shared/plan_constants.h"
#include "plan/hlsl_shared/gpu_constants.h"

#ifndef ELEMENT_BYTES
#define ELEMENT_BYTES 4
#endif

#if ELEMENT_BYTES == 16
#define Element uint4  // R32G32B32A32_UINT views: gathers of whole 16-byte words (gather_wide.hlsl)
#elif ELEMENT_BYTES == 8
#define Element uint2  // R32G32_UINT views
#else
#define Element uint  // R8_UINT, R16_UINT or R32_UINT views
#endif

// Output's view word: the element, or (gather_packed.hlsl) a wider word of packed elements.
#ifndef OUTPUT_BYTES
#define OUTPUT_BYTES ELEMENT_BYTES
#endif
#if OUTPUT_BYTES == 16
#define OutputWord uint4
#elif OUTPUT_BYTES == 8
#define OutputWord uint2
#else
#define OutputWord uint
#endif

// Root signature (gpu/d3d12/pipelines.cc): b0 root CBV, one table of t0..t23 then u0..u24.
cbuffer Constants : register(b0) {
  KernelConstants kernel;
  CopyConstants copy;
  IndexValidation validation;
  PassConstants step;  // not `pass`: an HLSL keyword (effects)
};

// A typed view holds at most 2^27 elements (D3D12), so every tensor is bound as
// GS_TENSOR_WINDOWS views of the same buffer and every scatter list as GS_LIST_WINDOWS, window w
// starting at element w * P_VIEW_ELEMENTS (the host points windows past the end at window 0).
// Element e lives in window e / P_VIEW_ELEMENTS; a switch picks the register because dynamic
// indexing of descriptor arrays is not assured on vkd3d 1.2. Offsets stay 32-bit: the plan
// binds at most 8 x 2^27 = 2^30 elements per tensor. Lists get fewer windows because vkd3d
// declares two Vulkan bindings per UAV and lavapipe allows 64 storage ones per stage.
// The registers and the window switches below are written out for 8 tensor windows and 4 list
// windows (t0..t23 and u0..u24, the root signature's kSrvCount and kUavCount).
#if GS_TENSOR_WINDOWS != 8 || GS_LIST_WINDOWS != 4
#error "gpu_constants.h changed the view windows: write out the registers and switches here to match"
#endif
#define GS_SRV_WINDOWS(Type, name, r0, r1, r2, r3, r4, r5, r6, r7) \
  Buffer<Type> name##0 : register(r0); Buffer<Type> name##1 : register(r1);     \
  Buffer<Type> name##2 : register(r2); Buffer<Type> name##3 : register(r3);     \
  Buffer<Type> name##4 : register(r4); Buffer<Type> name##5 : register(r5);     \
  Buffer<Type> name##6 : register(r6); Buffer<Type> name##7 : register(r7);
#define GS_UAV_WINDOWS4(Type, name, r0, r1, r2, r3)                              \
  RWBuffer<Type> name##0 : register(r0); RWBuffer<Type> name##1 : register(r1); \
  RWBuffer<Type> name##2 : register(r2); RWBuffer<Type> name##3 : register(r3);
#define GS_UAV_WINDOWS(Type, name, r0, r1, r2, r3, r4, r5, r6, r7)              \
  RWBuffer<Type> name##0 : register(r0); RWBuffer<Type> name##1 : register(r1); \
  RWBuffer<Type> name##2 : register(r2); RWBuffer<Type> name##3 : register(r3); \
  RWBuffer<Type> name##4 : register(r4); RWBuffer<Type> name##5 : register(r5); \
  RWBuffer<Type> name##6 : register(r6); RWBuffer<Type> name##7 : register(r7);

GS_SRV_WINDOWS(Element, inputTensor, t0, t1, t2, t3, t4, t5, t6, t7)
GS_SRV_WINDOWS(uint, indicesTensor, t8, t9, t10, t11, t12, t13, t14, t15)  // R32 words; 64-bit indices take two
#ifdef GS_INDEX_QUADS
// The *Quads gathers read Indices 16 bytes a load: the host binds it there as R32G32B32A32_UINT
// (plan::GpuSchedule::indexQuads; a gather has no Updates). Never windowed.
Buffer<uint4> indexQuads : register(t16);
#else
GS_SRV_WINDOWS(Element, updatesTensor, t16, t17, t18, t19, t20, t21, t22, t23)
#endif
// Output is written through typed UAVs and a scatter's reduction reads it back: typed UAV loads
// are core for R32_UINT only, so 8-byte elements are viewed as two R32_UINT words each (the host
// halves their windows to fit, gpu/d3d12/record.cc); 1- and 2-byte ones need
// TypedUAVLoadAdditionalFormats (gpu/d3d12/features.h).
#if OUTPUT_BYTES == 8
GS_UAV_WINDOWS(uint, outputTensor, u0, u1, u2, u3, u4, u5, u6, u7)
#else
GS_UAV_WINDOWS(OutputWord, outputTensor, u0, u1, u2, u3, u4, u5, u6, u7)
#endif
RWBuffer<uint> status : register(u8);  // first bad position, its value, list too long
GS_UAV_WINDOWS4(uint, listHeads, u9, u10, u11, u12)    // scatters: per output element
GS_UAV_WINDOWS4(uint, listNext, u13, u14, u15, u16)    // scatters: per update element
GS_UAV_WINDOWS4(uint, listOrder, u17, u18, u19, u20)   // scatters: next update in row-major order
GS_UAV_WINDOWS4(uint, listSource, u21, u22, u23, u24)  // scatters: the update's element offset

#define P_VIEW_ELEMENTS step.listLimit_viewElements_stepsInnermost_reportsBadIndex.y

// Every kernel is built twice: GS_WINDOWED 0 when every tensor and list fits its first view
// (measured on lavapipe: a scatter over 2^27 elements took about 3 times as long with the switch).
#ifndef GS_WINDOWED
#define GS_WINDOWED 1
#endif
#ifndef THREAD_ITEMS
#define THREAD_ITEMS 1
#endif
#if GS_WINDOWED != 0
#undef THREAD_ITEMS
#define THREAD_ITEMS 1
#endif
#if GS_WINDOWED == 0
#define GS_IN_WINDOW(e, ACCESS) uint at = (e); ACCESS(0)
#define GS_IN_WINDOW4(e, ACCESS) uint at = (e); ACCESS(0)
#else

// ACCESS(n) once per window, for element e's window, with `at` its element in that window.
#define GS_IN_WINDOW(e, ACCESS)                                            \
  uint window = (e) / P_VIEW_ELEMENTS;                                     \
  uint at = (e) - window * P_VIEW_ELEMENTS;                                \
  switch (window) {                                                        \
    case 0: ACCESS(0) break; case 1: ACCESS(1) break; case 2: ACCESS(2) break; \
    case 3: ACCESS(3) break; case 4: ACCESS(4) break; case 5: ACCESS(5) break; \
    case 6: ACCESS(6) break; default: ACCESS(7) break;                     \
  }
#define GS_IN_WINDOW4(e, ACCESS)                                           \
  uint window = (e) / P_VIEW_ELEMENTS;                                     \
  uint at = (e) - window * P_VIEW_ELEMENTS;                                \
  switch (window) {                                                        \
    case 0: ACCESS(0) break; case 1: ACCESS(1) break; case 2: ACCESS(2) break; \
    default: ACCESS(3) break;                                              \
  }
#endif
#define GS_WINDOWED_LOAD(Type, name, Function, IN_WINDOW) \
  Type Function(uint e) {                                 \
    Type value = (Type)0;                                 \
    IN_WINDOW(e, name##_LOAD)                             \
    return value;                                         \
  }
#define GS_WINDOWED_STORE(Type, name, Function, IN_WINDOW) \
  void Function(uint e, Type value) { IN_WINDOW(e, name##_STORE) }

#define inputTensor_LOAD(w) value = inputTensor##w[at];
#define indicesTensor_LOAD(w) value = indicesTensor##w[at];
#define updatesTensor_LOAD(w) value = updatesTensor##w[at];
#if OUTPUT_BYTES == 8
#define outputTensor_LOAD(w) value = uint2(outputTensor##w[2 * at], outputTensor##w[2 * at + 1]);
#define outputTensor_STORE(w) outputTensor##w[2 * at] = value.x; outputTensor##w[2 * at + 1] = value.y;
#else
#define outputTensor_LOAD(w) value = outputTensor##w[at];
#define outputTensor_STORE(w) outputTensor##w[at] = value;
#endif
#define listHeads_LOAD(w) value = listHeads##w[at];
#define listHeads_STORE(w) listHeads##w[at] = value;
#define listNext_LOAD(w) value = listNext##w[at];
#define listNext_STORE(w) listNext##w[at] = value;
#define listOrder_LOAD(w) value = listOrder##w[at];
#define listOrder_STORE(w) listOrder##w[at] = value;
#define listSource_LOAD(w) value = listSource##w[at];
#define listSource_STORE(w) listSource##w[at] = value;
#define listHeads_EXCHANGE(w) InterlockedExchange(listHeads##w[at], value, previous);

GS_WINDOWED_LOAD(Element, inputTensor, LoadInput, GS_IN_WINDOW)
GS_WINDOWED_LOAD(uint, indicesTensor, LoadIndexWord, GS_IN_WINDOW)
#ifndef GS_INDEX_QUADS
GS_WINDOWED_LOAD(Element, updatesTensor, LoadUpdate, GS_IN_WINDOW)
#endif
GS_WINDOWED_LOAD(OutputWord, outputTensor, LoadOutput, GS_IN_WINDOW)
GS_WINDOWED_STORE(OutputWord, outputTensor, StoreOutput, GS_IN_WINDOW)
GS_WINDOWED_LOAD(uint, listHeads, LoadHead, GS_IN_WINDOW4)
GS_WINDOWED_STORE(uint, listHeads, StoreHead, GS_IN_WINDOW4)
GS_WINDOWED_LOAD(uint, listNext, LoadNext, GS_IN_WINDOW4)
GS_WINDOWED_STORE(uint, listNext, StoreNext, GS_IN_WINDOW4)
GS_WINDOWED_LOAD(uint, listOrder, LoadOrder, GS_IN_WINDOW4)
GS_WINDOWED_STORE(uint, listOrder, StoreOrder, GS_IN_WINDOW4)
GS_WINDOWED_LOAD(uint, listSource, LoadSource, GS_IN_WINDOW4)
GS_WINDOWED_STORE(uint, listSource, StoreSource, GS_IN_WINDOW4)

// Pushes value on element e's list: returns the head it replaces.
uint ExchangeHead(uint e, uint value) {
  uint previous = 0;
  GS_IN_WINDOW4(e, listHeads_EXCHANGE)
  return previous;
}

// Readable names for the packed fields. Offsets are computed in 32-bit wrapping arithmetic:
// the host only runs views below 2^32 elements, where the wrapped result is the exact one.
#define LOW(array, d) (((d) & 1) ? array[(d) >> 1].z : array[(d) >> 1].x)
#define K_RANK kernel.rank_unitCount.x
#define K_UNITS kernel.rank_unitCount.z
#define K_BLOCK kernel.blockElements_tupleSize.x
#define K_TUPLE kernel.blockElements_tupleSize.z
#define K_TUPLE_STRIDE kernel.tupleStride_reserved.x
#define P_THREADS step.threadCount_rowWidth_checked_reduction.x
#define P_ROW step.threadCount_rowWidth_checked_reduction.y
#define P_CHECKED step.threadCount_rowWidth_checked_reduction.z
#define P_REDUCTION step.threadCount_rowWidth_checked_reduction.w
#define P_INDEX64 step.index64_indexSigned_dataKind_elementBytes.x
#define P_SIGNED step.index64_indexSigned_dataKind_elementBytes.y
#define P_KIND step.index64_indexSigned_dataKind_elementBytes.z
#define P_LIST_LIMIT step.listLimit_viewElements_stepsInnermost_reportsBadIndex.x
#define P_STEPS_INNERMOST step.listLimit_viewElements_stepsInnermost_reportsBadIndex.z
#define P_REPORTS_BAD_INDEX step.listLimit_viewElements_stepsInnermost_reportsBadIndex.w
#define P_CLAIM_SHIFT step.claimShift_spare0_spare1_spare2.x

uint ThreadIndex(uint3 id) { return id.y * P_ROW + id.x; }

// Threads a group ([numthreads]): the *_large kernels set GS_LARGE_GROUP_THREADS.
#ifndef GS_GROUP_THREADS
#define GS_GROUP_THREADS GS_THREADS_PER_GROUP
#endif

// The passes that move data take THREAD_ITEMS items a thread (the host's GpuItemsPerThread),
// P_THREADS items in all: lane l of a group takes its group's items l, l + GS_GROUP_THREADS,
// ..., so each step of a wave touches consecutive items. The kernels load every item before they
// store one.
uint FirstItem(uint3 id, uint lane) { return (ThreadIndex(id) - lane) * THREAD_ITEMS + lane; }
#define ITEM(first, v) ((first) + (v) * GS_GROUP_THREADS)

// A pass after the validation does nothing when a bad index was found or met (checked mode) or
// a scatter's list was too long for the fold (the host then answers Unsupported).
bool BadIndexFound() {
  return (P_CHECKED != GS_UNCHECKED && status[GS_STATUS_FIRST_BAD] != GS_NO_BAD_INDEX) ||
         status[GS_STATUS_LIST_TOO_LONG] != 0;
}

// A 32-bit index value as low and high words, the high word sign-extended for signed indices.
uint2 Index32(uint low) {
  return uint2(low, (P_SIGNED != 0 && (low >> 31) != 0) ? 0xffffffffu : 0u);
}

// An index element (by element offset in the Indices view) as low and high words.
uint2 LoadIndex(uint elementOffset) {
  if (P_INDEX64 != 0) {
    return uint2(LoadIndexWord(elementOffset * 2), LoadIndexWord(elementOffset * 2 + 1));
  }
  return Index32(LoadIndexWord(elementOffset));
}

// Position in [0, bound) or false: negative signed values count from the end (a value in
// [-bound, 0) has high word all ones and low word at least 2^32 - bound).
bool ResolveIndex(uint2 value, uint bound, out uint position) {
  if (P_SIGNED != 0 && value.y == 0xffffffffu) {
    position = value.x + bound;
    return bound != 0 && value.x >= 0u - bound;  // -bound .. -1; none when the dim is empty
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

// Every caller passes a unit below K_UNITS, so what the inner dims leave is the outermost
// coordinate: a division per walked dim but the outermost (a GPU divides in many instructions).
UnitOffsets SeekUnit(uint unit) {
  UnitOffsets o;
  o.iter = 0;
  o.data = 0;
  o.index = 0;
  for (uint d = K_RANK; d-- > 1;) {
    uint size = LOW(kernel.sizes, d);
    uint coord = unit % size;
    unit /= size;
    o.iter += coord * LOW(kernel.iterStrides, d);
    o.data += coord * LOW(kernel.dataStrides, d);
    o.index += coord * LOW(kernel.indexStrides, d);
  }
  if (K_RANK > 0) {
    o.iter += unit * kernel.iterStrides[0].x;
    o.data += unit * kernel.dataStrides[0].x;
    o.index += unit * kernel.indexStrides[0].x;
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

// IndexedOffset for kernels that know the tuple has one component (every gather but GatherND's
// tuples): its bound and stride from fixed registers, no loop; the index value already loaded.
bool IndexedOffsetOfValue(UnitOffsets o, uint2 value, out uint offset) {
  uint position;
  offset = o.data;
  if (!ResolveIndex(value, kernel.indexedSizes[0].x, position)) return false;
  offset += position * kernel.indexedStrides[0].x;
  return true;
}

bool IndexedOffsetOfOne(UnitOffsets o, out uint offset) {
  return IndexedOffsetOfValue(o, LoadIndex(o.index), offset);
}

#endif  // GS_COMMON_HLSLI
