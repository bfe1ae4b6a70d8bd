// Overwrite scatters (reduction NONE): each destination unit is claimed by its last update
// unit in row-major order, on the claim word of the destination's first Output element (or
// word: the schedule's walk in words, the same number space in every pass), ClaimWord.
#include "scatter_status.hlsli"

// A claim word holds the complement of its unit's row-major number, so that InterlockedMin
// leaves the last unit's and a cleared word (all ones: what scatter_clear_claims.hlsl and
// clear_lists.hlsl write) reads as unit 0's.
uint ClaimOf(uint unit) { return ~unit; }

// The claim word of the destination whose first Output element (or word) is `destination`:
// every destination is a multiple of 2^P_CLAIM_SHIFT (plan/gpu_dispatch.cc, ClaimShift).
uint ClaimWord(uint destination) { return destination >> P_CLAIM_SHIFT; }

// The thread's update unit and its destination's first Output element: false for a thread past
// the units, after a bad index (checked mode), and for an update that is dropped (unchecked).
bool UnitDestination(uint3 id, uint groupIndex, out uint unit, out uint destination) {
  unit = ThreadIndex(id);
  destination = 0;
  if (GroupStops(groupIndex) || unit >= P_THREADS) return false;
  return IndexedOffset(SeekUnit(unit), destination);
}
