// Checked mode's validation (validate.hlsl, scatter_validate_clear_claims.hlsl) and its report
// (report_bad_index.hlsl): Indices elements by flat row-major position, the first bad one
// placed in the status word, its value next to it.
#ifndef GS_VALIDATION_HLSLI
#define GS_VALIDATION_HLSLI
#include "common.hlsli"

// The Indices view's element offset of flat position p.
uint IndicesOffsetOf(uint p) {
  if (validation.rank_elementCount.x == 1) return p * LOW(validation.strides, 0);  // no division
  uint offset = 0;
  for (uint d = validation.rank_elementCount.x; d-- > 0;) {
    uint size = LOW(validation.sizes, d);
    offset += (p % size) * LOW(validation.strides, d);
    p /= size;
  }
  return offset;
}

// False when the element at flat position p, of the value given, is out of bounds, after
// lowering the status word to p (InterlockedMin: the smallest bad position wins, in whatever
// order threads run).
bool PositionIsGood(uint p, uint2 value) {
  uint component = validation.tupleSize_reserved.x == 1 ? 0 : p % validation.tupleSize_reserved.x;
  uint position;
  if (ResolveIndex(value, LOW(validation.bounds, component), position)) return true;
  uint previous;
  InterlockedMin(status[GS_STATUS_FIRST_BAD], p, previous);
  return false;
}

bool ValidatePosition(uint p) { return PositionIsGood(p, LoadIndex(IndicesOffsetOf(p))); }

// Once the first bad flat position p is placed: its value goes next to it, so that the host can
// word the error without reading the indices itself. None when no index is bad, or when a
// gather met one that the validation did not find again (the indices changed during the call).
void ReportBadIndexValue(uint p) {
  if (p >= validation.rank_elementCount.z) return;
  uint2 value = LoadIndex(IndicesOffsetOf(p));
  status[GS_STATUS_VALUE_LOW] = value.x;
  status[GS_STATUS_VALUE_HIGH] = P_INDEX64 != 0 ? value.y : 0u;
}

// Where the plan says so (P_REPORTS_BAD_INDEX), the last of a validating pass's groups to finish
// reports the value, so that no one-thread pass follows it (plan/gpu_dispatch.h,
// kGpuSelfReportingValidationThreads). Each group counts itself done once its InterlockedMins
// are; the last one reads the word they left. Every thread of a group that has not returned as a
// whole calls it (it holds group barriers).
groupshared uint isLastGroup;

void ReportIfLastGroup(uint lane) {
  if (P_REPORTS_BAD_INDEX == 0) return;
  DeviceMemoryBarrierWithGroupSync();
  if (lane == 0) {
    uint done;
    InterlockedAdd(status[GS_STATUS_GROUPS_DONE], 1u, done);
    isLastGroup = done + 1 == (P_THREADS + GS_THREADS_PER_GROUP - 1) / GS_THREADS_PER_GROUP ? 1u : 0u;
  }
  // The whole group takes one branch: vkd3d 1.2 turns DeviceMemoryBarrier into a barrier of
  // the group's threads, which must not stand where only some of them run.
  GroupMemoryBarrierWithGroupSync();
  if (isLastGroup == 0) return;
  DeviceMemoryBarrier();
  if (lane != 0) return;
  uint first;
  InterlockedOr(status[GS_STATUS_FIRST_BAD], 0u, first);
  ReportBadIndexValue(first);
}

#endif  // GS_VALIDATION_HLSLI
