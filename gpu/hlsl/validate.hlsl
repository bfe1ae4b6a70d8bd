// Checked mode: the Indices elements in row-major order, thread t taking positions t,
// t + threads, ... (a scatter runs a thread per element; a gather's validation a few, each a
// strided share, so that a clean call costs it little); the smallest bad flat position wins
// (InterlockedMin), so the first bad element is reported, as on the CPU. After a checked gather
// (GS_CHECKED_IF_MET) it runs only when the gather met a bad index.
//
// A gather's validation is its call's last pass, and reports the bad index's value itself
// (P_REPORTS_BAD_INDEX): each group counts itself done, and the last one reports, so that a
// checked gather is two dispatches, not three. A scatter's validation has a group per 64
// indices, too many to count on one word: report_bad_index.hlsl follows it.
#include "common.hlsli"

// Thread t's share: the first bad position in it, if any, lowers the status word.
void ValidateShare(uint t) {
  // Positions stay below 2^31 (the Indices views hold at most 2^30 words): p + P_THREADS does not wrap.
  for (uint p = t; p < validation.rank_elementCount.z; p += P_THREADS) {
    uint offset = 0;
    uint rest = p;
    for (uint d = validation.rank_elementCount.x; d-- > 0;) {
      uint size = LOW(validation.sizes, d);
      offset += (rest % size) * LOW(validation.strides, d);
      rest /= size;
    }
    uint component = p % validation.tupleSize_reserved.x;
    uint position;
    if (!ResolveIndex(LoadIndex(offset), LOW(validation.bounds, component), position)) {
      uint previous;
      InterlockedMin(status[GS_STATUS_FIRST_BAD], p, previous);
      return;  // this thread's later positions are all larger
    }
  }
}

[numthreads(GS_THREADS_PER_GROUP, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint lane : SV_GroupIndex) {
  // Both returns are whole groups, before the barrier: the gather before this pass set the
  // status word, and this pass only lowers a word it found set.
  if (P_CHECKED == GS_CHECKED_IF_MET && status[GS_STATUS_FIRST_BAD] == GS_NO_BAD_INDEX) return;
  uint t = ThreadIndex(id);
  if (t - lane >= P_THREADS) return;
  if (t < P_THREADS) ValidateShare(t);
  if (P_REPORTS_BAD_INDEX == 0) return;
  // The group's InterlockedMins are done before it counts itself, and the last group to count
  // reads the word they left.
  DeviceMemoryBarrierWithGroupSync();
  if (lane != 0) return;
  uint done;
  InterlockedAdd(status[GS_STATUS_GROUPS_DONE], 1u, done);
  if (done + 1 != (P_THREADS + GS_THREADS_PER_GROUP - 1) / GS_THREADS_PER_GROUP) return;
  DeviceMemoryBarrier();
  uint first;
  InterlockedOr(status[GS_STATUS_FIRST_BAD], 0u, first);
  ReportBadIndexValue(first);
}
