// Checked mode, after the validation: one thread copies the first bad index's value next to
// its position, so the host can word the error without reading the indices itself.
#include "common.hlsli"

[numthreads(GS_THREADS_PER_GROUP, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
  uint p = status[0];
  // No bad index, or one a gather met that the validation did not find again (the indices
  // changed during the call): nothing to read.
  if (ThreadIndex(id) != 0 || p >= validation.rank_elementCount.z) return;
  uint offset = 0;
  for (uint d = validation.rank_elementCount.x; d-- > 0;) {
    uint size = LOW(validation.sizes, d);
    offset += (p % size) * LOW(validation.strides, d);
    p /= size;
  }
  uint2 value = LoadIndex(offset);
  status[1] = value.x;
  status[2] = P_INDEX64 != 0 ? value.y : 0u;
}
