// Scatters, step 2: one thread per linked update element finds the next update of the same
// destination in row-major order (the smallest larger number on its list), so that the
// combine step folds in order with one walk. Every loop here and in the combine step is as
// long as one destination's list, and lavapipe ends an invocation's loops after 65535
// iterations in all: a list longer than the plan's limit flags the run (its status word) before
// the copy and the combine, which then do nothing, and the host answers Unsupported.
#include "scatter_status.hlsli"

[numthreads(GS_THREADS_PER_GROUP, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint groupIndex : SV_GroupIndex) {
  uint t = ThreadIndex(id);
  if (GroupStops(groupIndex) || t >= P_THREADS) return;
  UnitOffsets o = SeekUnit(t / K_BLOCK);
  uint destination;
  if (!IndexedOffset(o, destination)) return;  // not on any list
  uint next = GS_NO_BAD_INDEX;
  uint length = 0;
  for (uint u = LoadHead(destination + t % K_BLOCK); u != GS_NO_BAD_INDEX; u = LoadNext(u)) {
    if (++length > P_LIST_LIMIT) {
      status[GS_STATUS_LIST_TOO_LONG] = 1;
      return;
    }
    if (u > t && u < next) next = u;
  }
  StoreOrder(t, next);
  StoreSource(t, o.iter + t % K_BLOCK);  // so that the fold needs no walk of its own per update
}
