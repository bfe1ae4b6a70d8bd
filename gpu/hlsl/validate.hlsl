// Checked mode: one thread per Indices element in row-major order; the smallest bad flat
// position wins (InterlockedMin), so the first bad element is reported, as on the CPU. After
// a checked gather (GS_CHECKED_IF_MET) it runs only when the gather met a bad index.
#include "common.hlsli"

[numthreads(GS_THREADS_PER_GROUP, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
  uint p = ThreadIndex(id);
  if (p >= P_THREADS || (P_CHECKED == GS_CHECKED_IF_MET && status[0] == GS_NO_BAD_INDEX)) return;
  uint offset = 0;
  uint rest = p;
  for (uint d = validation.rank_elementCount.x; d-- > 0;) {
    uint size = LOW(validation.sizes, d);
    offset += (rest % size) * LOW(validation.strides, d);
    rest /= size;
  }
  uint component = p % validation.tupleSize_reserved.x;
  uint position;
  if (!ResolveIndex(LoadIndex(offset), LOW(validation.bounds, component), position)) {
    uint previous;
    InterlockedMin(status[0], p, previous);
  }
}
