// Gathers: THREAD_ITEMS output elements a thread (units and elements of their blocks;
// FirstItem), every item loaded before any is stored. Out-of-bounds units give zeros; in
// checked mode they also mark that a bad index was met, for the validation that follows to
// place the first one (a failed gather may have written its view). No thread reads the status
// first: a clean call, the one that matters, pays no load for it.
#include "common.hlsli"

// Item t's Input element (zeros for a bad index, which sets met) and where it goes in Output.
Element GatherItem(uint t, out uint destination, inout bool met) {
  uint source;
#ifdef GS_BLOCKS_OF_ONE
  // A unit an element (gather_large.hlsl): no division, and element gathers' tuples of one
  // need no loop.
  UnitOffsets o = SeekUnit(t);
  destination = o.iter;
  bool found;
  if (K_TUPLE == 1) {
    found = IndexedOffsetOfOne(o, source);
  } else {
    found = IndexedOffset(o, source);
  }
  if (found) return LoadInput(source);
#else
  uint unit = t / K_BLOCK;
  uint element = t - unit * K_BLOCK;
  UnitOffsets o = SeekUnit(unit);
  destination = o.iter + element;
  if (IndexedOffset(o, source)) return LoadInput(source + element);
#endif
  met = true;
  return (Element)0;
}

[numthreads(GS_GROUP_THREADS, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint lane : SV_GroupIndex) {
  uint first = FirstItem(id, lane);
  Element values[THREAD_ITEMS];
  uint destinations[THREAD_ITEMS];
  bool met = false;
  [unroll] for (uint v = 0; v < THREAD_ITEMS; ++v) {
    values[v] = (Element)0;
    destinations[v] = 0;
    if (ITEM(first, v) < P_THREADS) values[v] = GatherItem(ITEM(first, v), destinations[v], met);
  }
  if (met && P_CHECKED != GS_UNCHECKED) {
    uint previous;
    InterlockedMin(status[GS_STATUS_FIRST_BAD], GS_BAD_INDEX_MET, previous);
  }
  [unroll] for (uint s = 0; s < THREAD_ITEMS; ++s) {
    if (ITEM(first, s) < P_THREADS) StoreOutput(destinations[s], values[s]);
  }
}
