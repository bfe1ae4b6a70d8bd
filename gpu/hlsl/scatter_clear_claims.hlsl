// Overwrite scatters, step 1 where the claim words are many beside the units (else
// clear_lists.hlsl clears them all): one thread per update unit clears its destination's claim
// word. Only the words some update targets are cleared: an in-place scatter of a few rows into
// a large output touches no more than its rows.
#include "claims.hlsli"

[numthreads(GS_THREADS_PER_GROUP, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint groupIndex : SV_GroupIndex) {
  uint unit, destination;
  if (UnitDestination(id, groupIndex, unit, destination)) StoreHead(ClaimWord(destination), ClaimOf(0));
}
