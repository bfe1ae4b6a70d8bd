// The copy of copy.hlsl in whole 16-byte words, one a thread (R32G32B32A32_UINT views of Input
// and Output): for overwrite scatters whose copy, update walk and view starts all hold whole
// words (plan/gpu_dispatch.cc, ScatterWordBytes). ELEMENT_BYTES does not matter: every variant
// is this kernel.
#undef ELEMENT_BYTES
#define ELEMENT_BYTES 16
#define THREAD_ITEMS GS_ITEMS_PER_THREAD
#include "copy.hlsl"
