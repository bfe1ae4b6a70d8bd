// gather_packed.hlsl for large gathers whose words step the innermost dim with one index
// component (plan/gpu_dispatch.h, kGpuLargeElements): groups of GS_LARGE_GROUP_THREADS.
#define GS_GROUP_THREADS GS_LARGE_GROUP_THREADS
#define GS_STEPS_INNERMOST 1
#include "gather_packed.hlsl"
