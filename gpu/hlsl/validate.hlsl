// Checked mode: the Indices elements in row-major order, thread t taking positions t,
// t + threads, ... (a scatter runs a thread per element; a gather's validation a few, each a
// strided share, so that a clean call costs it little); the smallest bad flat position wins
// (InterlockedMin), so the first bad element is reported, as on the CPU. After a checked gather
// (GS_CHECKED_IF_MET) it runs only when the gather met a bad index.
#include "common.hlsli"

[numthreads(GS_THREADS_PER_GROUP, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
  uint t = ThreadIndex(id);
  if (t >= P_THREADS || (P_CHECKED == GS_CHECKED_IF_MET && status[0] == GS_NO_BAD_INDEX)) return;
  // Positions stay below 2^31 (the Indices views hold at most 2^30 words): p + P_THREADS does not wrap.
  for (uint p = t; p < validation.rank_elementCount.z; p += P_THREADS) {
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
      return;  // this thread's later positions are all larger
    }
  }
}
