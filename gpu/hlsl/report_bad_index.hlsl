// Checked scatters, after their validation: one thread reports the first bad index's value
// (a gather's validation reports it itself, validate.hlsl).
#include "common.hlsli"

[numthreads(GS_THREADS_PER_GROUP, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
  if (ThreadIndex(id) == 0) ReportBadIndexValue(status[GS_STATUS_FIRST_BAD]);
}
