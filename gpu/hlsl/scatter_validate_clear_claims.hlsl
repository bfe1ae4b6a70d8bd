// Checked overwrite scatters whose claims clear only the words their units target, step 1:
// thread t validates Indices position t, as validate.hlsl does a scatter's, and clears the
// claim word of unit t's destination, as scatter_clear_claims.hlsl does: one pass, not two. A
// claim word is scratch, so clearing it before every index is known good writes nothing of
// the caller's.
#include "claims.hlsli"
#include "validation.hlsli"

[numthreads(GS_THREADS_PER_GROUP, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint lane : SV_GroupIndex) {
  uint t = ThreadIndex(id);
  if (t - lane >= P_THREADS) return;  // the whole group is past the work, before the barrier
  if (t < validation.rank_elementCount.z) ValidatePosition(t);
  if (t < K_UNITS) {  // not in one condition: HLSL's && evaluates both sides
    uint destination;
    if (IndexedOffset(SeekUnit(t), destination)) StoreHead(ClaimWord(destination), ClaimOf(0));
  }
  ReportIfLastGroup(lane);
}
