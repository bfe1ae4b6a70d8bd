// Overwrite scatters whose index drives one walked dim (ScatterElements' axis), after the copy
// when not in place: a thread per line, the updates that differ only along that dim. A line's
// updates reach only its own line of the Output (which does not overlap itself), so the thread
// that walks it in order writes each destination's last update last, with no claims. It loads
// LINE_STEPS indices and updates before it stores any. The plan picks this pass
// (plan/gpu_dispatch.cc, ScatterLines).
#include "scatter_status.hlsli"

// The windowed variant (tensors past one view) takes one a step: each access there is a switch
// over the windows, and 8 of them unrolled cost CI minutes of lavapipe's compiler.
#if GS_WINDOWED != 0
#define LINE_STEPS 1
#else
#define LINE_STEPS 8
#endif

[numthreads(GS_THREADS_PER_GROUP, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint groupIndex : SV_GroupIndex) {
  uint lineIndex = ThreadIndex(id);  // `line` is an HLSL keyword
  if (GroupStops(groupIndex) || lineIndex >= P_THREADS) return;
  // The line's dim has no Output stride; with none, every line is one update.
  uint axis = K_RANK;
  for (uint d = 0; d < K_RANK; ++d) {
    if (LOW(kernel.dataStrides, d) == 0) axis = d;
  }
  uint length = 1, inner = 1, iterStep = 0, indexStep = 0;
  if (axis < K_RANK) {
    length = LOW(kernel.sizes, axis);
    iterStep = LOW(kernel.iterStrides, axis);
    indexStep = LOW(kernel.indexStrides, axis);
    for (uint e = axis + 1; e < K_RANK; ++e) inner *= LOW(kernel.sizes, e);
  }
  UnitOffsets o = SeekUnit((lineIndex / inner) * length * inner + lineIndex % inner);
  uint bound = LOW(kernel.indexedSizes, 0);
  uint stride = LOW(kernel.indexedStrides, 0);
  uint position;  // an update whose index is out of bounds is dropped (unchecked mode)
  for (uint j = 0; j < length; j += LINE_STEPS) {
    uint2 indices[LINE_STEPS];
    Element values[LINE_STEPS];
    [unroll] for (uint v = 0; v < LINE_STEPS; ++v) {
      indices[v] = uint2(0, 0);
      values[v] = (Element)0;
      if (j + v < length) {
        indices[v] = LoadIndex(o.index + (j + v) * indexStep);
        values[v] = LoadUpdate(o.iter + (j + v) * iterStep);
      }
    }
    [unroll] for (uint s = 0; s < LINE_STEPS; ++s) {
      if (j + s < length && ResolveIndex(indices[s], bound, position)) StoreOutput(o.data + position * stride, values[s]);
    }
  }
}
