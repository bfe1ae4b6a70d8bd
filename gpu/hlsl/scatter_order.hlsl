// Scatters with a reduction, step 2: one thread per linked update element finds the next
// update of the same destination in row-major order (the smallest larger number on its
// list), so that the combine step folds in order with one walk. Every loop here and in the
// combine step is as long as one destination's list: lavapipe ends any invocation's loops
// after 65535 iterations in all, so its limit is about 30000 updates per destination.
#include "common.hlsli"

[numthreads(GS_THREADS_PER_GROUP, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
  uint t = ThreadIndex(id);
  if (t >= P_THREADS || BadIndexFound()) return;
  UnitOffsets o = SeekUnit(t / K_BLOCK);
  uint destination;
  if (!IndexedOffset(o, destination)) return;  // not on any list
  uint next = GS_NO_BAD_INDEX;
  for (uint u = listHeads[destination + t % K_BLOCK]; u != GS_NO_BAD_INDEX; u = listNext[u]) {
    if (u > t && u < next) next = u;
  }
  listOrder[t] = next;
  listSource[t] = o.iter + t % K_BLOCK;  // so that the fold needs no walk of its own per update
}
