// Gathers: one thread per output element (unit and element of its block). Out-of-bounds
// units give zeros; in checked mode they also mark that a bad index was met, for the
// validation that follows to place the first one (a failed gather may have written its view).
// No thread reads the status first: a clean call, the one that matters, pays no load for it.
#include "common.hlsli"

[numthreads(GS_THREADS_PER_GROUP, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
  uint t = ThreadIndex(id);
  if (t >= P_THREADS) return;
  uint unit = t / K_BLOCK;
  uint element = t % K_BLOCK;
  UnitOffsets o = SeekUnit(unit);
  uint source;
  Element value = (Element)0;
  if (IndexedOffset(o, source)) {
    value = LoadInput(source + element);
  } else if (P_CHECKED != GS_UNCHECKED) {
    uint previous;
    InterlockedMin(status[0], GS_BAD_INDEX_MET, previous);
  }
  StoreOutput(o.iter + element, value);
}
