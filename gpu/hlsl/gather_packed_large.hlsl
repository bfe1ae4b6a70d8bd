// gather_packed.hlsl for large gathers (plan/gpu_dispatch.h, kGpuLargeElements): groups of
// GS_LARGE_GROUP_THREADS.
#define GS_GROUP_THREADS GS_LARGE_GROUP_THREADS
#include "gather_packed.hlsl"
