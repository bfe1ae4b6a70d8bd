// Scatters, step 1: one thread per update element pushes its row-major number onto its
// destination's list. Only the list order races; the combine step orders each list.
#include "scatter_status.hlsli"

[numthreads(GS_THREADS_PER_GROUP, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint groupIndex : SV_GroupIndex) {
  uint t = ThreadIndex(id);
  if (GroupStops(groupIndex) || t >= P_THREADS) return;
  UnitOffsets o = SeekUnit(t / K_BLOCK);
  uint destination;
  if (!IndexedOffset(o, destination)) return;  // unchecked mode: the update is dropped
  StoreNext(t, ExchangeHead(destination + t % K_BLOCK, t));
}
