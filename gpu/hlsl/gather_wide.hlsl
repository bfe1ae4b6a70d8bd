// The gather of gather.hlsl on whole 16-byte words, GS_ITEMS_PER_THREAD a thread
// (R32G32B32A32_UINT views of Input and Output, a 16-byte load and store each): for gathers
// whose blocks, strides and view starts all hold whole words, walked in words
// (plan/gpu_dispatch.cc, GatherWordBytes).
// ELEMENT_BYTES does not matter: every variant is this kernel.
#undef ELEMENT_BYTES
#define ELEMENT_BYTES 16
#define THREAD_ITEMS GS_ITEMS_PER_THREAD
#include "gather.hlsl"
