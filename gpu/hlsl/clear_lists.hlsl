// Scatters: every output element starts with an empty list of updates.
#include "common.hlsli"

[numthreads(GS_THREADS_PER_GROUP, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
  uint t = ThreadIndex(id);
  if (t >= P_THREADS) return;
  StoreHead(t, GS_NO_BAD_INDEX);
}
