// scatter_lines.hlsl for long lines: a group of threads per line, which takes its updates a
// chunk of GS_GROUP_THREADS at a time, lane l the chunk's update l. A thread per line of
// thousands of updates leaves a GPU with a few warps per core and its loads' latency unhidden.
// Order stays the line's: in a chunk, an update is stored only where no later update of the
// chunk has its destination; a chunk's stores come before the next chunk's (a barrier with
// device memory order between them). The plan picks this pass (plan/gpu_dispatch.cc).
#include "scatter_line.hlsli"

#define NO_DESTINATION 0xffffffffu

groupshared uint chunkDestinations[GS_GROUP_THREADS];

[numthreads(GS_GROUP_THREADS, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint lane : SV_GroupIndex) {
  // P_THREADS is the lines' threads, a group a line: both returns are whole groups.
  uint lineIndex = (ThreadIndex(id) - lane) / GS_GROUP_THREADS;  // `line` is an HLSL keyword
  if (GroupStops(lane) || lineIndex >= P_THREADS / GS_GROUP_THREADS) return;
  ScatterLine l = SeekLine(lineIndex);
  for (uint j = 0; j < l.length; j += GS_GROUP_THREADS) {
    uint u = j + lane;
    uint destination = NO_DESTINATION;  // also an update whose index is out of bounds (unchecked)
    Element value = (Element)0;
    if (u < l.length) {
      uint position;
      value = LoadUpdate(l.first.iter + u * l.iterStep);
      if (ResolveIndex(LoadIndex(l.first.index + u * l.indexStep), l.bound, position)) destination = l.first.data + position * l.stride;
    }
    chunkDestinations[lane] = destination;
    GroupMemoryBarrierWithGroupSync();
    bool last = destination != NO_DESTINATION;
    for (uint later = lane + 1; later < GS_GROUP_THREADS && last; ++later) {
      last = chunkDestinations[later] != destination;
    }
    if (last) StoreOutput(destination, value);
    DeviceMemoryBarrierWithGroupSync();
  }
}
