// A scatter's Input -> Output copy (skipped in place): THREAD_ITEMS elements a thread, or
// words of 4, 8 or 16 bytes where the plan's copy holds whole ones (plan/gpu_dispatch.cc). A
// contiguous copy (rank 0: one block) walks nothing: element t to element t.
#include "scatter_status.hlsli"

// Item t's element offsets in Input and Output.
void CopyOffsets(uint t, out uint source, out uint destination) {
  source = t;
  destination = t;
  if (copy.rank_unitCount.x != 0) {
    uint block = copy.blockElements_reserved.x;
    uint unit = t / block;
    source = t - unit * block;
    destination = source;
    for (uint d = copy.rank_unitCount.x; d-- > 0;) {
      uint size = LOW(copy.sizes, d);
      uint coord = unit % size;
      unit /= size;
      source += coord * LOW(copy.srcStrides, d);
      destination += coord * LOW(copy.dstStrides, d);
    }
  }
}

[numthreads(GS_THREADS_PER_GROUP, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint lane : SV_GroupIndex) {
  uint first = FirstItem(id, lane);
  if (GroupStops(lane)) return;
  Element values[THREAD_ITEMS];
  uint destinations[THREAD_ITEMS];
  [unroll] for (uint v = 0; v < THREAD_ITEMS; ++v) {
    values[v] = (Element)0;
    destinations[v] = 0;
    if (ITEM(first, v) < P_THREADS) {
      uint source;
      CopyOffsets(ITEM(first, v), source, destinations[v]);
      values[v] = LoadInput(source);
    }
  }
  [unroll] for (uint s = 0; s < THREAD_ITEMS; ++s) {
    if (ITEM(first, s) < P_THREADS) StoreOutput(destinations[s], values[s]);
  }
}
