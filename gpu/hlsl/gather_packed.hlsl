// The gather of gather.hlsl for 1- and 2-byte elements, a thread per 32-bit word of Output (4
// or 2 elements): each element's index resolved and its Input element loaded through the
// narrow view, packed little-endian, one store through Output's R32_UINT view (the host's, from
// the schedule's outputBytes). A narrow store writes part of a word, which GPUs do as a slower
// read-modify-write. The plan runs it only where Output is written densely from an aligned
// start in whole words (plan/gpu_dispatch.cc, GatherPacksWords): thread w's elements are
// w * PER_WORD ..., its word is w, and every byte of it is one of the call's elements.
// Wider elements have nothing to pack: their variants are gather.hlsl.
#if ELEMENT_BYTES >= 4
#include "gather.hlsl"
#else
#include "common.hlsli"

#define PER_WORD (4 / ELEMENT_BYTES)

[numthreads(GS_THREADS_PER_GROUP, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
  uint w = ThreadIndex(id);
  if (w >= P_THREADS) return;
  uint word = 0;
  bool met = false;
  [unroll] for (uint i = 0; i < PER_WORD; ++i) {
    uint t = w * PER_WORD + i;
    uint source;
    if (IndexedOffset(SeekUnit(t / K_BLOCK), source)) {
      word |= LoadInput(source + t % K_BLOCK) << (8 * ELEMENT_BYTES * i);
    } else {
      met = true;  // zeros, as gather.hlsl
    }
  }
  if (met && P_CHECKED != GS_UNCHECKED) {
    uint previous;
    InterlockedMin(status[0], GS_BAD_INDEX_MET, previous);
  }
  StoreOutput(w, word);
}
#endif
