// A scatter pass after the validation stops when the run must write nothing: a bad index
// (checked mode) or a list too long for a reduction's fold. Each status word
// is read only where it can be set, and once per group of threads rather than once a thread:
// the status does not change during a pass that only reads it.
#include "common.hlsli"

groupshared uint groupStops;

// Call before any thread of the group returns: every thread waits for the group's first.
bool GroupStops(uint groupIndex) {
  if (groupIndex == 0) {
    bool stops = (P_CHECKED != GS_UNCHECKED && status[GS_STATUS_FIRST_BAD] != GS_NO_BAD_INDEX) ||
                 (P_REDUCTION != GS_REDUCTION_NONE && status[GS_STATUS_LIST_TOO_LONG] != 0);
    groupStops = stops ? 1u : 0u;
  }
  GroupMemoryBarrierWithGroupSync();
  return groupStops != 0;
}
