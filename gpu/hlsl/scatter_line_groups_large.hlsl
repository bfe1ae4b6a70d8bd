// scatter_line_groups.hlsl for large scatters (plan/gpu_dispatch.h, kGpuLargeElements): groups of
// GS_LARGE_GROUP_THREADS, each line's updates a chunk of as many at a time.
#define GS_GROUP_THREADS GS_LARGE_GROUP_THREADS
#include "scatter_line_groups.hlsl"
