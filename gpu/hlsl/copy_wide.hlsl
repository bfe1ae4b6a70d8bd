// A plain copy of whole 16-byte words (R32G32B32A32_UINT views: a 16-byte load and store each),
// 1 to GS_ITEMS_PER_THREAD words a thread as the host asks, every load before any store:
// gs-bench's GPU copy baselines (perf/d3d12_timing.cc), the fastest copies the GPU does through
// these views. With a source shorter than the destination, destination word t is source word
// t mod that length: a gather's rows read from a table small enough to stay in the GPU's cache.
// ELEMENT_BYTES does not matter: every variant is the same copy.
#include "plan/hlsl_shared/gpu_constants.h"

Buffer<uint4> source : register(t0);
RWBuffer<uint4> destination : register(u0);
cbuffer Constants : register(b0) {
  // x: 16-byte words, y: threads per row of groups (2-D dispatch), z: words a thread, w: the
  // source's words (x, or fewer but at least GS_THREADS_PER_GROUP)
  uint4 words_row_items_source;
};

[numthreads(GS_THREADS_PER_GROUP, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint lane : SV_GroupIndex) {
  uint words = words_row_items_source.x;
  uint items = words_row_items_source.z;
  uint sourceWords = words_row_items_source.w;
  // Lane l of a group takes its group's words l, l + GS_THREADS_PER_GROUP, ... (coalesced steps).
  uint first = (id.y * words_row_items_source.y + id.x - lane) * items + lane;
  // A division only for a shorter source, once a thread: each later step wraps with one
  // subtraction (sourceWords is at least a step).
  uint from = sourceWords < words ? first % sourceWords : first;
  uint4 values[GS_ITEMS_PER_THREAD];
  [unroll] for (uint v = 0; v < GS_ITEMS_PER_THREAD; ++v) {
    uint t = first + v * GS_THREADS_PER_GROUP;
    values[v] = uint4(0, 0, 0, 0);
    if (v < items && t < words) values[v] = source[from];
    from += GS_THREADS_PER_GROUP;
    if (from >= sourceWords) from -= sourceWords;
  }
  [unroll] for (uint s = 0; s < GS_ITEMS_PER_THREAD; ++s) {
    uint t = first + s * GS_THREADS_PER_GROUP;
    if (s < items && t < words) destination[t] = values[s];
  }
}
