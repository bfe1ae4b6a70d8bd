// Checked mode: the Indices elements in row-major order, thread t taking positions t,
// t + threads, ... (a scatter runs a thread per element; a gather's validation a few, each a
// strided share, so that a clean call costs it little); the smallest bad flat position wins
// (InterlockedMin), so the first bad element is reported, as on the CPU. After a checked gather
// (GS_CHECKED_IF_MET) it runs only when the gather met a bad index. Where the plan says so it
// reports the bad index's value itself (validation.hlsli, ReportIfLastGroup).
#include "validation.hlsli"

// The windowed variant takes one a step: each load there is a switch over the windows.
#if GS_WINDOWED != 0
#define VALIDATION_STEPS 1
#else
#define VALIDATION_STEPS 4
#endif

[numthreads(GS_THREADS_PER_GROUP, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint lane : SV_GroupIndex) {
  // Both returns are whole groups, before the barrier: the gather before this pass set the
  // status word, and this pass only lowers a word it found set.
  if (P_CHECKED == GS_CHECKED_IF_MET && status[GS_STATUS_FIRST_BAD] == GS_NO_BAD_INDEX) return;
  uint t = ThreadIndex(id);
  if (t - lane >= P_THREADS) return;
  // Positions stay below 2^31 (the Indices views hold at most 2^30 words): p + VALIDATION_STEPS *
  // P_THREADS does not wrap. VALIDATION_STEPS positions a step, all loaded before any is checked.
  uint count = validation.rank_elementCount.z;
  if (t < P_THREADS) {
    for (uint p = t; p < count; p += VALIDATION_STEPS * P_THREADS) {
      uint2 values[VALIDATION_STEPS];
      [unroll] for (uint v = 0; v < VALIDATION_STEPS; ++v) {
        values[v] = uint2(0, 0);
        if (p + v * P_THREADS < count) values[v] = LoadIndex(IndicesOffsetOf(p + v * P_THREADS));
      }
      bool bad = false;  // this thread's later positions are all larger (HLSL's && evaluates both sides)
      [unroll] for (uint c = 0; c < VALIDATION_STEPS; ++c) {
        if (!bad) {
          if (p + c * P_THREADS < count) bad = !PositionIsGood(p + c * P_THREADS, values[c]);
        }
      }
      if (bad) break;
    }
  }
  ReportIfLastGroup(lane);
}
