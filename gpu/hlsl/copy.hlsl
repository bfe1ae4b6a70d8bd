// A scatter's Input -> Output copy (skipped in place): one thread per element, or per word of
// 4, 8 or 16 bytes where the plan's copy holds whole ones (plan/gpu_dispatch.cc). A contiguous
// copy (rank 0: one block) walks nothing: element t to element t.
#include "scatter_status.hlsli"

[numthreads(GS_THREADS_PER_GROUP, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint groupIndex : SV_GroupIndex) {
  uint t = ThreadIndex(id);
  if (GroupStops(groupIndex) || t >= P_THREADS) return;
  uint source = t;
  uint destination = t;
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
  StoreOutput(destination, LoadInput(source));
}
