// A scatter's Input -> Output copy (skipped in place): one thread per element.
#include "common.hlsli"

[numthreads(GS_THREADS_PER_GROUP, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
  uint t = ThreadIndex(id);
  if (t >= P_THREADS || BadIndexFound()) return;
  uint block = copy.blockElements_reserved.x;
  uint unit = t / block;
  uint source = t % block;
  uint destination = source;
  for (uint d = copy.rank_unitCount.x; d-- > 0;) {
    uint size = LOW(copy.sizes, d);
    uint coord = unit % size;
    unit /= size;
    source += coord * LOW(copy.srcStrides, d);
    destination += coord * LOW(copy.dstStrides, d);
  }
  StoreOutput(destination, LoadInput(source));
}
