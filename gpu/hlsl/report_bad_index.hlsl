// Checked scatters, after a validation too long to report itself (validate.hlsl): one thread
// reports the first bad index's value.
#include "validation.hlsli"

[numthreads(GS_THREADS_PER_GROUP, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
  if (ThreadIndex(id) == 0) ReportBadIndexValue(status[GS_STATUS_FIRST_BAD]);
}
