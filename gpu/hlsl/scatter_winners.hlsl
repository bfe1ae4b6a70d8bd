// Overwrite scatters, last step (after the copy when not in place): one thread per update
// element (or word); only the elements of the unit that holds its destination's claim are
// written, so each output element is written once, by its last update in row-major order, with
// no walk.
#include "claims.hlsli"

[numthreads(GS_THREADS_PER_GROUP, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint groupIndex : SV_GroupIndex) {
  uint t = ThreadIndex(id);
  if (GroupStops(groupIndex) || t >= P_THREADS) return;
  uint unit = t / K_BLOCK;
  UnitOffsets o = SeekUnit(unit);
  uint destination;
  if (!IndexedOffset(o, destination) || LoadHead(destination) != ClaimOf(unit)) return;
  uint element = t - unit * K_BLOCK;
  StoreOutput(destination + element, LoadUpdate(o.iter + element));
}
