// Checked mode: the Indices elements in row-major order, thread t taking positions t,
// t + threads, ... (a scatter runs a thread per element; a gather's validation a few, each a
// strided share, so that a clean call costs it little); the smallest bad flat position wins
// (InterlockedMin), so the first bad element is reported, as on the CPU. After a checked gather
// (GS_CHECKED_IF_MET) it runs only when the gather met a bad index. Where the plan says so it
// reports the bad index's value itself (validation.hlsli, ReportIfLastGroup).
#include "validation.hlsli"

[numthreads(GS_THREADS_PER_GROUP, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint lane : SV_GroupIndex) {
  // Both returns are whole groups, before the barrier: the gather before this pass set the
  // status word, and this pass only lowers a word it found set.
  if (P_CHECKED == GS_CHECKED_IF_MET && status[GS_STATUS_FIRST_BAD] == GS_NO_BAD_INDEX) return;
  uint t = ThreadIndex(id);
  if (t - lane >= P_THREADS) return;
  // Positions stay below 2^31 (the Indices views hold at most 2^30 words): p + P_THREADS does not wrap.
  if (t < P_THREADS) {
    for (uint p = t; p < validation.rank_elementCount.z; p += P_THREADS) {
      if (!ValidatePosition(p)) break;  // this thread's later positions are all larger
    }
  }
  ReportIfLastGroup(lane);
}
