// gather_packed.hlsl with a 16-byte word of Output a thread (R32G32B32A32_UINT view): 16 1-byte,
// 8 2-byte, 4 4-byte or 2 8-byte elements, one store.
#define OUTPUT_BYTES 16
#include "gather_packed.hlsl"
