// Overwrite scatters, last step (after the copy when not in place): THREAD_ITEMS update
// elements (or words) a thread, every item loaded before any is stored; only the elements of
// the unit that holds its destination's claim are written, so each output element is written
// once, by its last update in row-major order, with no walk.
#include "claims.hlsli"

// Whether update item t wins its destination: then its value and where it goes. The update
// (always in its view) is loaded before the claim is known, so that its load does not wait for
// the index and claim loads in turn; a losing update's load is wasted, a winner's is not.
bool WinningItem(uint t, out uint destination, out Element value) {
  uint unit = t / K_BLOCK;
  uint element = t - unit * K_BLOCK;
  UnitOffsets o = SeekUnit(unit);
  value = LoadUpdate(o.iter + element);
  if (!IndexedOffset(o, destination) || LoadHead(ClaimWord(destination)) != ClaimOf(unit)) return false;
  destination += element;
  return true;
}

[numthreads(GS_THREADS_PER_GROUP, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint lane : SV_GroupIndex) {
  uint first = FirstItem(id, lane);
  if (GroupStops(lane)) return;
  Element values[THREAD_ITEMS];
  uint destinations[THREAD_ITEMS];
  bool wins[THREAD_ITEMS];
  [unroll] for (uint v = 0; v < THREAD_ITEMS; ++v) {
    wins[v] = false;  // HLSL's && evaluates both sides
    if (ITEM(first, v) < P_THREADS) wins[v] = WinningItem(ITEM(first, v), destinations[v], values[v]);
  }
  [unroll] for (uint s = 0; s < THREAD_ITEMS; ++s) {
    if (wins[s]) StoreOutput(destinations[s], values[s]);
  }
}
