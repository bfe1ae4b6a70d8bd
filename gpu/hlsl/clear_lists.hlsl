// Scatters: every output element starts with an empty list of updates; an overwrite's claim
// words all start as unit 0's claim (claims.hlsli: the same all ones).
#include "common.hlsli"

[numthreads(GS_THREADS_PER_GROUP, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
  uint t = ThreadIndex(id);
  if (t >= P_THREADS) return;
  StoreHead(t, GS_NO_BAD_INDEX);
}
