// gather.hlsl for large gathers of one element a unit (plan/gpu_dispatch.h, kGpuLargeElements):
// groups of GS_LARGE_GROUP_THREADS, GS_ITEMS_PER_THREAD_GATHER_LARGE elements a thread.
#define GS_GROUP_THREADS GS_LARGE_GROUP_THREADS
#define THREAD_ITEMS GS_ITEMS_PER_THREAD_GATHER_LARGE
#define GS_BLOCKS_OF_ONE 1
#include "gather.hlsl"
