// Gathers: one thread per output element (unit and element of its block). Out-of-bounds
// units give zeros (unchecked mode; checked mode never gets here with one).
#include "common.hlsli"

[numthreads(GS_THREADS_PER_GROUP, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
  uint t = ThreadIndex(id);
  if (t >= P_THREADS || BadIndexFound()) return;
  uint unit = t / K_BLOCK;
  uint element = t % K_BLOCK;
  UnitOffsets o = SeekUnit(unit);
  uint source;
  Element value = (Element)0;
  if (IndexedOffset(o, source)) value = LoadInput(source + element);
  StoreOutput(o.iter + element, value);
}
