// Scatters, last step: one thread per output element walks its list of updates in row-major
// order (the order step's links). Reduction NONE takes the last update; the reductions fold
// every update into the value the copy left there, one at a time, in row-major order (the
// spec's arithmetic). That read of the output is a typed UAV load: core for R32_UINT, optional
// for the other formats (gpu/d3d12/features.h refuses it on a device without).
#include "scatter_status.hlsli"
#include "reductions.hlsli"

[numthreads(GS_THREADS_PER_GROUP, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint groupIndex : SV_GroupIndex) {
  uint x = ThreadIndex(id);
  if (GroupStops(groupIndex) || x >= P_THREADS) return;
  uint head = LoadHead(x);
  if (head == GS_NO_BAD_INDEX) return;
  // The first update in row-major order, then the order step's links.
  uint first = head;
  for (uint t = LoadNext(head); t != GS_NO_BAD_INDEX; t = LoadNext(t)) first = min(first, t);
  if (P_REDUCTION == GS_REDUCTION_NONE) {
    uint last = first;
    for (uint n = LoadOrder(last); n != GS_NO_BAD_INDEX; n = LoadOrder(n)) last = n;
    StoreOutput(x, LoadUpdate(LoadSource(last)));
    return;
  }
  Element acc = LoadOutput(x);
  for (uint u = first; u != GS_NO_BAD_INDEX; u = LoadOrder(u)) {
    acc = Combine(acc, LoadUpdate(LoadSource(u)));
  }
  StoreOutput(x, acc);
}
