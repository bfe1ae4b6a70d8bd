// Overwrite scatters, step 2: one thread per update unit claims its destination with its
// row-major number (ClaimOf); InterlockedMin leaves the last update in row-major order as the
// claim, whatever order the threads run in. Step 1 cleared the word to unit 0's claim.
#include "claims.hlsli"

#define listHeads_MIN(w) InterlockedMin(listHeads##w[at], value);
void ClaimHead(uint e, uint value) { GS_IN_WINDOW4(e, listHeads_MIN) }

[numthreads(GS_THREADS_PER_GROUP, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint groupIndex : SV_GroupIndex) {
  uint unit, destination;
  if (UnitDestination(id, groupIndex, unit, destination)) ClaimHead(ClaimWord(destination), ClaimOf(unit));
}
