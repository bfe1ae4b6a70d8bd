// A plain copy of whole 16-byte words, one a thread (R32G32B32A32_UINT views: a 16-byte load
// and store each, where the element kernels move 4 bytes or less a thread): the fastest copy
// the GPU does through these views, gs-bench's GPU copy baseline (perf/d3d12_timing.cc).
// ELEMENT_BYTES does not matter: every variant is the same copy.
#include "plan/hlsl_shared/gpu_constants.h"

Buffer<uint4> source : register(t0);
RWBuffer<uint4> destination : register(u0);
cbuffer Constants : register(b0) {
  uint4 words_row_reserved;  // x: 16-byte words, y: threads per row of groups (2-D dispatch)
};

[numthreads(GS_THREADS_PER_GROUP, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
  uint t = id.y * words_row_reserved.y + id.x;
  if (t < words_row_reserved.x) destination[t] = source[t];
}
