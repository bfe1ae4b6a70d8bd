// The winners of scatter_winners.hlsl in whole 16-byte words, GS_ITEMS_PER_THREAD a thread
// (R32G32B32A32_UINT views of Updates and Output), claimed per destination word as the claim
// passes walked them (plan/gpu_dispatch.cc, ScatterWordBytes). ELEMENT_BYTES does not matter:
// every variant is this kernel.
#undef ELEMENT_BYTES
#define ELEMENT_BYTES 16
#define THREAD_ITEMS GS_ITEMS_PER_THREAD
#include "scatter_winners.hlsl"
