// Overwrite scatters whose index drives one walked dim (ScatterElements' axis), after the copy
// when not in place: a thread per line, the updates that differ only along that dim. A line's
// updates reach only its own line of the Output (which does not overlap itself), so the thread
// that walks it in order writes each destination's last update last, with no claims. It loads
// LINE_STEPS indices and updates before it stores any. The plan picks this pass
// (plan/gpu_dispatch.cc, ScatterLines).
#include "scatter_line.hlsli"

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
  ScatterLine l = SeekLine(lineIndex);
  uint position;  // an update whose index is out of bounds is dropped (unchecked mode)
  for (uint j = 0; j < l.length; j += LINE_STEPS) {
    uint2 indices[LINE_STEPS];
    Element values[LINE_STEPS];
    [unroll] for (uint v = 0; v < LINE_STEPS; ++v) {
      indices[v] = uint2(0, 0);
      values[v] = (Element)0;
      if (j + v < l.length) {
        indices[v] = LoadIndex(l.first.index + (j + v) * l.indexStep);
        values[v] = LoadUpdate(l.first.iter + (j + v) * l.iterStep);
      }
    }
    [unroll] for (uint s = 0; s < LINE_STEPS; ++s) {
      if (j + s < l.length && ResolveIndex(indices[s], l.bound, position)) StoreOutput(l.first.data + position * l.stride, values[s]);
    }
  }
}
