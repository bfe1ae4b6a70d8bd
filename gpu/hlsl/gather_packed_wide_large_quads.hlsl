// gather_packed_wide_large.hlsl reading each word's indices in 16-byte loads (plan/gpu_dispatch.h,
// IndicesInQuads).
#define GS_INDEX_QUADS 1
#include "gather_packed_wide_large.hlsl"
